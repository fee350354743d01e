import { ConfigError, loadConfig } from './config';

const secret = 'x'.repeat(40);

describe('configuration is validated at start (docs/configuration.md#settings)', () => {
  it('uses the documented defaults', () => {
    const config = loadConfig({ APP_SECRET: secret });
    expect(config.port).toBe(3000);
    expect(config.baseUrl).toBe('http://localhost:3000');
    expect(config.databaseUrl).toBe('postgres://postgres@127.0.0.1:5432/lifeline');
    expect(config.redisUrl).toBe('redis://127.0.0.1:6379');
    expect(config.allowPrivateTargets).toBe(false);
    expect(config.emailWebhookSecret).toBeNull();
  });

  it('refuses production without APP_SECRET, naming the setting', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/APP_SECRET is required/);
  });

  it('refuses UNSAFE_ALLOW_PRIVATE_TARGETS in production', () => {
    expect(() =>
      loadConfig({ NODE_ENV: 'production', APP_SECRET: secret, UNSAFE_ALLOW_PRIVATE_TARGETS: 'true' }),
    ).toThrow(/UNSAFE_ALLOW_PRIVATE_TARGETS/);
  });

  it.each([
    [{ PORT: 'eighty' }, /PORT must be a whole number/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL must be a URL/],
    [{ REDIS_URL: 'nope' }, /REDIS_URL must be a URL/],
    [
      { REDIS_CLUSTER_NODES: '10.0.0.1:7000,10.0.0.2' },
      /REDIS_CLUSTER_NODES must be host:port pairs .*"10.0.0.2" is not one/,
    ],
    [{ REDIS_CLUSTER_NODES: '10.0.0.1:70000' }, /REDIS_CLUSTER_NODES must be host:port pairs/],
    [{ EMAIL_WEBHOOK_SECRET: 'abc' }, /EMAIL_WEBHOOK_SECRET must be/],
    [{ TRUST_PROXY: 'maybe' }, /TRUST_PROXY must be true or false/],
    [{ NODE_ENV: 'staging' }, /NODE_ENV must be/],
    [{ APP_SECRET: 'short' }, /APP_SECRET must be at least 32/],
  ])('refuses a wrong setting with one sentence naming it: %o', (env, message) => {
    expect(() => loadConfig({ APP_SECRET: secret, ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ APP_SECRET: secret, ...env })).toThrow(message);
  });

  it('REDIS_CLUSTER_NODES lists the seed nodes of a Redis Cluster; unset, one Redis', () => {
    expect(loadConfig({ APP_SECRET: secret }).redisClusterNodes).toBeNull();
    expect(
      loadConfig({ APP_SECRET: secret, REDIS_CLUSTER_NODES: ' 10.0.0.1:7000, redis-b:7001,[::1]:7002' })
        .redisClusterNodes,
    ).toEqual([
      { host: '10.0.0.1', port: 7000 },
      { host: 'redis-b', port: 7001 },
      { host: '::1', port: 7002 },
    ]);
  });

  it("the database watch's thresholds default to a 1 s stall and two misses of 1 s, and are settings", () => {
    expect(loadConfig({ APP_SECRET: secret })).toMatchObject({
      databaseStallMs: 1_000,
      databaseProbeTimeoutMs: 1_000,
      databaseProbeMisses: 2,
    });
    expect(
      loadConfig({
        APP_SECRET: secret,
        DATABASE_STALL_MS: '2000',
        DATABASE_PROBE_TIMEOUT_MS: '1500',
        DATABASE_PROBE_MISSES: '4',
      }),
    ).toMatchObject({ databaseStallMs: 2_000, databaseProbeTimeoutMs: 1_500, databaseProbeMisses: 4 });
  });

  it.each([
    [{ DATABASE_STALL_MS: '50' }, /DATABASE_STALL_MS must be a whole number from 100 to 60000, not "50"/],
    [{ DATABASE_PROBE_TIMEOUT_MS: '1s' }, /DATABASE_PROBE_TIMEOUT_MS must be a whole number from 100 to 60000/],
    [{ DATABASE_PROBE_MISSES: '0' }, /DATABASE_PROBE_MISSES must be a whole number from 1 to 10, not "0"/],
    [
      { DATABASE_STALL_MS: '10000', DATABASE_PROBE_TIMEOUT_MS: '30000', DATABASE_PROBE_MISSES: '2' },
      /DATABASE_STALL_MS \+ DATABASE_PROBE_TIMEOUT_MS × DATABASE_PROBE_MISSES is 70000 ms: a frozen database would hold requests that long; lower them/,
    ],
  ])('refuses a database watch threshold out of bounds, naming it: %o', (env, message) => {
    expect(() => loadConfig({ APP_SECRET: secret, ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ APP_SECRET: secret, ...env })).toThrow(message);
  });

  it('an embedded database gets a single connection', () => {
    const config = loadConfig({ APP_SECRET: secret }, { databaseUrl: 'postgres://postgres@127.0.0.1:5999/postgres' });
    expect(config.databasePoolSize).toBe(1);
  });
});
