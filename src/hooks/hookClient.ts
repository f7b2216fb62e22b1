// The hook command's bash client, as text: the build writes it to dist/hook-client.sh (scripts/
// build.mjs). Why bash: a hook command starts a new process for every event of every tool call, and
// starting a JavaScript runtime costs ~30 ms where bash costs ~2 ms; bash's `/dev/tcp` reaches the
// extension (bridgeProtocol.ts) without one. Where bash is missing, hooksFile.ts runs the Node client
// (bridgeScript.ts) instead; both behave the same, and test/unit/hooksBridge.test.ts runs both.
//
// What it does: read the payload; when the command named the tools this event matters for, the
// payload's tool is none of them and its chat has no call to settle (no marker, bridgeProtocol.ts
// PENDING_PREFIX), stop (the call is allowed, nothing asked); else send it with the window's secret
// and print the extension's answer. Whatever goes wrong it prints nothing and exits
// 0, which lets the call through (fail-open, docs/design.md rule 7), and notes the miss for the log.
// The payload is Copilot's `JSON.stringify` (no spaces), and a `"tool_name":"` inside a string value
// would be escaped (`\"tool_name\"`), so the first match is the payload's own field; a payload whose
// tool cannot be read this way is sent, never dropped.
import { DEFAULT_BOUND_MS, ENV, HEADER, MARKABLE_CHAT_ID, PENDING_PREFIX, STATUS } from './bridgeProtocol';

/** The character class of a chat id that can have a marker, as bash's regex writes it. */
const CHAT_ID_CLASS = /^\^(\[[^\]]+\])/.exec(MARKABLE_CHAT_ID.source)![1];

export const CLIENT_SCRIPT_NAME = 'hook-client.sh';

export function hookClientScript(): string {
  return `#!/usr/bin/env bash
# Agent Edit Guard's hook client, generated from src/hooks/hookClient.ts; do not edit.
# Usage (as a hook command): bash ${CLIENT_SCRIPT_NAME} <HookEvent> [<tool name> ...]
exec 2>/dev/null
trap '' PIPE
LC_ALL=C
event=$1
shift
payload=$(cat) || exit 0
tool=
re='"tool_name":"([^"]*)"'
[[ $payload =~ $re ]] && tool=\${BASH_REMATCH[1]}
chat=
re='"session_id":"(${CHAT_ID_CLASS}+)"'
[[ $payload =~ $re ]] && chat=\${BASH_REMATCH[1]}
miss() {
  [ -n "$${ENV.missed}" ] && printf '{"at":%s000,"event":"%s","tool":"%s","why":"%s"}\\n' "$(date +%s)" "$event" "$tool" "$1" >>"$${ENV.missed}"
  exit 0
}
if [ $# -gt 0 ] && [ -n "$tool" ]; then
  wanted=
  for name in "$@"; do [ "$name" = "$tool" ] && wanted=1 && break; done
  # nothing of this chat to settle: the event changes nothing for the gate
  [ -n "$wanted" ] || [ -z "$chat" ] || [ -z "$${ENV.state}" ] || [ -e "$${ENV.state}/${PENDING_PREFIX}$chat" ] || exit 0
fi
address=$${ENV.socket}
[ -n "$address" ] && [ -n "$${ENV.secret}" ] || exit 0
ms=$${ENV.boundMs}
case $ms in '' | *[!0-9]*) ms=${DEFAULT_BOUND_MS} ;; esac
exec 3<>"/dev/tcp/\${address%:*}/\${address##*:}" || miss 'could not reach the extension'
printf '%s %s %s\\n%s' '${HEADER}' "$${ENV.secret}" "\${#payload}" "$payload" >&3 || miss 'could not send the hook input'
printf -v bound '%d.%03d' $((ms / 1000)) $((ms % 1000))
# bash 3 (macOS) reads whole seconds only
[ "\${BASH_VERSINFO[0]}" -ge 4 ] || bound=$(((ms + 999) / 1000))
IFS= read -r -t "$bound" status <&3 || miss "no answer from the extension within $ms ms"
[ "$status" = ${STATUS.ok} ] || miss "the extension refused the request ($status)"
exec cat <&3
`;
}
