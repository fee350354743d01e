// libs/sdk/README.md#methods: the methods, each a wire call of the table there.
// The only throws are in the constructor; every method resolves to its answer or a refusal.
import { MAX_BATCH_ITEMS } from '@app/wire';
import { wireItem, wireQuery, wireSend } from './convert.js';
import { refusal, send, TransportSettings } from './transport.js';
import type {
  BatchItem,
  BatchOutcome,
  IdentifyOptions,
  IdentifyOutcome,
  LifelineOptions,
  LifelineRefusal,
  ListQuery,
  PageOutcome,
  SendOptions,
  SendOutcome,
  SubscribeOptions,
  SubscribeOutcome,
  SupportOptions,
  SupportOutcome,
  ThreadOutcome,
  TrackEvent,
  TrackOptions,
  TrackOutcome,
  UnsubscribeOptions,
  UnsubscribeOutcome,
} from './types.js';

const DEFAULT_URL = 'http://localhost:3000';
const DEFAULT_TIMEOUT_MS = 5_000;
const DEFAULT_ATTEMPTS = 3;

/** Why a key cannot be used here, or null for a secret key. */
function keyProblem(key: unknown): string | null {
  if (typeof key !== 'string' || key.trim() === '') {
    return (
      "new Lifeline() needs your secret key (sk_live_…, from the workspace's developer settings), for example " +
      'new Lifeline(process.env.LIFELINE_SECRET_KEY).'
    );
  }
  if (key.startsWith('wk_')) {
    return (
      'new Lifeline() was given a public key (wk_…): public keys belong in the website tag (LifelineTag, ' +
      'NEXT_PUBLIC_LIFELINE_KEY). Pass the secret key (sk_live_…) here, and only on your server.'
    );
  }
  if (!key.startsWith('sk_live_'))
    return (
      'new Lifeline() was given something that is not a secret key: pass the key beginning sk_live_ from the ' +
      "workspace's developer settings."
    );
  return null;
}

function environmentUrl(): string | undefined {
  try {
    const value = typeof process === 'undefined' ? undefined : process.env?.LIFELINE_URL;
    return value && value.trim() !== '' ? value : undefined;
  } catch {
    return undefined; // a runtime whose process.env throws on read
  }
}

function wholeNumber(value: unknown, fallback: number, min: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.max(min, Math.floor(value)) : fallback;
}

/** Resolves every failure the method's own code could meet to a refusal instead of a rejection. */
async function settled<T>(work: () => Promise<T | LifelineRefusal>): Promise<T | LifelineRefusal> {
  try {
    return await work();
  } catch (error) {
    return refusal(
      'invalid_json',
      `The options could not be sent (${error instanceof Error ? error.message : String(error)}): pass plain ` +
        `objects as the types describe.`,
    );
  }
}

export class Lifeline {
  private readonly settings: TransportSettings;

  readonly messages: {
    /** POST /api/v1/messages: an email to an engaged person. */
    send(options: SendOptions): Promise<SendOutcome>;
    /** GET /api/v1/messages: a page, newest first. */
    list(query?: ListQuery): Promise<PageOutcome>;
    /** GET /api/v1/people/{who}/messages: the person's thread, oldest first. */
    thread(who: string): Promise<ThreadOutcome>;
  };

  constructor(secretKey: string, options: LifelineOptions = {}) {
    const problem = keyProblem(secretKey);
    if (problem) throw new Error(problem);
    const url = (options?.url ?? environmentUrl() ?? DEFAULT_URL).replace(/\/+$/, '');
    this.settings = {
      url,
      key: secretKey.trim(),
      fetch: options?.fetch,
      timeoutMs: wholeNumber(options?.timeoutMs, DEFAULT_TIMEOUT_MS, 1),
      attempts: wholeNumber(options?.retries, DEFAULT_ATTEMPTS, 1),
    };
    this.messages = {
      send: (options) => settled(() => send(this.settings, 'POST', '/api/v1/messages', wireSend(options))),
      list: (query) => settled(() => send(this.settings, 'GET', `/api/v1/messages${wireQuery(query)}`)),
      thread: (who) =>
        settled(() => send(this.settings, 'GET', `/api/v1/people/${encodeURIComponent(String(who ?? ''))}/messages`)),
    };
  }

  /** POST /api/v1/events: track('signup', {email}) or track({type: 'signup', email}). */
  track(type: string, options?: TrackOptions): Promise<TrackOutcome>;
  track(event: TrackEvent): Promise<TrackOutcome>;
  track(typeOrEvent: string | TrackEvent, options?: TrackOptions): Promise<TrackOutcome> {
    return settled(() => {
      const item =
        typeof typeOrEvent === 'object' && typeOrEvent !== null
          ? wireItem(typeOrEvent)
          : wireItem({ ...options }, typeOrEvent);
      return send(this.settings, 'POST', '/api/v1/events', item);
    });
  }

  /** Tells the service that the given keys are one person; writes no timeline row. */
  identify(options: IdentifyOptions): Promise<IdentifyOutcome> {
    return settled(() => send(this.settings, 'POST', '/api/v1/events', wireItem(options, 'identify')));
  }

  /** Puts an email on a list with the exact consent words. */
  subscribe(options: SubscribeOptions): Promise<SubscribeOutcome> {
    return settled(() => send(this.settings, 'POST', '/api/v1/events', wireItem(options, 'subscribe')));
  }

  /** Takes an email off a list: unsubscribed, or not_subscribed when it was on none. */
  unsubscribe(options: UnsubscribeOptions): Promise<UnsubscribeOutcome> {
    return settled(() => send(this.settings, 'POST', '/api/v1/events', wireItem(options, 'unsubscribe')));
  }

  /** Records what a person wrote to support. */
  support(options: SupportOptions): Promise<SupportOutcome> {
    return settled(() => send(this.settings, 'POST', '/api/v1/events', wireItem(options, 'support')));
  }

  /** Up to 100 items in one post; one result per item, in order. More than 100 is refused here, unsent. */
  batch(items: BatchItem[]): Promise<BatchOutcome> {
    return settled(async () => {
      if (!Array.isArray(items)) return refusal('invalid_json', 'batch() takes an array of items, each with its type.');
      if (items.length > MAX_BATCH_ITEMS) {
        return refusal(
          'too_many_items',
          `A batch holds at most ${MAX_BATCH_ITEMS} items and this one has ${items.length}: split it into ` +
            `batches of ${MAX_BATCH_ITEMS}. Nothing was sent.`,
        );
      }
      return send(this.settings, 'POST', '/api/v1/events', { events: items.map((item) => wireItem(item)) });
    });
  }
}
