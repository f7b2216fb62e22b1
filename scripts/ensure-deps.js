#!/usr/bin/env node
// `prestart` / `pretest`: on a fresh clone, install the locked dependencies first, so `npm start`
// and `npm test` are the only commands a new machine needs.
'use strict';
const { execSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const repo = path.resolve(__dirname, '..');
const marker = path.join(repo, 'node_modules', '.package-lock.json');
if (!fs.existsSync(marker)) {
  console.log('[setup] installing dependencies (npm ci)…');
  execSync('npm ci --no-audit --no-fund', { cwd: repo, stdio: 'inherit' });
}
