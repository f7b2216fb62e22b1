// Hook entries that more than one agent runs, by the agent id their commands name. Copilot's hooks
// file (`agent-edit-guard.json`) is read by three hosts: VS Code's Local agent, the Copilot harness (the Agent
// Host's runtime) and the GitHub Copilot CLI (the same runtime in a terminal). Its commands name `copilot`; the bridge gives each payload to the agent
// that claims it (`AgentHooks.channel`, `claims`). Shared here so that neither agent's folder imports the other's.
export const COPILOT = 'copilot';
