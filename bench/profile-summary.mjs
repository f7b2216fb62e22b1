#!/usr/bin/env node
// Summarises a .cpuprofile (from `npm run bench -- --profile`): self and inclusive time per function,
// and inclusive time under chosen roots. Usage: node bench/profile-summary.mjs file.cpuprofile [top] [filter]
import { readFileSync } from 'node:fs';

const [file, topArg, filter] = process.argv.slice(2);
const top = Number(topArg || 25);
const p = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of p.nodes) for (const c of n.children || []) parent.set(c, n.id);
// time per sample: timeDeltas
const selfUs = new Map();
for (let i = 0; i < p.samples.length; i++) selfUs.set(p.samples[i], (selfUs.get(p.samples[i]) || 0) + (p.timeDeltas[i] || 0));
const name = (n) => {
  const f = n.callFrame;
  const url = f.url.replace(/^.*\/(bench\/tmp\/ext\/)?/, '');
  return `${f.functionName || '(anonymous)'} ${url}:${f.lineNumber + 1}`;
};
const self = new Map();
const incl = new Map();
let total = 0;
for (const [id, us] of selfUs) {
  const n = byId.get(id);
  total += us;
  self.set(name(n), (self.get(name(n)) || 0) + us);
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const k = name(byId.get(cur));
    if (seen.has(k)) continue;
    seen.add(k);
    incl.set(k, (incl.get(k) || 0) + us);
  }
}
const show = (m, title) => {
  console.log(`\n${title} (ms, of ${(total / 1000).toFixed(1)} ms sampled)`);
  [...m]
    .filter(([k]) => !filter || k.includes(filter))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .forEach(([k, us]) => console.log(`${(us / 1000).toFixed(1).padStart(9)}  ${k}`));
};
show(self, 'self time');
show(incl, 'inclusive time');
