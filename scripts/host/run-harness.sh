#!/usr/bin/env bash
# Runs the harness suite (out/test/harness/*.test.js, built by `node scripts/build.mjs --tests`) inside a real
# VS Code extension host whose chats run in the Copilot harness: VS Code 1.139's Agent Host, the Copilot
# runtime that runs a chat outside the extension host and writes the disk itself. Offline: the runtime's GitHub
# and Copilot API calls go to a proxy of the suite that answers for GitHub, and its model is the suite's scripted
# model (test/harness/node/servers.ts, forked by the driver before code-server and stopped after; its proxy,
# test CA and control address are set in code-server's environment only). Prints one PASS/FAIL line per test
# and a final "N passed, N failed"; exits non-zero if any test failed, none ran, or the host failed.
#
# The runtime is part of code-server's VS Code; it runs from the same PRIVATE copy of the host's install as the
# Copilot suite (copilot-install.sh), as Copilot Chat, also there, writes into its install folder.
# Env: EDITGUARD_TEST_GREP (mocha grep), EDITGUARD_IDLE_LIMIT_MS, EDITGUARD_HOST_DIR, EDITGUARD_COPILOT_CS,
# PORT, VERBOSE=1, EDITGUARD_EXT_TESTS (another entry: `npm run outcomes` runs test/outcomes here for the harness).
set -euo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
# the host, and the private copy of its install (sets CS_ENTRY)
source "$REPO/scripts/host/copilot-install.sh"
SERVERS="$REPO/out/test/harness/node/servers.js"
[ -f "$SERVERS" ] || { echo "missing $SERVERS: run 'node scripts/build.mjs --tests' first" >&2; exit 2; }

# The run's workspace lies inside this repository (.runs/): the runtime reads `.github/hooks` from the root of
# the git repository around its working folder, and the Agent Host checkpoints turns with git there. Git stops
# looking at .runs/, so the workspace copy is a folder of its own, as in a user's checkout (test/harness/FACTS.md).
export GIT_CEILING_DIRECTORIES="$REPO/.runs"
SUITE=harness EXT_TESTS="${EDITGUARD_EXT_TESTS:-$REPO/out/test/harness/index.js}" SERVERS_ENTRY="$SERVERS" \
  PREINSTALL_EXTS="$REPO/test/harness/tool-recorder" SETTINGS_FILE="$REPO/test/harness/user-settings.json" KEEP_RUNS=10 \
  exec bash "$REPO/scripts/host/run-suite.sh"
