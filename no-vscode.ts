// Stands in for `vscode` in the projects that must run in plain Node: tsconfig.plain.json (src/core,
// src/chat, the hooks transport, the Copilot gate) and test/unit/tsconfig.json map the module name
// `vscode` to this file instead of @types/vscode, so any import of it there, direct or through another
// module, type-only or not, fails `npm run typecheck` with the message below. Nothing includes this file
// otherwise. To see who imports it: npx tsc -p <that project> --explainFiles | grep -A3 no-vscode.ts
export const layerRule: 'a module checked in plain Node imports vscode; docs/design.md §Layers forbids it' = 'vscode';
