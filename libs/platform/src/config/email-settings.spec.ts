import { generateKeyPairSync } from 'node:crypto';
import { ConfigError, loadConfig } from './config';

const base = { NODE_ENV: 'test', APP_SECRET: 'x'.repeat(32) };
const pem = generateKeyPairSync('rsa', { modulusLength: 1024 })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();

describe('broadcast and DKIM settings', () => {
  it('default to 50 a second, a minute of lease and no signing', () => {
    expect(loadConfig(base)).toMatchObject({ broadcastMessagesPerSecond: 50, broadcastLeaseMs: 60_000, dkim: null });
  });

  it('take 0 as unthrottled and refuse a pace out of bounds', () => {
    expect(loadConfig({ ...base, BROADCAST_MESSAGES_PER_SECOND: '0' }).broadcastMessagesPerSecond).toBe(0);
    expect(() => loadConfig({ ...base, BROADCAST_MESSAGES_PER_SECOND: '-1' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, BROADCAST_LEASE_MS: '10' })).toThrow(/BROADCAST_LEASE_MS/);
  });

  it('read a DKIM key written on one line with \\n, the domain lower-cased', () => {
    const env = {
      ...base,
      DKIM_DOMAIN: 'Mail.Acme.test',
      DKIM_SELECTOR: 'll1',
      DKIM_PRIVATE_KEY: pem.replace(/\n/g, '\\n'),
    };
    expect(loadConfig(env).dkim).toEqual({ domainName: 'mail.acme.test', keySelector: 'll1', privateKey: pem });
  });

  it('refuse part of the DKIM settings, a bad domain or selector, and a key that is not PEM, without echoing it', () => {
    const key = { DKIM_DOMAIN: 'acme.test', DKIM_SELECTOR: 's1', DKIM_PRIVATE_KEY: pem };
    expect(() => loadConfig({ ...base, DKIM_DOMAIN: 'acme.test' })).toThrow(/go together/);
    expect(() => loadConfig({ ...base, ...key, DKIM_DOMAIN: 'not a domain' })).toThrow(/DKIM_DOMAIN/);
    expect(() => loadConfig({ ...base, ...key, DKIM_SELECTOR: 'a b' })).toThrow(/DKIM_SELECTOR/);
    const secret = 'top-secret-not-a-key';
    expect(() => loadConfig({ ...base, ...key, DKIM_PRIVATE_KEY: secret })).toThrow(/PEM/);
    try {
      loadConfig({ ...base, ...key, DKIM_PRIVATE_KEY: secret });
    } catch (error) {
      expect((error as Error).message).not.toContain(secret);
    }
  });
});
