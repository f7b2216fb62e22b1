// Writes dist/hook-client.sh, the hooks bridge's bash client, from its TypeScript source
// (src/hooks/bashClient.ts: the text built from the protocol's constants). Used by scripts/build.mjs
// and by the bench's copy of the extension (bench/run.mjs).
import { build } from 'esbuild';
import { chmodSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');

export async function writeHookClient(distDir) {
  const r = await build({
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'warning',
    entryPoints: [join(repo, 'src/hooks/bashClient.ts')],
    write: false,
    outfile: 'hook-client.cjs',
  });
  const module = { exports: {} };
  new Function('module', 'exports', 'require', r.outputFiles[0].text)(module, module.exports, () => ({}));
  const { CLIENT_SCRIPT_NAME, hookClientScript } = module.exports;
  const file = join(distDir, CLIENT_SCRIPT_NAME);
  writeFileSync(file, hookClientScript());
  chmodSync(file, 0o755);
  return file;
}
