// The limits per ten minutes (docs/operations.md#limits), and the seven of them a deployment sets a default for and
// the operator moves per workspace: the spec's figure stays each one's default.
import { int } from '../config/config';

/** Every rate limit counts in windows of ten minutes. */
export const WINDOW_SECONDS = 600;

export const LIMITS = {
  server: 600,
  mcp: 600,
  automation: 600,
  // Beyond the spec: GraphQL reads and writes per secret key
  // (docs/security.md#graphql-no-caller-can-stall-the-service).
  graphql: 1200,
  // Beyond the spec: sign-in attempts per client IP, and email links asked for per address.
  'sign-in:ip': 30,
  'sign-in:email': 5,
  'public:subscribe': 20,
  'public:identify': 60,
  'public:event': 240,
  'public:support': 10,
} as const;

export type LimitName = keyof typeof LIMITS;

/** The limits the operator may move, by the names GraphQL and the settings give them, and the counter each moves. */
export const WORKSPACE_LIMITS = {
  server_posts: 'server',
  tool_calls: 'mcp',
  automation_starts: 'automation',
  website_subscribe: 'public:subscribe',
  website_identify: 'public:identify',
  website_event: 'public:event',
  website_support: 'public:support',
} as const satisfies Record<string, LimitName>;

export type WorkspaceLimit = keyof typeof WORKSPACE_LIMITS;

export const WORKSPACE_LIMIT_NAMES = Object.keys(WORKSPACE_LIMITS) as WorkspaceLimit[];

/** The most calls per ten minutes a default or an override may allow. */
export const MAX_PER_TEN_MINUTES = 10_000_000;

const WORKSPACE_LIMIT_OF = new Map<LimitName, WorkspaceLimit>(
  WORKSPACE_LIMIT_NAMES.map((limit) => [WORKSPACE_LIMITS[limit], limit]),
);

/** The movable limit a counter is, or undefined for one only the code sets (GraphQL, sign-in). */
export function workspaceLimitOf(name: LimitName): WorkspaceLimit | undefined {
  return WORKSPACE_LIMIT_OF.get(name);
}

export interface LimitSettings {
  /** RATE_LIMIT_*: the deployment's figure per ten minutes for each movable limit; the spec's when unset. */
  limitDefaults: Record<WorkspaceLimit, number>;
}

type Env = Record<string, string | undefined>;

export function limitSettings(env: Env): LimitSettings {
  const most = MAX_PER_TEN_MINUTES;
  return {
    limitDefaults: {
      server_posts: int(env, 'RATE_LIMIT_SERVER_POSTS', LIMITS.server, 1, most),
      tool_calls: int(env, 'RATE_LIMIT_TOOL_CALLS', LIMITS.mcp, 1, most),
      automation_starts: int(env, 'RATE_LIMIT_AUTOMATION_STARTS', LIMITS.automation, 1, most),
      website_subscribe: int(env, 'RATE_LIMIT_WEBSITE_SUBSCRIBE', LIMITS['public:subscribe'], 1, most),
      website_identify: int(env, 'RATE_LIMIT_WEBSITE_IDENTIFY', LIMITS['public:identify'], 1, most),
      website_event: int(env, 'RATE_LIMIT_WEBSITE_EVENT', LIMITS['public:event'], 1, most),
      website_support: int(env, 'RATE_LIMIT_WEBSITE_SUPPORT', LIMITS['public:support'], 1, most),
    },
  };
}
