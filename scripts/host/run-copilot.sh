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
# Env: EDITGUARD_TEST_GREP (mocha grep), EDITGUARD_IDLE_LIMIT_MS, EDITGUARD_HOST_DIR, EDITGUARD_COPILOT_CS,
# PORT, VERBOSE=1, SHOTS_DIR, EDITGUARD_EXT_TESTS (another entry: `npm run copilot:capture` runs
# scripts/screenshots/copilot.ts here, see scripts/screenshots/run.sh; `npm run bench` runs
# bench/copilot/index.ts here), EXT_DIR (another copy of the extension: the bench's, in bench/tmp).
set -euo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
bash "$REPO/scripts/host/install.sh"

eval "$(node "$REPO/scripts/host/paths.js" --sh)"
# the copy is current when it was made from the install that is there now (install.sh's marker names
# the versions and holds the time the install finished)
[ -f "$MARKER" ] || { echo "no host install in $HOST_DIR" >&2; exit 2; }
SOURCE_MARK="$(basename "$MARKER") $(cat "$MARKER")"
if [ "$(cat "$CS_COPY/.copied-from" 2>/dev/null)" != "$SOURCE_MARK" ]; then
  mkdir -p "$(dirname "$CS_COPY")"
  exec 8>"$CS_COPY.lock"
  flock 8 # two runs starting together make the copy once
  if [ "$(cat "$CS_COPY/.copied-from" 2>/dev/null)" != "$SOURCE_MARK" ]; then
    echo "[copilot] making a private copy of the code-server install for Copilot: $CS_COPY (once, ~600 MB)"
    rm -rf "$CS_COPY" "$CS_COPY.tmp"
    cp -a "$CS_INSTALL" "$CS_COPY.tmp"
    mv "$CS_COPY.tmp" "$CS_COPY"
    printf '%s' "$SOURCE_MARK" > "$CS_COPY/.copied-from"
  fi
  exec 8>&-
fi
export CS_ENTRY="$CS_COPY_ENTRY"
[ -f "$CS_ENTRY" ] || { echo "missing $CS_ENTRY" >&2; exit 2; }

SUITE=copilot EXT_TESTS="${EDITGUARD_EXT_TESTS:-$REPO/out/test/copilot/index.js}" \
  PREINSTALL_EXTS="$REPO/test/copilot/fake-model" SETTINGS_FILE="$REPO/test/copilot/user-settings.json" KEEP_RUNS=10 \
  exec bash "$REPO/scripts/host/run-suite.sh"
