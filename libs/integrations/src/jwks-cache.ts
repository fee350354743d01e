// docs/rest.md#third-party-doors, the auth_b row: the key set at https://{domain}/.well-known/jwks, fetched
// through the same address-checking agent as outgoing webhooks (no private address unless
// UNSAFE_ALLOW_PRIVATE_TARGETS), cached, and fetched again when a token names a kid the cached set
// lacks, at most once a minute per domain, so a rotated key is picked up and junk kids cost nothing.
import { Inject, Injectable } from '@nestjs/common';
import { createLocalJWKSet, JSONWebKeySet, JWTVerifyGetKey } from 'jose';
import { fetch } from 'undici';
import { AppConfig, CONFIG } from '@app/platform';
import { sharedSafeAgent } from '@app/webhooks';
import { jwksUrl } from './domain';

const REFETCH_ON_UNKNOWN_KID_MS = 60_000;
const MAX_AGE_MS = 10 * 60_000;
const FETCH_TIMEOUT_MS = 5_000;
const MAX_BYTES = 64 * 1024;

interface Entry {
  set: JWTVerifyGetKey;
  fetchedAt: number;
  /** When a token's unknown kid last made us fetch again (the first load does not count). */
  kidRefetchAt: number;
  inFlight?: Promise<JWTVerifyGetKey>;
}

@Injectable()
export class JwksCache {
  private readonly entries = new Map<string, Entry>();

  constructor(@Inject(CONFIG) private readonly config: AppConfig) {}

  /** The key getter jose calls while verifying a token of this domain. */
  keysOf(domain: string): JWTVerifyGetKey {
    return async (header, token) => {
      let entry = this.entries.get(domain);
      if (!entry || Date.now() - entry.fetchedAt > MAX_AGE_MS) entry = await this.load(domain);
      try {
        return await entry.set(header, token);
      } catch (error) {
        const unknownKid = (error as { code?: string }).code === 'ERR_JWKS_NO_MATCHING_KEY';
        if (!unknownKid || Date.now() - entry.kidRefetchAt < REFETCH_ON_UNKNOWN_KID_MS) throw error;
        entry.kidRefetchAt = Date.now();
        return (await this.load(domain)).set(header, token);
      }
    };
  }

  forget(domain: string): void {
    this.entries.delete(domain);
  }

  /** One fetch at a time per domain; concurrent tokens wait for the same answer. */
  private async load(domain: string): Promise<Entry> {
    const current = this.entries.get(domain);
    if (current?.inFlight) {
      await current.inFlight;
      return this.entries.get(domain)!;
    }
    const inFlight = this.fetchSet(domain);
    if (current) current.inFlight = inFlight;
    try {
      const set = await inFlight;
      const entry: Entry = { set, fetchedAt: Date.now(), kidRefetchAt: current?.kidRefetchAt ?? 0 };
      this.entries.set(domain, entry);
      return entry;
    } finally {
      if (current) current.inFlight = undefined;
    }
  }

  private async fetchSet(domain: string): Promise<JWTVerifyGetKey> {
    const response = await fetch(jwksUrl(domain), {
      dispatcher: sharedSafeAgent(this.config.allowPrivateTargets),
      redirect: 'error',
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
      headers: { accept: 'application/json' },
    });
    const body = await response.text();
    if (response.status !== 200 || body.length > MAX_BYTES)
      throw new Error(`the key set at ${jwksUrl(domain)} answered ${response.status}`);
    const set = JSON.parse(body) as JSONWebKeySet;
    if (!Array.isArray(set?.keys)) throw new Error(`the key set at ${jwksUrl(domain)} holds no keys`);
    return createLocalJWKSet(set);
  }
}
