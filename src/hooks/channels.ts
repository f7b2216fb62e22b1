// Hook entries that more than one agent runs, by the agent id their commands name. Copilot's hooks
// file (`agent-edit-guard.json`) is read by two hosts: VS Code's Local agent and the Copilot harness
// (the Agent Host's runtime). Its commands name `copilot`; the bridge gives each payload to the agent
// that claims it (`HookAgent.channel`, `claims`). Shared here so that neither agent's folder imports the other's.
export const COPILOT = 'copilot';
