#!/usr/bin/env bash
# The pictures and captured texts of the README and docs/, made in the real host — scripts, not tests (no suite runs
# them; the behaviour they show is asserted by test/integration and test/copilot):
#   run.sh readme    `npm run screenshots`: readme.ts in the integration host (@scripted) →
#                    media/chat-blocked-write.png, editor-diagnostic.png, read-marks-quick-pick.png,
#                    agent-picker.png, tool-picker.png
#   run.sh copilot   `npm run copilot:capture`: copilot.ts under Copilot Chat's real agent loop →
#                    test/copilot/what-the-agent-sees.md, what-the-agent-sees-builtin.md, media/copilot-blocked-retry.png
# Needs `node scripts/build.mjs --tests` first (the npm scripts do it). Env: SHOTS_DIR (default media/),
# EDITGUARD_CAPTURE_DIR (default test/copilot/), plus the host runners' (VERBOSE=1, PORT, EDITGUARD_HOST_DIR…).
# Exits non-zero when the host run failed or an expected file was not written.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
what="${1:-}"
export SHOTS_DIR="${SHOTS_DIR:-$REPO/media}"
export EDITGUARD_CAPTURE_DIR="${EDITGUARD_CAPTURE_DIR:-$REPO/test/copilot}"
export EDITGUARD_HOST_SCRIPT=1
case "$what" in
  readme)
    runner=run-integration.sh
    expected=("$SHOTS_DIR"/{chat-blocked-write,editor-diagnostic,read-marks-quick-pick,agent-picker,tool-picker}.png) ;;
  copilot)
    runner=run-copilot.sh
    expected=("$SHOTS_DIR/copilot-blocked-retry.png" "$EDITGUARD_CAPTURE_DIR"/what-the-agent-sees{,-builtin}.md) ;;
  *) echo "usage: $0 readme|copilot" >&2; exit 2 ;;
esac
entry="$REPO/out/scripts/screenshots/$what.js"
[ -f "$entry" ] || { echo "missing $entry: run 'node scripts/build.mjs --tests' first" >&2; exit 2; }

stamp=$(mktemp)
trap 'rm -f "$stamp"' EXIT
set +e
EDITGUARD_EXT_TESTS="$entry" bash "$REPO/scripts/host/$runner"
rc=$?
set -e
missing=0
for f in "${expected[@]}"; do
  if [ "$f" -nt "$stamp" ]; then echo "written: ${f#"$REPO"/} ($(stat -c %s "$f") bytes)"
  else echo "NOT written: ${f#"$REPO"/}"; missing=1; fi
done
[ "$rc" -ne 0 ] && { echo "the $what run failed (exit code $rc): see the run folder above" >&2; exit "$rc"; }
[ "$missing" -ne 0 ] && { echo "the $what run did not write every file" >&2; exit 1; }
exit 0
