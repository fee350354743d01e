// A database or Redis that cannot be reached is one sentence naming the setting and the fixes,
// never a stack trace or a retry loop in the logs. No Redis client here: the CLI reads this.
import { ConfigError } from '../config/config';
import { hostListOf, hostsNamed } from '../database/domain/host-list';

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: 'nothing accepts connections there',
  ENOTFOUND: 'that host name does not resolve',
  EAI_AGAIN: 'that host name does not resolve',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'that host cannot be reached',
  ECONNRESET: 'the connection was reset',
};

function where(url: string): string {
  const list = url.startsWith('postgres') ? hostListOf(url) : null;
  if (list && !('problem' in list) && list.hosts.length > 1) return hostsNamed(list);
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || (parsed.protocol.startsWith('redis') ? 6379 : 5432)}`;
  } catch {
    return 'the address given';
  }
}

function reason(error: unknown): string | null {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  const inner = (error as { errors?: unknown[] })?.errors?.[0] as { code?: string } | undefined;
  const network = NETWORK_CODES[code ?? ''] ?? NETWORK_CODES[inner?.code ?? ''];
  if (network) return network;
  if (code === '28P01' || code === '28000') return 'the user or password is refused';
  if (code === '3D000') return 'that database does not exist';
  // a list of hosts (database/targeted-client.ts): why the last could not be reached, or that none was of the kind
  const noHost = error as { name?: string; sessionsOfAnotherKind?: number; wanted?: string; cause?: unknown };
  if (noHost?.name === 'NoHostFits')
    return noHost.sessionsOfAnotherKind ? `none of them ${noHost.wanted} just now` : reason(noHost.cause);
  if (/NOAUTH|WRONGPASS/.test(message ?? '')) return 'the password is refused';
  return null;
}

/** The sentence for a connection failure to PostgreSQL, or null when the error is something else. */
export function databaseUnreachable(error: unknown, url: string): ConfigError | null {
  const why = reason(error);
  if (!why) return null;
  return new ConfigError(
    `PostgreSQL at ${where(url)} cannot be reached (${why}): start PostgreSQL, or set DATABASE_URL to one that runs` +
      ' (outside production, leave DATABASE_URL unset with nothing on 127.0.0.1:5432 to use embedded PGlite).',
  );
}

/**
 * The sentence for a connection failure to the read replica (DATABASE_READ_URL), or null when the error is something
 * else.
 */
export function replicaUnreachable(error: unknown, url: string): ConfigError | null {
  const why = reason(error);
  if (!why) return null;
  return new ConfigError(
    `The PostgreSQL read replica at ${where(url)} cannot be reached (${why}): start it, or unset ` +
      `DATABASE_READ_URL so the primary serves every read.`,
  );
}

/**
 * The sentence for a connection failure to Redis (to the Redis Cluster `cluster` names), or null when the error is
 * something else.
 */
export function redisUnreachable(error: unknown, url: string, cluster?: string): ConfigError | null {
  if (cluster) {
    // ioredis's Cluster hides each node's network error behind one of its own.
    const why =
      reason(error) ??
      (/^None of startup nodes is available/.test((error as Error)?.message ?? '') ? 'no node answers' : null);
    return why
      ? new ConfigError(
          `${cluster} cannot be reached (${why}): start its nodes, or set REDIS_CLUSTER_NODES to nodes of a ` +
            `cluster that runs.`,
        )
      : null;
  }
  const why = reason(error);
  if (!why) return null;
  return new ConfigError(
    `Redis at ${where(url)} cannot be reached (${why}): start Redis (apt-get install redis-server), set ` +
      `REDIS_URL to one that runs, or run \`docker compose up -d\`.`,
  );
}
