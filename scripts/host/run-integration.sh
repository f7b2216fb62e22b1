#!/usr/bin/env bash
# Runs the integration tests (out/test/integration/*.test.js, built by `node scripts/build.mjs --tests`)
# inside a real VS Code extension host (code-server + headless chromium, see README.md here).
# Prints one line per test and a final "N passed, N failed"; exits non-zero if any test failed,
# none ran, or the host failed.
# Env: EDITGUARD_TEST_GREP (mocha grep), EDITGUARD_EXT_DIR / EDITGUARD_EXT_TESTS (another extension / test
# entry), EDITGUARD_TEST_TIMEOUT_MS, EDITGUARD_HOST_DIR, PORT, VERBOSE=1, SHOTS_DIR.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
bash "$REPO/scripts/host/install.sh"

export EXT_DIR="${EDITGUARD_EXT_DIR:-$REPO}"
export EXT_TESTS="${EDITGUARD_EXT_TESTS:-$REPO/out/test/integration/index.js}"
[ -f "$EXT_TESTS" ] || { echo "missing $EXT_TESTS: run 'node scripts/build.mjs --tests' first" >&2; exit 2; }
export PREINSTALL_EXTS="$REPO/test/scripted-agent"
export SETTINGS_FILE="$REPO/test/fixtures/user-settings.json"

mkdir -p "$REPO/.runs"
# keep the 20 newest test runs (~3 MB each); never touch one younger than an hour (it may be running)
ls -1dt "$REPO"/.runs/test-* 2>/dev/null | tail -n +21 | while read -r d; do
  [ -n "$(find "$d" -maxdepth 0 -mmin +60)" ] && rm -rf "$d"
done || true
export RUN_DIR
RUN_DIR=$(mktemp -d "$REPO/.runs/test-$(date +%Y%m%d-%H%M%S)-XXXX")
export SHOTS_DIR="${SHOTS_DIR:-$RUN_DIR/shots}"
# a fresh copy of the fixture workspace: unsaved/hot-exit state and test files never leak between runs
cp -r "$REPO/test/fixtures/workspace" "$RUN_DIR/ws"
export WORKSPACE="$RUN_DIR/ws"
export EDITGUARD_RESULT_FILE="$RUN_DIR/results.json"
export EDITGUARD_TEST_GREP="${EDITGUARD_TEST_GREP:-}"

start=$(date +%s)
set +e
node "$REPO/scripts/host/drive.js"
rc=$?
set -e

echo "run folder: $RUN_DIR ($(( $(date +%s) - start )) s)"
# the summary comes from the per-test records index.ts wrote, not from the mocha reporter's text;
# its last line is "N passed, N failed"
node "$REPO/scripts/host/drive.js" --summary "$EDITGUARD_RESULT_FILE" "$rc" && rc=0 || rc=$?
exit $rc
