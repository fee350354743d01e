// Settings of docs/configuration.md#settings, read once and validated; nothing else reads process.env.
import { readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { DEFAULT_WATCH_SETTINGS } from '../database/domain/server-state';
import { databaseAddress } from './database-settings';
import { emailSettings, EmailSettings } from './email-settings';
import { outboxSettings, OutboxSettings } from './outbox-settings';
import { limitSettings, LimitSettings } from '../rate-limits/limit-settings';

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export interface AppConfig extends EmailSettings, LimitSettings, OutboxSettings {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  baseUrl: string;
  databaseUrl: string;
  /**
   * A streaming replica of databaseUrl that serves the reads of docs/decisions.md#read-replica; null: the primary
   * serves them.
   */
  databaseReadUrl: string | null;
  redisUrl: string;
  /** Prefix of every BullMQ and rate-limit key, so several deployments (or test files) share one Redis. */
  redisPrefix: string;
  /**
   * REDIS_CLUSTER_NODES: a Redis Cluster's seed nodes, used instead of REDIS_URL's host; null for one Redis.
   */
  redisClusterNodes: RedisNode[] | null;
  appSecret: string;
  adminToken: string | null;
  smtpUrl: string | null;
  resendApiKey: string | null;
  resendApiUrl: string;
  emailFrom: string;
  emailWebhookSecret: string | null;
  trustProxy: boolean;
  allowPrivateTargets: boolean;
  logLevel: string;
  /** Length of one "minute" of the webhook retry schedule; only tests shorten it. */
  retryUnitMs: number;
  /** An outgoing webhook address whose every delivery failed this many days is disabled. */
  webhookDisableAfterDays: number;
  /** Database pool size per process (1 on embedded PGlite). */
  databasePoolSize: number;
  /** Longest a statement of a GraphQL read may run (docs/security.md#graphql-no-caller-can-stall-the-service). */
  graphqlStatementTimeoutMs: number;
  /** The time limits of every database use (database/time-limits.ts). */
  databaseConnectTimeoutMs: number;
  databaseStatementTimeoutMs: number;
  databaseIdleInTransactionTimeoutMs: number;
  /** The database watch's thresholds (docs/decisions.md#a-busy-database-is-not-a-dead-one). */
  databaseStallMs: number;
  databaseProbeTimeoutMs: number;
  databaseProbeMisses: number;
  /** Embedded PGlite: one connection, and none of the limits above that a second connection would need. */
  embeddedDatabase: boolean;
  /** Longest a Redis command (not a queue's blocking read) may wait for its answer. */
  redisCommandTimeoutMs: number;
  /** Requests one api process answers at once; past it, 503 unavailable at once. */
  maxRequestsInFlight: number;
  /** The admin console's built files (scripts/build-console.js), served at /console. */
  consoleDir: string;
  /** The worker's sweep of segments' day windows, and the people per transaction of a segment's fill. */
  segmentSweepMs: number;
  segmentFillChunk: number;
}

export type RedisNode = { host: string; port: number };

type Env = Record<string, string | undefined>;

const NODE_ENVS = ['development', 'production', 'test'] as const;

function bool(env: Env, name: string): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return false;
  if (['true', '1', 'yes', 'on'].includes(raw.toLowerCase())) return true;
  if (['false', '0', 'no', 'off'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(`${name} must be true or false, not "${raw}".`);
}

export function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, not "${raw}".`);
  }
  return value;
}

function url(env: Env, name: string, protocols: string[], fallback?: string): string {
  const raw = env[name] || fallback;
  if (!raw) throw new ConfigError(`${name} is required.`);
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL starting with ${protocols.join(' or ')}, not "${raw}".`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must be a URL starting with ${protocols.join(' or ')}, not "${raw}".`);
  }
  return raw;
}

export function optional(env: Env, name: string): string | null {
  const raw = env[name];
  return raw === undefined || raw === '' ? null : raw;
}

/** REDIS_CLUSTER_NODES: host:port pairs separated by commas ([v6 address]:port for IPv6); unset for one Redis. */
export function clusterNodes(env: Env): RedisNode[] | null {
  const raw = optional(env, 'REDIS_CLUSTER_NODES');
  if (raw === null) return null;
  return raw.split(',').map((item) => {
    const match = /^\[?([^\s\[\]]+?)\]?:(\d{1,5})$/.exec(item.trim());
    const port = Number(match?.[2]);
    if (!match || port < 1 || port > 65535) {
      throw new ConfigError(
        `REDIS_CLUSTER_NODES must be host:port pairs separated by commas, like 10.0.0.1:6379,10.0.0.2:6379; "${item.trim()}" is not one.`,
      );
    }
    return { host: match[1], port };
  });
}

function nodeEnvOf(env: Env): AppConfig['nodeEnv'] {
  const raw = env.NODE_ENV || 'development';
  if (!(NODE_ENVS as readonly string[]).includes(raw)) {
    throw new ConfigError(`NODE_ENV must be development, production or test, not "${raw}".`);
  }
  return raw as AppConfig['nodeEnv'];
}

type ResolvedByLauncher = { databaseUrl?: string; redisUrl?: string; appSecret?: string };
type CheckedSettings = Pick<
  AppConfig,
  'appSecret' | 'allowPrivateTargets' | 'emailWebhookSecret' | 'smtpUrl' | 'adminToken'
>;

/** The secrets and switches with rules beyond their type; the first one wrong is the one the error names. */
function checkedSettings(env: Env, resolved: ResolvedByLauncher, production: boolean): CheckedSettings {
  const appSecret = env.APP_SECRET || resolved.appSecret;
  if (!appSecret) {
    throw new ConfigError('APP_SECRET is required when NODE_ENV=production: set it to 32 or more random characters.');
  }
  if (appSecret.length < 32) {
    throw new ConfigError(
      'APP_SECRET must be at least 32 characters long: generate one with `openssl rand -base64 48`.',
    );
  }

  const allowPrivateTargets = bool(env, 'UNSAFE_ALLOW_PRIVATE_TARGETS');
  if (allowPrivateTargets && production) {
    throw new ConfigError(
      'UNSAFE_ALLOW_PRIVATE_TARGETS is for tests only and is refused when NODE_ENV=production: unset it.',
    );
  }

  const emailWebhookSecret = optional(env, 'EMAIL_WEBHOOK_SECRET');
  if (emailWebhookSecret && !emailWebhookSecret.startsWith('whsec_')) {
    throw new ConfigError('EMAIL_WEBHOOK_SECRET must be the whsec_… signing secret from the email provider.');
  }
  const smtpUrl = optional(env, 'SMTP_URL');
  if (smtpUrl) url(env, 'SMTP_URL', ['smtp:', 'smtps:']);
  const adminToken = optional(env, 'ADMIN_TOKEN');
  if (adminToken && adminToken.length < 16) {
    throw new ConfigError('ADMIN_TOKEN must be at least 16 characters long.');
  }
  return { appSecret, allowPrivateTargets, emailWebhookSecret, smtpUrl, adminToken };
}

/** The primary's address (the launcher's embedded one when DATABASE_URL is unset) and the replica's, if any. */
function databaseUrls(env: Env, resolved: ResolvedByLauncher) {
  const given = env.DATABASE_URL || resolved.databaseUrl || 'postgres://postgres@127.0.0.1:5432/lifeline';
  const databaseUrl = databaseAddress('DATABASE_URL', given, true);
  const embeddedDatabase = !env.DATABASE_URL && !!resolved.databaseUrl;
  const read = optional(env, 'DATABASE_READ_URL');
  const databaseReadUrl = read && databaseAddress('DATABASE_READ_URL', read, false);
  if (databaseReadUrl && !env.DATABASE_URL) {
    throw new ConfigError(
      'DATABASE_READ_URL names a replica of DATABASE_URL: set DATABASE_URL to its primary, or unset DATABASE_READ_URL.',
    );
  }
  return { databaseUrl, databaseReadUrl, embeddedDatabase };
}

/** Longest a frozen database may hold a request before the watch finds it down (stall plus the misses). */
const FROZEN_FOUND_WITHIN_MS = 60_000;

/** The database watch's thresholds; together they must find a frozen server within a minute. */
function watchSettings(
  env: Env,
): Pick<AppConfig, 'databaseStallMs' | 'databaseProbeTimeoutMs' | 'databaseProbeMisses'> {
  const defaults = DEFAULT_WATCH_SETTINGS;
  const databaseStallMs = int(env, 'DATABASE_STALL_MS', defaults.stallMs, 100, 60_000);
  const databaseProbeTimeoutMs = int(env, 'DATABASE_PROBE_TIMEOUT_MS', defaults.probeTimeoutMs, 100, 60_000);
  const databaseProbeMisses = int(env, 'DATABASE_PROBE_MISSES', defaults.probeMisses, 1, 10);
  const within = databaseStallMs + databaseProbeTimeoutMs * databaseProbeMisses;
  if (within > FROZEN_FOUND_WITHIN_MS) {
    throw new ConfigError(
      `DATABASE_STALL_MS + DATABASE_PROBE_TIMEOUT_MS × DATABASE_PROBE_MISSES is ${within} ms: a frozen database ` +
        `would hold requests that long; lower them to ${FROZEN_FOUND_WITHIN_MS} ms or less together.`,
    );
  }
  return { databaseStallMs, databaseProbeTimeoutMs, databaseProbeMisses };
}

/** Validates the environment; `resolved`: what the launcher worked out (embedded database, development secret). */
export function loadConfig(env: Env, resolved: ResolvedByLauncher = {}): AppConfig {
  const nodeEnv = nodeEnvOf(env);
  const production = nodeEnv === 'production';
  const port = int(env, 'PORT', 3000, 0, 65535);
  const { appSecret, allowPrivateTargets, emailWebhookSecret, smtpUrl, adminToken } = checkedSettings(
    env,
    resolved,
    production,
  );
  const { databaseUrl, databaseReadUrl, embeddedDatabase } = databaseUrls(env, resolved);

  return {
    nodeEnv,
    port,
    baseUrl: url(env, 'BASE_URL', ['http:', 'https:'], `http://localhost:${port}`).replace(/\/+$/, ''),
    databaseUrl,
    databaseReadUrl,
    redisUrl: url(
      { REDIS_URL: env.REDIS_URL || resolved.redisUrl },
      'REDIS_URL',
      ['redis:', 'rediss:'],
      'redis://127.0.0.1:6379',
    ),
    redisPrefix: env.REDIS_PREFIX || 'lifeline',
    redisClusterNodes: clusterNodes(env),
    appSecret,
    adminToken,
    smtpUrl,
    resendApiKey: optional(env, 'RESEND_API_KEY'),
    resendApiUrl: url(env, 'RESEND_API_URL', ['http:', 'https:'], 'https://api.resend.com').replace(/\/+$/, ''),
    emailFrom: env.EMAIL_FROM || 'Lifeline <no-reply@localhost>',
    emailWebhookSecret,
    trustProxy: bool(env, 'TRUST_PROXY'),
    allowPrivateTargets,
    logLevel: env.LOG_LEVEL || (nodeEnv === 'test' ? 'warn' : 'info'),
    retryUnitMs: production ? 60_000 : int(env, 'RETRY_UNIT_MS', 60_000, 1, 60_000),
    webhookDisableAfterDays: int(env, 'WEBHOOK_DISABLE_AFTER_DAYS', 5, 1, 365),
    databasePoolSize: embeddedDatabase ? 1 : int(env, 'DATABASE_POOL_SIZE', 10, 1, 200),
    graphqlStatementTimeoutMs: int(env, 'GRAPHQL_STATEMENT_TIMEOUT_MS', 10_000, 10, 600_000),
    databaseConnectTimeoutMs: int(env, 'DATABASE_CONNECT_TIMEOUT_MS', 3_000, 100, 600_000),
    databaseStatementTimeoutMs: int(env, 'DATABASE_STATEMENT_TIMEOUT_MS', 30_000, 100, 3_600_000),
    databaseIdleInTransactionTimeoutMs: int(env, 'DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS', 10_000, 100, 3_600_000),
    ...watchSettings(env),
    embeddedDatabase,
    redisCommandTimeoutMs: int(env, 'REDIS_COMMAND_TIMEOUT_MS', 1_000, 50, 600_000),
    maxRequestsInFlight: int(env, 'MAX_REQUESTS_IN_FLIGHT', 512, 1, 100_000),
    consoleDir: env.CONSOLE_DIR || `${process.cwd()}/dist/console`,
    segmentSweepMs: int(env, 'SEGMENT_SWEEP_MS', 15_000, 100, 3_600_000),
    segmentFillChunk: int(env, 'SEGMENT_FILL_CHUNK', 2_000, 10, 100_000),
    ...emailSettings(env),
    ...outboxSettings(env),
    ...limitSettings(env),
  };
}

/** A warning at every start of either process while a test-only setting is on (docs/configuration.md#settings). */
export function warnAboutTestOnlySettings(config: AppConfig): void {
  if (config.allowPrivateTargets) {
    console.warn(
      'UNSAFE_ALLOW_PRIVATE_TARGETS is on: outgoing posts may reach private addresses and plain http. For tests only.',
    );
  }
}

/**
 * Reads `.env` from the working directory when there is one. Variables already set in the
 * environment win over the file (as with `node --env-file`).
 */
export function loadDotEnv(dir: string = process.cwd(), env: NodeJS.ProcessEnv = process.env): boolean {
  const file = `${dir.replace(/\/+$/, '')}/.env`;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw new ConfigError(`${file} could not be read: ${(error as Error).message}`);
  }
  // Node's own .env parser (the one behind --env-file).
  for (const [name, value] of Object.entries(parseEnv(text))) if (env[name] === undefined) env[name] = value;
  return true;
}
