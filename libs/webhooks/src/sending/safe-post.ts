// interface.md "Delivery rules" (Attempt time, Success, Failure, Address rule), "Automation http_request
// step" (the address is checked again at run time); decisions.md section 1 (UNSAFE_ALLOW_PRIVATE_TARGETS).
//
// The one way a signed body leaves the service: outgoing webhook attempts and automation http_request
// steps both post through postSigned (interface.md "Delivery rules": Headers; "Automation http_request
// step": the same body and signature scheme). Beside the spec's X-Service-* headers every post carries
// the Standard Webhooks headers (decisions.md section 6, "Beyond the spec"), signed at send time, so
// a retry carries a new webhook-timestamp over the same body bytes.
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, buildConnector, request, type Dispatcher } from 'undici';
import { checkWebhookUrl, isPublicAddress } from '../domain/address-rule';
import { signBody, signStandard } from '../domain/webhook-body';

export interface PostOutcome {
  /** A 2xx answer and nothing else. */
  ok: boolean;
  /** Present when the receiver answered with a status line. */
  status?: number;
  /** The first 500 characters of the answer body. */
  bodyExcerpt?: string;
  durationMs: number;
  /** Present when the attempt did not complete: refused address, no connection, reset or timeout. */
  error?: string;
}

export interface SafePostOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  /** Tests pass their own agent (e.g. with an injected resolver); services use the shared one. */
  dispatcher?: Dispatcher;
}

const EXCERPT_CHARS = 500;
// 500 characters take at most 2,000 UTF-8 bytes; past 64 KB the rest is not worth reading.
const EXCERPT_BYTES = EXCERPT_CHARS * 4;
const MAX_READ_BYTES = 64 * 1024;

/**
 * POST one body to one receiver. Redirects are not followed (a 3xx is a failure), only a 2xx succeeds, and connect +
 * headers + body read together are bounded by timeoutMs (undici's own timers, the same bound, may end it first). Never throws.
 */
export async function safePost(
  url: string,
  body: string,
  headers: Record<string, string>,
  opts: SafePostOptions,
): Promise<PostOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const check = checkWebhookUrl(url, { allowPrivate: opts.allowPrivate });
  if (!check.ok) return { ok: false, durationMs: elapsed(), error: check.reason };

  const deadline = new Deadline(opts.timeoutMs);
  let status: number | undefined;
  try {
    const answer = await request(check.url, {
      method: 'POST',
      body,
      headers: mergeHeaders(headers),
      dispatcher: opts.dispatcher ?? sharedSafeAgent(opts.allowPrivate),
      signal: deadline,
      headersTimeout: opts.timeoutMs,
      bodyTimeout: opts.timeoutMs,
    });
    status = answer.statusCode;
    const bodyExcerpt = await readExcerpt(answer.body);
    return { ok: status >= 200 && status < 300, status, bodyExcerpt, durationMs: elapsed() };
  } catch (err) {
    const late = deadline.aborted || /^UND_ERR_(HEADERS|BODY)_TIMEOUT$/.test((err as { code?: string }).code ?? '');
    const error = late ? `No complete answer within ${opts.timeoutMs} ms.` : describe(err);
    return { ok: false, ...(status === undefined ? {} : { status }), durationMs: elapsed(), error };
  } finally {
    deadline.clear();
  }
}

export interface SignedBody {
  /** The delivery id: X-Service-Delivery and webhook-id. */
  id: string;
  /** The trigger, test or automation: X-Service-Event. */
  type: string;
  /** The exact bytes to send (stored, so every attempt sends the same). */
  body: string;
}

export interface SigningSecrets {
  /** The secret in force (shown at creation or by the latest rotation). */
  secret: string;
  /** The secret a rotation replaced, while it still signs (24 hours). */
  previous?: string | null;
}

/**
 * The headers of one post. X-Service-Signature carries a single HMAC, so during a rotation it stays
 * under the previous secret (receivers not yet updated keep working); webhook-signature carries both.
 */
