// The check of an installed release (scripts/package.mjs --check-install): the .vsix was installed with VS
// Code's own CLI into an empty extensions folder, and this host started on it. The extension must be that
// installed copy (not a development path), activate by itself on startup, and register its three tools.
'use strict';
const vscode = require('vscode');

const path = require('path');

/** Generous: a busy 2-core machine starts the host slowly; a package that does not activate never will. */
const ACTIVATION_MS = 60_000;

exports.run = async function run() {
  const id = process.env.EDITGUARD_INSTALLED_ID;
  if (!id) throw new Error('EDITGUARD_INSTALLED_ID is not set');
  const ext = vscode.extensions.getExtension(id);
  if (!ext) throw new Error(`${id} is not installed in this host (extensions: ${vscode.extensions.all.map((e) => e.id).join(', ')})`);
  if (!ext.extensionPath.includes(`${path.sep}extensions${path.sep}`))
    throw new Error(`${id} runs from ${ext.extensionPath}, not from the extensions folder it was installed into`);
  // activated by its own activation event (onStartupFinished), not by this probe
  const end = Date.now() + ACTIVATION_MS;
  while (!ext.isActive) {
    if (Date.now() > end) throw new Error(`${id} did not activate within ${ACTIVATION_MS} ms of the host's start`);
    await new Promise((r) => setTimeout(r, 100));
  }
  // the tools the installed manifest declares: their names are not repeated here
  const declared = ext.packageJSON.contributes.languageModelTools.map((t) => t.name);
  const registered = new Set(vscode.lm.tools.map((t) => t.name));
  const missing = declared.filter((name) => !registered.has(name));
  if (declared.length === 0 || missing.length) throw new Error(`tools not registered: ${missing.join(', ') || '(none declared)'}`);
  const api = ext.exports;
  if (typeof api?.readMarks !== 'function') throw new Error('the API activate() returns is missing');
  console.log(`[installed] ${id} ${ext.packageJSON.version}: active from ${ext.extensionPath}; tools ${declared.join(', ')}`);
};
