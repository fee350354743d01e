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
    [
      { DATABASE_URL: 'postgres://a:5432,,b:5432/db?target_session_attrs=read-write' },
      /DATABASE_URL must be a URL .*as libpq writes them.*; its host list has an empty entry/,
    ],
    [
      { DATABASE_URL: 'postgres://a:5432,b:x/db?target_session_attrs=read-write' },
      /DATABASE_URL .*"b:x" is not a host/,
    ],
    [{ DATABASE_URL: 'postgres://a,b/db' }, /DATABASE_URL lists several hosts: add target_session_attrs=read-write/],
    [
      { DATABASE_URL: 'postgres://a,b/db?target_session_attrs=standby' },
      /DATABASE_URL is where the service writes, so its target_session_attrs must be read-write or primary, not standby/,
    ],
    [
      { DATABASE_URL: 'postgres://a/db', DATABASE_READ_URL: 'postgres://b,c/db?target_session_attrs=slave' },
      /DATABASE_READ_URL .*target_session_attrs must be one of .*not "slave"/,
    ],
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

  it('DATABASE_URL and DATABASE_READ_URL take a list of hosts with target_session_attrs, as libpq does', () => {
    const config = loadConfig({
      APP_SECRET: secret,
      DATABASE_URL: 'postgres://app@10.0.0.1:5432,10.0.0.2:5432/lifeline?target_session_attrs=read-write',
      DATABASE_READ_URL: 'postgres://app@10.0.0.2:5432,10.0.0.1:5432/lifeline?target_session_attrs=prefer-standby',
    });
    expect(config.databaseUrl).toBe(
      'postgres://app@10.0.0.1:5432,10.0.0.2:5432/lifeline?target_session_attrs=read-write',
    );
    expect(config.databaseReadUrl).toMatch(/prefer-standby$/);
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
