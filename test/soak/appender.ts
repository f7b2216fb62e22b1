// Another program, for the soak (soak.test.ts): it appends one numbered line (`P-<n>`) to each of the files it
// is given, with O_APPEND as a logger or `echo >>` does, every `EDITGUARD_SOAK_APPEND_MS` ms, until its stdin
// closes; after each write it prints `{"file","line","at"}` on its own line: what it was told had landed.
// Plain Node, started by the soak with the editor's runtime; nothing but Node's own modules.
import * as fs from 'node:fs';

const files = process.argv.slice(2);
const every = Number(process.env.EDITGUARD_SOAK_APPEND_MS) || 700;
let n = 0;
const timer = setInterval(() => {
  for (const file of files) {
    const line = `P-${++n}`;
    // one write(2) of the whole line at the end of the file, whatever was written before it
    fs.appendFileSync(file, `${line}\n`, { flag: 'a' });
    process.stdout.write(`${JSON.stringify({ file, line, at: Date.now() })}\n`);
  }
}, every);
process.stdin.on('end', () => clearInterval(timer));
process.stdin.on('close', () => clearInterval(timer));
process.stdin.resume();
