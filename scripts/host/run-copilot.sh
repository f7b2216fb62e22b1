#!/usr/bin/env bash
# Runs the Copilot suite (out/test/copilot/*.test.js, built by `node scripts/build.mjs --tests`) inside a
# real VS Code extension host under GitHub Copilot Chat's own agent loop (the Copilot Chat that code-server's
# VS Code bundles), with the test-only scripted fake model test/copilot/fake-model. Offline, no sign-in.
# Prints one PASS/FAIL line per test and a final "N passed, N failed"; exits non-zero if any test failed,
# none ran, or the host failed.
#
# Copilot writes into its own install folder when it starts, so it runs from a PRIVATE copy of the host's
# code-server install (copilot-install.sh); the shared install is never run here.
# Env: EDITGUARD_TEST_GREP (mocha grep), EDITGUARD_IDLE_LIMIT_MS, EDITGUARD_HOST_DIR, EDITGUARD_COPILOT_CS,
# PORT, VERBOSE=1, SHOTS_DIR, EDITGUARD_EXT_TESTS (another entry: `npm run copilot:capture` runs
# scripts/screenshots/copilot.ts here, see scripts/screenshots/run.sh; `npm run bench` runs
# bench/copilot/index.ts here), EXT_DIR (another copy of the extension: the bench's, in bench/tmp).
set -euo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
# the host, and the private copy of its install that Copilot may write into (sets CS_ENTRY)
source "$REPO/scripts/host/copilot-install.sh"

SUITE=copilot EXT_TESTS="${EDITGUARD_EXT_TESTS:-$REPO/out/test/copilot/index.js}" \
  PREINSTALL_EXTS="$REPO/test/copilot/fake-model" SETTINGS_FILE="$REPO/test/copilot/user-settings.json" KEEP_RUNS=10 \
  exec bash "$REPO/scripts/host/run-suite.sh"
