#!/usr/bin/env bash
# Runs the Copilot suite (out/test/copilot/*.test.js, built by `node scripts/build.mjs --tests`) inside a
# real VS Code extension host under GitHub Copilot Chat's own agent loop (the Copilot Chat that code-server's
# VS Code bundles), with the test-only scripted fake model test/copilot/fake-model. Offline, no sign-in.
# Prints one PASS/FAIL line per test and a final "N passed, N failed"; exits non-zero if any test failed,
# none ran, or the host failed.
#
# Copilot writes into its own install folder when it starts, so it runs from a PRIVATE copy of the host's
# code-server install ($EDITGUARD_COPILOT_CS, default <host dir>/cs-copilot), made once from <host dir>/cs
# and re-made when the host is reinstalled; the shared install is never run here.
# Env: EDITGUARD_TEST_GREP (mocha grep), EDITGUARD_TEST_TIMEOUT_MS, EDITGUARD_HOST_DIR, EDITGUARD_COPILOT_CS,
# PORT, VERBOSE=1, SHOTS_DIR, EDITGUARD_WRITE_AGENT_SEES=1 (also write test/copilot/what-the-agent-sees.md).
set -euo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
bash "$REPO/scripts/host/install.sh"

HOST_DIR="${EDITGUARD_HOST_DIR:-$HOME/.cache/agent-edit-guard/host}"
CS_COPY="${EDITGUARD_COPILOT_CS:-$HOST_DIR/cs-copilot}"
# the copy is current when it was made from the install that is there now (install.sh's marker names it)
SOURCE_MARK=$(cd "$HOST_DIR" && ls -1 .installed-* 2>/dev/null | sort | tr '\n' ' ' || true)
[ -n "$SOURCE_MARK" ] || { echo "no host install in $HOST_DIR" >&2; exit 2; }
if [ "$(cat "$CS_COPY/.copied-from" 2>/dev/null)" != "$SOURCE_MARK" ]; then
  mkdir -p "$(dirname "$CS_COPY")"
  exec 8>"$CS_COPY.lock"
  flock 8 # two runs starting together make the copy once
  if [ "$(cat "$CS_COPY/.copied-from" 2>/dev/null)" != "$SOURCE_MARK" ]; then
    echo "[copilot] making a private copy of the code-server install for Copilot: $CS_COPY (once, ~600 MB)"
    rm -rf "$CS_COPY" "$CS_COPY.tmp"
    cp -a "$HOST_DIR/cs" "$CS_COPY.tmp"
    mv "$CS_COPY.tmp" "$CS_COPY"
    printf '%s' "$SOURCE_MARK" > "$CS_COPY/.copied-from"
  fi
  exec 8>&-
fi
export CS_ENTRY="$CS_COPY/node_modules/code-server/out/node/entry.js"
[ -f "$CS_ENTRY" ] || { echo "missing $CS_ENTRY" >&2; exit 2; }

export EXT_DIR="$REPO"
export EXT_TESTS="$REPO/out/test/copilot/index.js"
[ -f "$EXT_TESTS" ] || { echo "missing $EXT_TESTS: run 'node scripts/build.mjs --tests' first" >&2; exit 2; }
export PREINSTALL_EXTS="$REPO/test/copilot/fake-model"
export SETTINGS_FILE="$REPO/test/copilot/user-settings.json"

mkdir -p "$REPO/.runs"
# keep the 10 newest Copilot runs; never touch one younger than an hour (it may be running)
ls -1dt "$REPO"/.runs/copilot-* 2>/dev/null | tail -n +11 | while read -r d; do
  [ -n "$(find "$d" -maxdepth 0 -mmin +60)" ] && rm -rf "$d"
done || true
export RUN_DIR
RUN_DIR=$(mktemp -d "$REPO/.runs/copilot-$(date +%Y%m%d-%H%M%S)-XXXX")
export SHOTS_DIR="${SHOTS_DIR:-$RUN_DIR/shots}"
cp -r "$REPO/test/fixtures/workspace" "$RUN_DIR/ws"
export WORKSPACE="$RUN_DIR/ws"
export EDITGUARD_RESULT_FILE="$RUN_DIR/results.json"
export EDITGUARD_TEST_GREP="${EDITGUARD_TEST_GREP:-}"
export EDITGUARD_TEST_TIMEOUT_MS="${EDITGUARD_TEST_TIMEOUT_MS:-600000}"

start=$(date +%s)
set +e
node "$REPO/scripts/host/drive.js"
rc=$?
set -e

echo "run folder: $RUN_DIR ($(( $(date +%s) - start )) s)"
[ -f "$RUN_DIR/what-the-agent-sees.md" ] && echo "what the agent sees: $RUN_DIR/what-the-agent-sees.md"
node "$REPO/scripts/host/drive.js" --summary "$EDITGUARD_RESULT_FILE" "$rc" && rc=0 || rc=$?
exit $rc
