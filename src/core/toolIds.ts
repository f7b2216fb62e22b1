// Our language-model tools, by the names the model calls them. Declared in package.json
// (`contributes.languageModelTools`); test/unit/manifest.test.ts keeps the two in step. The core
// names them in its texts (a refusal tells the model which call comes next).

export const TOOL_IDS = {
  read: 'editGuard_readFile',
  write: 'editGuard_writeFile',
  replace: 'editGuard_replaceString',
} as const;

export type OwnToolId = (typeof TOOL_IDS)[keyof typeof TOOL_IDS];

/** The word for what each of our tools does, as refusals name it ("your replace"). */
export const OWN_TOOL_VERB: Record<OwnToolId, string> = {
  [TOOL_IDS.read]: 'read',
  [TOOL_IDS.write]: 'write',
  [TOOL_IDS.replace]: 'replace',
};

/** The names a prompt and another agent's hooks give our tools (package.json `toolReferenceName`). */
export const TOOL_REFERENCE_NAMES: Record<string, OwnToolId> = {
  guardedRead: TOOL_IDS.read,
  guardedWrite: TOOL_IDS.write,
  guardedReplace: TOOL_IDS.replace,
};

/** Our tool's id, whether a caller names it by its id or by its reference name; undefined for any other tool. */
export function ownToolId(name: string): OwnToolId | undefined {
  return (Object.values(TOOL_IDS) as string[]).includes(name) ? (name as OwnToolId) : TOOL_REFERENCE_NAMES[name];
}