export function signedHeaders(post: SignedBody, secrets: SigningSecrets, nowMs = Date.now()): Record<string, string> {
  const timestamp = Math.floor(nowMs / 1000);
  const all = secrets.previous ? [secrets.secret, secrets.previous] : [secrets.secret];
  return {
    'X-Service-Delivery': post.id,
    'X-Service-Event': post.type,
    'X-Service-Signature': signBody(secrets.previous ?? secrets.secret, post.body),
    'webhook-id': post.id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signStandard(all, post.id, timestamp, post.body),
  };
}

/** Signs (now) and posts one body; never throws (see safePost). */
export function postSigned(url: string, post: SignedBody, secrets: SigningSecrets, opts: SafePostOptions): Promise<PostOutcome> {
  return safePost(url, post.body, signedHeaders(post, secrets), opts);
}

// The safe address at send time: the socket connects only to addresses this file resolved and checked,
// so a name that resolves to a public address when saved and to 127.0.0.1 when sent (DNS rebinding) is refused.
/** Resolves a host name to every address it has (dns.lookup with all: true by default). */
export type ResolveAll = (hostname: string) => Promise<LookupAddress[]>;

export interface SafeAgentOptions {
  allowPrivate: boolean;
  /** Injected in tests to stand for DNS answers the test machine cannot give. */
  resolve?: ResolveAll;
  /** Most sockets to one receiver; keep-alive reuses them between deliveries. */
  connections?: number;
  connectTimeoutMs?: number;
  /** Extra certificate authority to trust; tests use it for their own receiver's certificate. */
  ca?: string;
}

/** Raised when a target is, or resolves to, an address that is not public. */
export class AddressRefusedError extends Error {
  readonly code = 'ADDRESS_REFUSED';
  constructor(host: string, address: string) {
    super(`${host} resolves to ${address}, which is not a public address; use an address on the public internet.`);
    this.name = 'AddressRefusedError';
  }
}

/** The operating system's resolver (getaddrinfo), every address of the name. */
export const systemResolve: ResolveAll = (hostname) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true }, (err, addresses) => (err ? reject(err) : resolve(addresses)));
  });

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A net.connect lookup that hands back only addresses that passed the check, all of them checked. */
export function checkedLookup(allowPrivate: boolean, resolve: ResolveAll = systemResolve) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolve(hostname).then(
      (found) => {
        if (!allowPrivate) {
          const refused = found.find((entry) => !isPublicAddress(entry.address));
          if (refused) return callback(new AddressRefusedError(hostname, refused.address), []);
        }
        const family = options.family === 4 || options.family === 6 ? options.family : 0;
        const usable = family ? found.filter((entry) => entry.family === family) : found;
        if (usable.length === 0) {
          const notFound: NodeJS.ErrnoException = new Error(`${hostname} has no address; check the host name.`);
          notFound.code = 'ENOTFOUND';
          return callback(notFound, []);
        }
        if (options.all) return callback(null, usable);
        callback(null, usable[0].address, usable[0].family);
      },
      (err: NodeJS.ErrnoException) => callback(err, []),
    );
  };
}

/** An undici connector that checks IP-literal hosts itself and names through checkedLookup. */
export function safeConnector(options: SafeAgentOptions): buildConnector.connector {
  const base = buildConnector({
    timeout: options.connectTimeoutMs ?? 10_000,
    ...(options.ca ? { ca: options.ca } : {}),
    // net.connect and tls.connect call this lookup and connect to what it returns, nothing else.
    lookup: checkedLookup(options.allowPrivate, options.resolve),
  } as buildConnector.BuildOptions);
  return (connectOptions, callback) => {
    // net.connect skips lookup for IP literals, so they are checked here; TLS servername still comes from host.
    const literal = connectOptions.hostname;
    if (!options.allowPrivate && isIP(literal) !== 0 && !isPublicAddress(literal)) return callback(new AddressRefusedError(literal, literal), null);
    base(connectOptions, callback);
  };
}

