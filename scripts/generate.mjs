// `npm run generate`: writes every part of the repository that is made from the agents' folders, so that
// a new agent is its folder and its line in src/agents/catalog.ts (docs/design.md §Layers), and nothing
// else by hand:
// - package.json: each agent's setting (`editGuard.<setting>`: `off` | `user` | `workspace`) and the
//   boolean it replaced, if any, and its command; package.nls.json: their strings;
// - README.md: the agents' bullets under "Turn it on" and their rows of the settings, between markers;
// - docs/agents.md: the table "What is guarded, per agent", between markers;
// - docs/settings.md: its tables, made from package.json (scripts/reference-tables.mjs).
// The agents are read from the sources themselves: the list (src/agents/catalog.ts) and each folder's
// words (`docs.ts`, an `AgentDocs` of src/hooks/agentDescriptor.ts), bundled with esbuild and loaded here.
// The words every agent shares (the choices' labels, the command's title, a replaced boolean's
// deprecation) are written once, below, and made from the agent's descriptor.
// `--check` writes nothing: it names each file that differs from what it would write, and fails
// (test/unit/referenceTables.test.ts runs it so).
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { DOC as SETTINGS_DOC, SCRIPT, replaceBetween, withTables } from './reference-tables.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The labels of a placement's choices, the same for every agent. */
const PLACEMENT_LABELS = { off: 'Off', user: 'On (user level)', workspace: "On (in this workspace's folders)" };
/** The agents' settings follow the gate's in the Settings editor, in the order of the list of agents. */
const FIRST_AGENT_ORDER = 7;
const COMMAND_ICON = '$(shield)';
/** Where the agents' rows go in the docs: `<!-- name:start … -->` … `<!-- name:end -->`. */
const MARKS = { turnOn: 'agents-turn-on', settings: 'agents-settings', table: 'agents-guarded' };

