#!/usr/bin/env bash
# Sourced by the runners whose host runs GitHub Copilot code (run-copilot.sh: Copilot Chat's agent loop;
# run-harness.sh: the Copilot harness, VS Code's Agent Host): installs the host if needed and sets
# CS_ENTRY to the code-server entry of a PRIVATE copy of the host's install ($EDITGUARD_COPILOT_CS, default
# <host dir>/cs-copilot), made once from <host dir>/cs and re-made when the host is reinstalled.
# Copilot Chat writes into its own install folder when it starts, so the shared install is never run
# with Copilot. Expects REPO (the repository root).
: "${REPO:?}"
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