/** One pooled, keep-alive agent whose every connection went through the address check. */
export function createSafeAgent(options: SafeAgentOptions): Agent {
  return new Agent({ connect: safeConnector(options), connections: options.connections ?? 256 });
}

const shared = new Map<boolean, Agent>();

/** The process-wide agent for one allowPrivate setting, so keep-alive sockets are reused. */
export function sharedSafeAgent(allowPrivate: boolean): Agent {
  let agent = shared.get(allowPrivate);
  if (!agent) shared.set(allowPrivate, (agent = createSafeAgent({ allowPrivate })));
  return agent;
}

/** Close the shared agents (worker shutdown, end of a test file). */
export async function closeSafeAgents(): Promise<void> {
  const agents = [...shared.values()];
  shared.clear();
  await Promise.all(agents.map((agent) => agent.close()));
}

/**
 * The attempt's time limit as the EventEmitter-style signal undici takes (its documented `signal:
 * AbortSignal | EventEmitter`): an AbortController and its EventTarget per attempt showed as 4% of
 * the worker's CPU in the benchmark's profile.
 */
class Deadline {
  aborted = false;
  reason: Error | undefined;
  private listeners: Array<() => void> = [];
  private readonly timer: NodeJS.Timeout;

  constructor(ms: number) {
    this.timer = setTimeout(() => this.abort(ms), ms);
  }

  on(_event: 'abort', listener: () => void): this {
    this.listeners.push(listener);
    return this;
  }

  once(event: 'abort', listener: () => void): this {
    return this.on(event, listener);
  }

  removeListener(_event: 'abort', listener: () => void): this {
    this.listeners = this.listeners.filter((l) => l !== listener);
    return this;
  }

  clear(): void {
    clearTimeout(this.timer);
    this.listeners = [];
  }

  private abort(ms: number): void {
    this.aborted = true;
    this.reason = new Error(`No complete answer within ${ms} ms.`);
    const listeners = this.listeners;
    this.listeners = [];
    for (const listener of listeners) listener();
  }
}

// Lower-cased header names, kept: the same few names go out on every attempt.
const lowerNames = new Map<string, string>();

function mergeHeaders(headers: Record<string, string>): Record<string, string> {
  const merged: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'Lifeline-Webhooks/1.0' };
  for (const name in headers) {
    let lower = lowerNames.get(name);
    if (lower === undefined) {
      lower = name.toLowerCase();
      if (lowerNames.size < 1_000) lowerNames.set(name, lower);
    }
    merged[lower] = headers[name];
  }
  return merged;
}

async function readExcerpt(stream: AsyncIterable<Buffer>): Promise<string> {
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let seenBytes = 0;
  for await (const chunk of stream) {
    seenBytes += chunk.length;
    if (keptBytes < EXCERPT_BYTES) {
      kept.push(chunk);
      keptBytes += chunk.length;
    }
    // Leaving the loop destroys the stream: a huge answer costs the socket, not the memory.
    if (seenBytes > MAX_READ_BYTES) break;
  }
  const text = Buffer.concat(kept).subarray(0, EXCERPT_BYTES).toString('utf8').slice(0, EXCERPT_CHARS);
  // Do not end on half of a surrogate pair.
  return /[\uD800-\uDBFF]$/.test(text) ? text.slice(0, -1) : text;
}

function describe(err: unknown): string {
  // Duck-typed: errors raised inside node or undici may come from another realm (instanceof fails).
  const error = asError(err);
  if (!error) return 'The post failed for an unknown reason.';
  const cause = asError(error.cause);
  if (cause?.code === 'ADDRESS_REFUSED') return cause.message;
  if (error.code === 'ADDRESS_REFUSED' || !error.code || error.message.includes(error.code)) return error.message;
  return `${error.message} (${error.code})`;
}

function asError(value: unknown): { message: string; code?: string; cause?: unknown } | null {
  if (typeof value !== 'object' || value === null || typeof (value as Error).message !== 'string') return null;
  return value as { message: string; code?: string; cause?: unknown };
}
