// The settings of broadcasts and of DKIM signing (docs/configuration.md#settings, docs/email.md#sending-domain).
import { ConfigError, int, optional } from './config';

export interface DkimSettings {
  /** The signing domain (d=), the domain of EMAIL_FROM's address as a rule. */
  domainName: string;
  /** The selector (s=): the key's DNS name is <selector>._domainkey.<domain>. */
  keySelector: string;
  /**
   * The private key, PEM: a secret, read here once, never logged or answered
   * (docs/security.md#keys-secrets-and-tenants).
   */
  privateKey: string;
}

export interface EmailSettings {
  /** Broadcast emails one worker process sends a second at most; 0: as fast as the provider takes them. */
  broadcastMessagesPerSecond: number;
  /** How long a worker's claim on a broadcast's recipients holds before another worker takes them over. */
  broadcastLeaseMs: number;
  /** Broadcast emails one worker process has with the provider at once: also the most a crash can send twice. */
  broadcastSendsInFlight: number;
  /** Batches of recipients one worker process works on at once: one's reads and commits beside another's sends. */
  broadcastBatchesInFlight: number;
  /** DKIM signing of every email sent over SMTP, when DKIM_PRIVATE_KEY is set; null otherwise. */
  dkim: DkimSettings | null;
}

type Env = Record<string, string | undefined>;

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;
const SELECTOR = /^[a-z0-9]([a-z0-9._-]{0,62})$/i;

function dkimSettings(env: Env): DkimSettings | null {
  const key = optional(env, 'DKIM_PRIVATE_KEY');
  const domainName = optional(env, 'DKIM_DOMAIN');
  const keySelector = optional(env, 'DKIM_SELECTOR');
  if (!key && !domainName && !keySelector) return null;
  if (!key || !domainName || !keySelector)
    throw new ConfigError('DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY go together: set all three, or none.');
  if (!DOMAIN.test(domainName)) throw new ConfigError(`DKIM_DOMAIN must be a domain name like example.com.`);
  if (!SELECTOR.test(keySelector)) throw new ConfigError('DKIM_SELECTOR must be a DNS label like lifeline1.');
  // A key in one line of an .env file writes its line breaks as \n.
  const privateKey = key.replace(/\\n/g, '\n');
  if (!/-----BEGIN (RSA )?PRIVATE KEY-----/.test(privateKey))
    throw new ConfigError('DKIM_PRIVATE_KEY must be a PEM private key (-----BEGIN PRIVATE KEY-----…).');
  return { domainName: domainName.toLowerCase(), keySelector, privateKey };
}

export function emailSettings(env: Env): EmailSettings {
  return {
    broadcastMessagesPerSecond: int(env, 'BROADCAST_MESSAGES_PER_SECOND', 50, 0, 10_000),
    broadcastLeaseMs: int(env, 'BROADCAST_LEASE_MS', 60_000, 1_000, 3_600_000),
    broadcastSendsInFlight: int(env, 'BROADCAST_SENDS_IN_FLIGHT', 5, 1, 64),
    broadcastBatchesInFlight: int(env, 'BROADCAST_BATCHES_IN_FLIGHT', 3, 1, 16),
    dkim: dkimSettings(env),
  };
}
