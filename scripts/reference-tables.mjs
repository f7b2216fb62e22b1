// The tables of docs/settings.md — every setting and every command the extension contributes — made
// from package.json (`contributes.configuration`, `contributes.commands`) and the strings of
// package.nls.json its `%key%` values name, between the doc's markers (`<!-- settings:start … -->` …
// `<!-- settings:end -->`, the same for `commands`). The manifest is the one place a setting's type,
// default and description are written; the doc is made from it, not kept beside it by hand.
// `npm run generate` (scripts/generate.mjs) writes the doc with these functions, after the agents'
// entries of the manifest; test/unit/referenceTables.test.ts imports them too. Importing this file
// writes nothing.
export const DOC = 'docs/settings.md';
/** The one command that writes every generated part of the repository. */
export const SCRIPT = 'npm run generate';

/** `%key%` → its string in package.nls.json; any other value as it is. */
export function resolver(nls) {
  return (value) => {
    const key = /^%([^%]+)%$/.exec(value ?? '')?.[1];
    if (key === undefined) return value ?? '';
    if (typeof nls[key] !== 'string') throw new Error(`package.nls.json has no string ${key}`);
    return nls[key];
  };
}

/**
 * Text as one table cell: its line breaks folded into spaces (a row is one line) and its pipes escaped
 * (a bare `|` would end the cell, in code spans too); VS Code's link to a setting, `#editGuard.x#`, is
 * the setting's id here.
 */
export function cell(text) {
  return text
    .replace(/`#([\w.-]+)#`/g, '`$1`')
    .replace(/\s*\r?\n\s*/g, ' ')
    .replace(/\|/g, '\\|')
    .trim();
}

/** A code span that holds any text (a backtick inside gets the longer fence). */
const code = (text) => (text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``);

function typeOf(property) {
  const type = Array.isArray(property.type) ? property.type.join(' or ') : (property.type ?? 'any');
  if (property.enum) return `${type}: ${property.enum.map((v) => code(String(v))).join(', ')}`;
  if (type === 'array' && property.items?.type) return `array of ${property.items.type}`;
  if (property.minimum === undefined && property.maximum === undefined) return type;
  return `${type}, ${property.minimum ?? '…'} to ${property.maximum ?? '…'}`;
}

function defaultOf(value) {
  if (value === undefined) return '';
  if (Array.isArray(value))
    return value.length ? value.map((v) => code(typeof v === 'string' ? v : JSON.stringify(v))).join(', ') : code('[]');
  return code(typeof value === 'string' ? value : JSON.stringify(value));
}

function descriptionOf(property, resolve) {
  // a deprecated setting: its deprecation message, what VS Code shows over it, says what to use instead
  const deprecation = property.markdownDeprecationMessage ?? property.deprecationMessage;
  if (deprecation !== undefined) return `**Deprecated.** ${resolve(deprecation)}`;
  const text = resolve(property.markdownDescription ?? property.description ?? '');
  const values = property.markdownEnumDescriptions ?? property.enumDescriptions;
  if (!property.enum || !values) return text;
  return [text, ...property.enum.map((v, i) => `${code(String(v))}: ${resolve(values[i])}`)].join('<br>');
}

const table = (head, rows) =>
  [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)].join('\n');

/** Every setting, in the order of VS Code's Settings editor (by `order`, then by id). */
export function settingsTable(manifest, nls) {
  const resolve = resolver(nls);
  const properties = Object.entries(manifest.contributes.configuration.properties);
  const rank = ([id, p]) => [p.order ?? Number.MAX_SAFE_INTEGER, id];
  properties.sort((a, b) => {
    const [x, y] = [rank(a), rank(b)];
    return x[0] - y[0] || (x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0);
  });
  return table(
    ['Setting', 'Type', 'Default', 'Scope', 'Description'],
    properties.map(([id, p]) => [code(id), typeOf(p), defaultOf(p.default), p.scope ?? 'window', descriptionOf(p, resolve)]),
  );
}

/** Every command, as package.json lists them: its title as the Command Palette shows it (category first), and its id. */
export function commandsTable(manifest, nls) {
  const resolve = resolver(nls);
  const hidden = new Set((manifest.contributes.menus?.commandPalette ?? []).filter((m) => m.when === 'false').map((m) => m.command));
  return table(
    ['Command', 'Id'],
    manifest.contributes.commands.map((c) => {
      const title = c.category ? `${resolve(c.category)}: ${resolve(c.title)}` : resolve(c.title);
      return [hidden.has(c.command) ? `${title} (not in the Command Palette)` : title, code(c.command)];
    }),
  );
}

/**
 * The doc with the text between a pair of its markers (`<!-- name:start … -->`, a line of its own, …
 * `<!-- name:end -->`) replaced by `body`; a doc without them is refused, not written over.
 */
export function replaceBetween(doc, name, body, file) {
  const start = new RegExp(`<!-- ${name}:start\\b[^>]*-->\\n`).exec(doc);
  const end = doc.indexOf(`<!-- ${name}:end -->`);
  if (!start || end < start.index) throw new Error(`${file} has no <!-- ${name}:start --> … <!-- ${name}:end --> markers`);
  const from = start.index + start[0].length;
  return `${doc.slice(0, from)}${body}\n${doc.slice(end)}`;
}

/** The doc with the text between each pair of markers replaced by its table. */
export function withTables(doc, manifest, nls) {
  let out = doc;
  for (const [name, render] of [
    ['settings', settingsTable],
    ['commands', commandsTable],
  ])
    out = replaceBetween(out, name, render(manifest, nls), DOC);
  return out;
}