/** The list of agents and each folder's words, read from the sources (bundled into out/, then required). */
export async function loadAgents(at = root) {
  const folders = readdirSync(join(at, 'src/agents'), { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(at, 'src/agents', e.name, 'node/docs.ts')))
    .map((e) => e.name)
    .sort();
  const entry = [
    `export { AGENTS, LEGACY_SETTING, PLACEMENT_SETTING, agentsWithEntries } from './src/agents/catalog';`,
    `export { SECTION } from './src/core/settings';`,
    ...folders.map((f, i) => `import { docs as d${i} } from './src/agents/${f}/node/docs';`),
    `export const DOCS = [${folders.map((f, i) => `{ folder: ${JSON.stringify(f)}, docs: d${i} }`).join(', ')}];`,
  ].join('\n');
  // out/, where node_modules resolves as for the sources; a name of its own, for two runs at once
  const outfile = join(at, 'out', 'generate', `agents-${process.pid}-${Date.now()}.cjs`);
  mkdirSync(dirname(outfile), { recursive: true });
  await build({
    stdin: { contents: entry, resolveDir: at, loader: 'ts', sourcefile: 'agents.ts' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'silent',
    outfile,
  });
  const loaded = createRequire(import.meta.url)(outfile);
  rmSync(outfile);
  const docsOf = new Map();
  for (const { folder, docs } of loaded.DOCS) {
    if (!loaded.AGENTS.includes(docs.agent))
      throw new Error(`src/agents/${folder}/node/docs.ts: its agent is not in src/agents/catalog.ts`);
    if (docsOf.has(docs.agent)) throw new Error(`src/agents/${folder}/node/docs.ts: a second docs.ts for ${docs.agent.hooks.name}`);
    docsOf.set(docs.agent, docs);
  }
  const owners = new Set(loaded.agentsWithEntries());
  for (const agent of loaded.AGENTS) {
    const docs = docsOf.get(agent);
    if (!docs) throw new Error(`${agent.hooks.name} has no src/agents/<agent>/node/docs.ts (AgentDocs, src/hooks/agentDescriptor.ts)`);
    if (owners.has(agent) !== (docs.setting !== undefined))
      throw new Error(`${agent.hooks.name}'s docs.ts: \`setting\` is for an agent with entries of its own, and only for one`);
  }
  return { ...loaded, docs: loaded.AGENTS.map((a) => docsOf.get(a)) };
}

/** "Claude Code's file tools" → "Claude Code's File Tools": a command's title. */
const titleCase = (words) =>
  words
    .split(' ')
    .map((w, i) => (i === 0 ? w : w[0].toUpperCase() + w.slice(1)))
    .join(' ');

/** The heading's anchor, as GitHub makes it. */
const anchor = (heading) =>
  heading
    .toLowerCase()
    .replace(/[^\w\s-]/g, '')
    .replace(/\s/g, '-');

/** The strings of package.nls.json an agent with entries owns, in their order. */
function agentStrings(docs, { SECTION, PLACEMENT_SETTING }) {
  const { agent, setting } = docs;
  const id = agent.setting;
  const strings = { [`config.${id}.description`]: setting.description };
  // the placements are the setting's values (src/core/settings.ts); only their labels are written here
  for (const value of PLACEMENT_SETTING.values) strings[`config.${id}.enum.${value}.label`] = PLACEMENT_LABELS[value];
  for (const value of PLACEMENT_SETTING.values) strings[`config.${id}.enum.${value}`] = setting.placements[value];
  const legacy = {};
  if (agent.legacySetting) {
    const { key, on } = agent.legacySetting;
    legacy[`config.${key}.description`] = `Replaced by \`#${SECTION}.${id}#\`.`;
    legacy[`config.${key}.deprecation`] =
      `Replaced by \`#${SECTION}.${id}#\` (\`true\` became \`${on}\`); the extension moves your value over when it starts.`;
  }
  return { config: strings, legacy, command: { [`command.${id}`]: `Guard ${titleCase(agent.guarded)}…` } };
}

/**
 * `entries` with the block `ours` owns replaced by `block`, where the block stood (the first of its
 * entries), or at the end when it is new: the hand-written entries around it keep their place.
 */
function replaceBlock(entries, ours, block) {
  const at = entries.findIndex(([key]) => ours(key));
  const kept = entries.filter(([key]) => !ours(key));
  const index = at < 0 ? kept.length : entries.slice(0, at).filter(([key]) => !ours(key)).length;
  return [...kept.slice(0, index), ...block, ...kept.slice(index)];
}

/** package.json and package.nls.json with the agents' settings, commands and strings made from their folders. */
export function withAgents(manifest, nls, loaded) {
  const { SECTION, PLACEMENT_SETTING, LEGACY_SETTING } = loaded;
  const owners = loaded.docs.filter((d) => d.setting);
  const settingKeys = new Set(owners.flatMap(({ agent }) => [agent.setting, ...(agent.legacySetting ? [agent.legacySetting.key] : [])]));
  const properties = [];
  const legacy = [];
  owners.forEach(({ agent }, i) => {
    const id = agent.setting;
    const order = FIRST_AGENT_ORDER + i;
    const values = PLACEMENT_SETTING.values;
    properties.push([
      `${SECTION}.${id}`,
      {
        type: 'string',
        enum: [...values],
        enumItemLabels: values.map((v) => `%config.${id}.enum.${v}.label%`),
        enumDescriptions: values.map((v) => `%config.${id}.enum.${v}%`),
        default: PLACEMENT_SETTING.default,
        scope: PLACEMENT_SETTING.scope,
        order,
        markdownDescription: `%config.${id}.description%`,
      },
    ]);
    // a replaced boolean sorts just after the setting that replaced it
    if (agent.legacySetting)
      legacy.push([
        `${SECTION}.${agent.legacySetting.key}`,
        {
          type: 'boolean',
          default: LEGACY_SETTING.default,
          scope: LEGACY_SETTING.scope,
          order: order + 1,
          markdownDeprecationMessage: `%config.${agent.legacySetting.key}.deprecation%`,
          markdownDescription: `%config.${agent.legacySetting.key}.description%`,
        },
      ]);
  });
  const isAgentSetting = (key) => key.startsWith(`${SECTION}.`) && settingKeys.has(key.slice(SECTION.length + 1));
  const configuration = manifest.contributes.configuration;
  const commandIds = new Set(owners.map(({ agent }) => `${SECTION}.${agent.setting}`));
  const commands = owners.map(({ agent }) => ({
    command: `${SECTION}.${agent.setting}`,
    title: `%command.${agent.setting}%`,
    category: '%command.category%',
    icon: COMMAND_ICON,
  }));
  const out = {
    ...manifest,
    contributes: {
      ...manifest.contributes,
      configuration: {
        ...configuration,
        properties: Object.fromEntries(replaceBlock(Object.entries(configuration.properties), isAgentSetting, [...properties, ...legacy])),
      },
      commands: replaceBlock(
        manifest.contributes.commands.map((c) => [c.command, c]),
        (id) => commandIds.has(id),
        commands.map((c) => [c.command, c]),
      ).map(([, c]) => c),
    },
  };
  const strings = owners.map((d) => agentStrings(d, loaded));
  // as in the manifest, the replaced booleans' strings after the settings'
  const config = [...strings.flatMap((s) => Object.entries(s.config)), ...strings.flatMap((s) => Object.entries(s.legacy))];
  const configKeys = new Set(config.map(([key]) => key));
  const commandKeys = new Set(strings.flatMap((s) => Object.keys(s.command)));
  let entries = Object.entries(nls);
  entries = replaceBlock(
    entries,
    (k) => commandKeys.has(k),
    strings.flatMap((s) => Object.entries(s.command)),
  );
  entries = replaceBlock(entries, (k) => configKeys.has(k), config);
  return { manifest: out, nls: Object.fromEntries(entries) };
}

/** The README with the agents' bullets under "Turn it on" and their settings rows. */
export function readmeWithAgents(readme, nls, loaded) {
  const { SECTION, PLACEMENT_SETTING } = loaded;
  const owners = loaded.docs.filter((d) => d.setting);
  const link = (s) => `docs/agents.md#${anchor(s.section)}`;
  const bullets = owners.map(({ agent, setting: s }) => {
    const { name, offered, writes } = s.turnOn;
    const command = `${nls['command.category']}: ${nls[`command.${agent.setting}`]}`;
    return `- ${name} — **Turn on** when offered (${offered}), or *${command}*. ${writes} Setting: \`${SECTION}.${agent.setting}\`. [More](${link(s)})`;
  });
  const rows = owners.map(({ agent, setting: s }) => {
    const replaced = agent.legacySetting ? ` (\`${SECTION}.${agent.legacySetting.key}\`, the boolean it replaced, is moved over.)` : '';
    return `| \`${SECTION}.${agent.setting}\` | \`${PLACEMENT_SETTING.default}\` | ${s.summary} See [${s.section}](${link(s)}).${replaced} |`;
  });
  const settings = ['| setting | default | what it does |', '|---|---|---|', ...rows].join('\n');
  return replaceBetween(replaceBetween(readme, MARKS.turnOn, bullets.join('\n'), 'README.md'), MARKS.settings, settings, 'README.md');
}

/** docs/agents.md with its table "What is guarded, per agent", a row per agent in the list's order. */
export function agentsDocWithAgents(doc, loaded) {
  const rows = loaded.docs.map(({ row }) => `| ${[row.name, row.how, row.guarded, row.proof].join(' | ')} |`);
  const table = ['| agent | how | reads mark · edits checked · rule 13 · turns · compaction | proved by |', '|---|---|---|---|', ...rows];
  return replaceBetween(doc, MARKS.table, table.join('\n'), 'docs/agents.md');
}

/** Every generated file as it should be now: path → text. */
export async function generate(at = root) {
  const read = (file) => readFileSync(join(at, file), 'utf8');
  const loaded = await loadAgents(at);
  const { manifest, nls } = withAgents(JSON.parse(read('package.json')), JSON.parse(read('package.nls.json')), loaded);
  // package.json as prettier writes it (its json-stringify parser), package.nls.json the same
  const json = (value) => `${JSON.stringify(value, null, 2)}\n`;
  return {
    'package.json': json(manifest),
    'package.nls.json': json(nls),
    'README.md': readmeWithAgents(read('README.md'), nls, loaded),
    'docs/agents.md': agentsDocWithAgents(read('docs/agents.md'), loaded),
    [SETTINGS_DOC]: withTables(read(SETTINGS_DOC), manifest, nls),
  };
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  const files = await generate();
  const stale = Object.entries(files).filter(([file, text]) => readFileSync(join(root, file), 'utf8') !== text);
  if (process.argv.includes('--check')) {
    for (const [file] of stale) console.error(`${file} differs from what \`${SCRIPT}\` writes`);
    if (stale.length) {
      console.error(`run \`${SCRIPT}\``);
      process.exit(1);
    }
  } else {
    for (const [file, text] of stale) writeFileSync(join(root, file), text);
    console.log(`generate: ${stale.length ? stale.map(([f]) => f).join(', ') : 'nothing'} written, from src/agents and package.json`);
  }
}
