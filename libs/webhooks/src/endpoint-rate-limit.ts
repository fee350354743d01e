// Per-address rate limit: at most N posts to one address in any second, shared by
// every worker through Redis. A post reserves a slot: the earliest time at which, counting the slots
// reserved before it, no second holds more than N. rate-limiter-flexible answers "no" instead of
// "at this time", and its queue lives in one process, so the reservation is a short script of our own.
import { Inject, Injectable } from '@nestjs/common';
import { AppConfig, CONFIG, REDIS, type RedisClient } from '@app/platform';

export const RATE_WINDOW_MS = 1_000;

// Both scripts: now from Redis's clock (one clock for every worker), N and the window from ARGV,
// and the length of the list at KEYS[1].
const PREAMBLE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local n = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local len = redis.call('LLEN', KEYS[1])
`;

// KEYS[1]: the last N reserved slots (ms since the epoch, ascending). ARGV: N, window ms.
// Slots never go down: each is at least now and at least the N-th previous slot plus the window.
const RESERVE = `${PREAMBLE}local slot = now
if len >= n then
  local nth = tonumber(redis.call('LINDEX', KEYS[1], len - n))
  if nth + window > slot then slot = nth + window end
end
redis.call('RPUSH', KEYS[1], slot)
redis.call('LTRIM', KEYS[1], -n, -1)
redis.call('PEXPIRE', KEYS[1], slot - now + window + 1000)
return {slot, slot - now}
`;

// KEYS[1]: the times of the last N posts actually started. Admits a post now when no second would then
// hold more than N; otherwise answers how long to wait. Reserved slots are already that far apart, so
// this only waits out timers that fired late and would have bunched posts together.
const ADMIT = `${PREAMBLE}if len >= n then
  local nth = tonumber(redis.call('LINDEX', KEYS[1], len - n))
  if nth + window > now then return nth + window - now end
end
redis.call('RPUSH', KEYS[1], now)
redis.call('LTRIM', KEYS[1], -n, -1)
redis.call('PEXPIRE', KEYS[1], window + 1000)
return 0
`;

export interface Slot {
  /** When the post may go out, ms since the epoch (Redis's clock). */
  at: number;
  /** How long from now. */
  waitMs: number;
}

@Injectable()
export class EndpointRateLimit {
  constructor(
    @Inject(REDIS) private readonly redis: RedisClient,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  /** Reserves the next free slot of the address for one post. Throws while Redis is unreachable. */
  async reserve(workspaceId: string, endpointId: string, perSecond: number): Promise<Slot> {
    const [at, waitMs] = (await this.redis.eval(
      RESERVE,
      1,
      this.key(workspaceId, endpointId, 'slots'),
      perSecond,
      RATE_WINDOW_MS,
    )) as [number, number];
    return { at, waitMs: Math.max(0, waitMs) };
  }

  /** Right before the post: 0 when it may start now (and it is counted), else the wait in ms. */
  async admit(workspaceId: string, endpointId: string, perSecond: number): Promise<number> {
    return (await this.redis.eval(
      ADMIT,
      1,
      this.key(workspaceId, endpointId, 'sent'),
      perSecond,
      RATE_WINDOW_MS,
    )) as number;
  }

  private key(workspaceId: string, endpointId: string, what: string): string {
    return `${this.config.redisPrefix}:whrl:${workspaceId}:${endpointId}:${what}`;
  }
}
