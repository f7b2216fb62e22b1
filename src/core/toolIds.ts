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
