// The hook command's bash client, as text: the build writes it to dist/hook-client.sh (scripts/
// build.mjs). Why bash: a hook command starts a new process for every event of every tool call, and
// starting a JavaScript runtime costs ~30 ms where bash costs ~2 ms; bash's `/dev/tcp` reaches the
// extension (protocol.ts) without one. Where bash is missing, the hook command (command.ts) runs the
// Node client (nodeClient.ts) instead; both behave the same, and test/unit/hooksBridge.test.ts runs both.
//
// What it does: read the payload; find the window to ask — the one whose extension host it descends
// from (the address in its environment), else the one whose workspace folder holds the file the call
// touches (its record, discovery.ts); when the command named the tools this event matters for, the
// payload's tool is none of them and its chat has no call to settle (no marker, protocol.ts
// PENDING_PREFIX), stop (the call is allowed, nothing asked); else send it with the window's secret
// and print the extension's answer. Whatever goes wrong it prints nothing and exits
// 0, which lets the call through (fail-open, docs/design.md rule 7), and notes the miss for the log.
// The payload is the agent's `JSON.stringify` (no spaces), and a `"tool_name":"` inside a string value
// would be escaped (`\"tool_name\"`), so the first match is the payload's own field; a payload whose
// tool cannot be read this way is sent, never dropped.
import { COPILOT } from './channels';
import { DEFAULT_BOUND_MS, DISCOVERY_PATH, ENV, HEADER, MARKABLE_CHAT_ID, PENDING_PREFIX, ENTRY_SUFFIX, STATUS } from './protocol';

/** The character class of a chat id that can have a marker, as bash's regex writes it. */
const CHAT_ID_CLASS = /^\^(\[[^\]]+\])/.exec(MARKABLE_CHAT_ID.source)![1];

export const CLIENT_SCRIPT_NAME = 'hook-client.sh';

export function hookClientScript(): string {
  return `#!/usr/bin/env bash
# Agent Edit Guard's hook client, generated from src/hooks/bashClient.ts; do not edit.
# Usage (as a hook command): bash ${CLIENT_SCRIPT_NAME} <agent id> <HookEvent> [<tool name> ...]
exec 2>/dev/null
trap '' PIPE
LC_ALL=C
agent=$1
event=$2
shift 2
tools=("$@")
# the whole payload, without a subshell (read stops at the end of the input)
IFS= read -r -d '' payload
tool=
re='"tool_name":"([^"]*)"'
[[ $payload =~ $re ]] && tool=\${BASH_REMATCH[1]}
chat=
re='"session_id":"(${CHAT_ID_CLASS}+)"'
[[ $payload =~ $re ]] && chat=\${BASH_REMATCH[1]}
address=$${ENV.socket} secret=$${ENV.secret} missed=$${ENV.missed} state=$${ENV.state}
if [ -z "$address" ]; then
  # not a child of a window's extension host: the window whose folder holds the file, from its entry (discovery.ts)
  dir=$HOME/${DISCOVERY_PATH}
  [ -d "$dir" ] && [ -O "$dir" ] || exit 0
  cwd=
  re='"cwd":"([^"]*)"'
  [[ $payload =~ $re ]] && cwd=\${BASH_REMATCH[1]}
  target=$cwd
  re='"(file_path|filePath|path)":"([^"]*)"'
  if [[ $payload =~ $re ]]; then
    target=\${BASH_REMATCH[2]}
    [[ $target == /* ]] || target=$cwd/$target
  fi
  [ -n "$target" ] || exit 0
  best= depth=-1
  for f in "$dir"/*${ENTRY_SUFFIX}; do
    [ -f "$f" ] && [ -O "$f" ] || continue
    a= s= m= st= p= start= deep=-1
    while IFS='=' read -r k v; do
      case $k in
        address) a=$v ;;
        secret) s=$v ;;
        missed) m=$v ;;
        state) st=$v ;;
        pid) p=$v ;;
        start) start=$v ;;
        folder) [[ $target == "$v" || $target == "$v"/* ]] && [ \${#v} -gt $deep ] && deep=\${#v} ;;
      esac
    done <"$f"
    [ $deep -ge 0 ] && [ -n "$p" ] && kill -0 "$p" || continue
    if [ -n "$start" ]; then
      # the pid is the window's only while its start time is the one recorded
      IFS= read -r stat <"/proc/$p/stat" || continue
      read -ra fields <<<"\${stat##*) }"
      [ "\${fields[19]}" = "$start" ] || continue
    fi
    if [ $deep -gt $depth ] || { [ $deep -eq $depth ] && [ "$f" -nt "$best" ]; }; then
      best=$f depth=$deep address=$a secret=$s missed=$m state=$st
    fi
  done
fi
[ -n "$address" ] && [ -n "$secret" ] || exit 0
miss() {
  [ -n "$missed" ] && printf '{"at":%s000,"event":"%s","tool":"%s","why":"%s"}\\n' "$(date +%s)" "$event" "$tool" "$1" >>"$missed"
  exit 0
}
if [ \${#tools[@]} -gt 0 ] && [ -n "$tool" ]; then
  wanted=
  for name in "\${tools[@]}"; do [ "$name" = "$tool" ] && wanted=1 && break; done
  # nothing of this chat to settle: the event changes nothing for the gate
  [ -n "$wanted" ] || [ -z "$chat" ] || [ -z "$state" ] || [ -e "$state/${PENDING_PREFIX}$chat" ] || exit 0
fi
# the program that ran this hook (it exec'd us): read from /proc, with no process started; elsewhere only for the
# entries two programs run (the Copilot CLI and the Copilot harness run Copilot's, and are told apart by it). The
# name it was started by (argv[0]), not its thread's: the Copilot CLI's main thread is named "MainThread"
parent=
if [ -r "/proc/$PPID/cmdline" ]; then
  IFS= read -r -d '' parent <"/proc/$PPID/cmdline"
  [ -n "$parent" ] || IFS= read -r parent <"/proc/$PPID/comm"
elif [ "$agent" = ${COPILOT} ]; then
  parent=$(ps -o comm= -p "$PPID")
fi
parent=\${parent##*/}
parent=\${parent//[^A-Za-z0-9._-]/_}
parent=\${parent:0:64}
ms=$${ENV.boundMs}
case $ms in '' | *[!0-9]*) ms=${DEFAULT_BOUND_MS} ;; esac
exec 3<>"/dev/tcp/\${address%:*}/\${address##*:}" || miss 'could not reach the extension'
printf '%s %s %s %s %s\\n%s' '${HEADER}' "$secret" "$agent" "\${parent:--}" "\${#payload}" "$payload" >&3 || miss 'could not send the hook input'
printf -v bound '%d.%03d' $((ms / 1000)) $((ms % 1000))
# bash 3 (macOS) reads whole seconds only
[ "\${BASH_VERSINFO[0]}" -ge 4 ] || bound=$(((ms + 999) / 1000))
IFS= read -r -t "$bound" status <&3 || miss "no answer from the extension within $ms ms"
[ "$status" = ${STATUS.ok} ] || miss "the extension refused the request ($status)"
# the answer, printed as it came (read stops at the end of it)
IFS= read -r -d '' answer <&3
printf '%s' "$answer"
`;
}
