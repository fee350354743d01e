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

  it('an embedded database gets a single connection', () => {
    const config = loadConfig({ APP_SECRET: secret }, { databaseUrl: 'postgres://postgres@127.0.0.1:5999/postgres' });
    expect(config.databasePoolSize).toBe(1);
  });
});
