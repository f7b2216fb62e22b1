// The GitHub and Copilot API as the Copilot runtime (the Agent Host's native runtime) needs them for one
// offline harness run: the hosts the proxy intercepts, the signed-in user the test token resolves to, and the
// Copilot API's model list with the scripted models (protocol.ts MODELS). Inference is not answered here:
// proxy routes it to the scripted model. What the runtime calls was observed in runs of this host
// (test/harness/FACTS.md §Offline); anything else gets a 404, which the runtime treats as "not available".
import { MODELS } from './protocol';

/** The hosts the proxy terminates TLS for (the leaf certificate's names); a CONNECT to any other is refused. */
export const INTERCEPTED_HOSTS = ['api.github.com', 'github.com', '*.github.com', 'api.githubcopilot.com', '*.githubcopilot.com'];

export const intercepted = (host: string) =>
  INTERCEPTED_HOSTS.some((h) => (h.startsWith('*.') ? host.endsWith(h.slice(1)) && host.length > h.length - 1 : host === h));

const COPILOT_API = 'https://api.githubcopilot.com';

/** GET api.github.com/copilot_internal/user: the account behind the token, with Copilot's endpoints. */
function copilotUser() {
  return {
    login: 'harness-user',
    id: 1,
    copilot_plan: 'individual',
    access_type_sku: 'free_limited_copilot',
    chat_enabled: true,
    can_signup_for_limited: false,
    analytics_tracking_id: 'harness',
    assigned_date: null,
    organization_login_list: [],
    organization_list: [],
    is_mcp_enabled: false,
    codex_agent_enabled: false,
    restricted_telemetry: true,
    endpoints: { api: COPILOT_API, proxy: COPILOT_API, telemetry: COPILOT_API, 'origin-tracker': COPILOT_API },
    quota_reset_date: '2100-01-01',
    quota_snapshots: Object.fromEntries(
      ['chat', 'completions', 'premium_interactions'].map((id) => [
        id,
        { quota_id: id, unlimited: true, entitlement: 0, remaining: 0, percent_remaining: 100, overage_permitted: false, overage_count: 0 },
      ]),
    ),
  };
}

/** One model of the Copilot API's list: its id decides the tools the runtime offers (protocol.ts MODELS); its endpoints, the API it is asked on. */
function modelEntry(id: string, name: string, family: string, endpoints: string[]) {
  return {
    id,
    name,
    object: 'model',
    vendor: 'Agent Edit Guard tests',
    version: id,
    preview: false,
    model_picker_enabled: true,
    model_picker_category: 'versatile',
    is_chat_default: id === MODELS.standard,
    is_chat_fallback: id === MODELS.standard,
    capabilities: {
      family,
      type: 'chat',
      object: 'model_capabilities',
      tokenizer: 'o200k_base',
      limits: { max_context_window_tokens: 128000, max_prompt_tokens: 100000, max_output_tokens: 16000 },
      supports: { streaming: true, tool_calls: true, parallel_tool_calls: true, structured_outputs: true, vision: false },
    },
    policy: { state: 'enabled', terms: 'test model' },
    billing: { is_premium: false, multiplier: 0 },
    supported_endpoints: endpoints,
  };
}

export const MODEL_LIST = {
  object: 'list',
  data: [
    modelEntry(MODELS.standard, 'Harness scripted (gpt-4.1 family)', 'gpt-4.1', ['/chat/completions']),
    modelEntry(MODELS.codex, 'Harness scripted (codex family)', 'gpt-5.1-codex', ['/responses']),
  ],
};

export type Route = { status: number; body: unknown } | 'model';

/** How a request to an intercepted host is answered: a canned body, or `model` (inference). */
export function route(host: string, method: string, path: string): Route {
  const bare = path.split('?')[0];
  if (host === 'api.github.com') {
    if (method === 'GET' && bare === '/copilot_internal/user') return { status: 200, body: copilotUser() };
    if (method === 'GET' && bare === '/user') return { status: 200, body: { login: 'harness-user', id: 1, type: 'User', name: 'Harness' } };
  }
  if (host.endsWith('githubcopilot.com')) {
    if (method === 'GET' && bare === '/models') return { status: 200, body: MODEL_LIST };
    if (method === 'POST' && /\/(chat\/completions|responses)$/.test(bare)) return 'model';
  }
  return { status: 404, body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' } };
}
