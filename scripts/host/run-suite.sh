#!/usr/bin/env bash
# One run of a mocha suite inside the real VS Code extension host (code-server + headless Chromium,
# see README.md here); the body shared by run-integration.sh and run-copilot.sh, which set:
#   SUITE (run-folder prefix), EXT_TESTS (the test entry), PREINSTALL_EXTS (test-only extensions),
#   SETTINGS_FILE (user settings), KEEP_RUNS (run folders kept), and optionally CS_ENTRY, EXT_DIR.
# Prints one line per test and a final "N passed, N failed"; exits non-zero if any test failed,
# none ran, or the host failed.
# With EDITGUARD_HOST_SCRIPT=1 the entry is a script, not a suite (scripts/screenshots/run.sh): no test
# records, no summary; the exit code is the entry's (0 when its run() resolved).
set -euo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
: "${SUITE:?}" "${EXT_TESTS:?}" "${PREINSTALL_EXTS:?}" "${SETTINGS_FILE:?}" "${KEEP_RUNS:?}"
export EXT_DIR="${EXT_DIR:-$REPO}" EXT_TESTS PREINSTALL_EXTS SETTINGS_FILE
[ -f "$EXT_TESTS" ] || { echo "missing $EXT_TESTS: run 'node scripts/build.mjs --tests' first" >&2; exit 2; }

mkdir -p "$REPO/.runs"
# keep the newest runs (~3 MB each); never touch one younger than an hour (it may be running)
ls -1dt "$REPO"/.runs/"$SUITE"-* 2>/dev/null | tail -n +$((KEEP_RUNS + 1)) | while read -r d; do
  [ -n "$(find "$d" -maxdepth 0 -mmin +60)" ] && rm -rf "$d"
done || true
export RUN_DIR
RUN_DIR=$(mktemp -d "$REPO/.runs/$SUITE-$(date +%Y%m%d-%H%M%S)-XXXX")
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
if [ -n "${EDITGUARD_HOST_SCRIPT:-}" ]; then exit $rc; fi
# the summary comes from the per-test records the test entry wrote, not from the mocha reporter's
# text; its last line is "N passed, N failed"
node "$REPO/scripts/host/drive.js" --summary "$EDITGUARD_RESULT_FILE" "$rc" && rc=0 || rc=$?
exit $rc
