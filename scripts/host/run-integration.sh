#!/usr/bin/env bash
# Runs the integration tests (out/test/integration/*.test.js, built by `node scripts/build.mjs --tests`)
# inside a real VS Code extension host (code-server + headless chromium, see README.md here).
# Prints one line per test and a final "N passed, N failed"; exits non-zero if any test failed,
# none ran, or the host failed.
# Env: EDITGUARD_TEST_GREP (mocha grep), EDITGUARD_EXT_DIR / EDITGUARD_EXT_TESTS (another extension / test
# entry), EDITGUARD_IDLE_LIMIT_MS, EDITGUARD_HOST_DIR, PORT, VERBOSE=1, SHOTS_DIR.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
bash "$REPO/scripts/host/install.sh"

export EXT_DIR="${EDITGUARD_EXT_DIR:-$REPO}"
SUITE=test EXT_TESTS="${EDITGUARD_EXT_TESTS:-$REPO/out/test/integration/index.js}" \
  PREINSTALL_EXTS="$REPO/test/scripted-agent" SETTINGS_FILE="$REPO/test/fixtures/user-settings.json" KEEP_RUNS=20 \
  exec bash "$REPO/scripts/host/run-suite.sh"
