// docs/webhooks.md#delivery-retries-and-the-log (attempt time, success, failure) and
// docs/webhooks.md#addresses (the address is checked again at each attempt and run);
// docs/configuration.md#settings (UNSAFE_ALLOW_PRIVATE_TARGETS).
//
// The one way a signed body leaves the service: outgoing webhook attempts and automation http_request steps
// both post through postSigned (docs/webhooks.md#signatures, docs/webhooks.md#automation-posts: the same
// body and signature scheme). Beside the spec's X-Service-* headers every post carries the Standard
// Webhooks headers, signed at send time, so a retry carries a new webhook-timestamp over the same body
// bytes.
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, buildConnector, type Dispatcher } from 'undici';
import { keptIn } from '@app/platform/plain';
import { checkWebhookUrl, isPublicAddress } from '../domain/address-rule';
import { signBody, signStandard } from '../domain/webhook-body';
import { AnswerReader, type PostOutcome } from './answer-reader';

export type { PostOutcome } from './answer-reader';

export interface SafePostOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  /** Tests pass their own agent (e.g. with an injected resolver); services use the shared one. */
  dispatcher?: Dispatcher;
}

type Target = { origin: string; path: string } | { reason: string };
// The address rule's answer per address: a pure function of the text (names are resolved and checked at
// connect), asked on every post of a burst (URL parsing showed in its profile).
const targets = new Map<string, Target>();

function targetOf(url: string, allowPrivate: boolean): Target {
  return keptIn(targets, (allowPrivate ? '1' : '0') + url, () => {
    const check = checkWebhookUrl(url, { allowPrivate });
    return check.ok
      ? {
          origin: check.url.origin,
          path: check.url.search ? check.url.pathname + check.url.search : check.url.pathname,
        }
      : { reason: check.reason };
  });
}

/**
 * POST one body to one receiver. Redirects are not followed (a 3xx is a failure), only a 2xx succeeds, and connect +
 * headers + body read together are bounded by timeoutMs (undici's own timers, the same bound, may end it first). Never
 * throws.
 */
export function safePost(
  url: string,
  body: string,
  headers: Record<string, string>,
  opts: SafePostOptions,
): Promise<PostOutcome> {
  const started = performance.now();
  const target = targetOf(url, opts.allowPrivate);
  if ('reason' in target)
    return Promise.resolve({ ok: false, durationMs: Math.round(performance.now() - started), error: target.reason });
  const { origin, path } = target;
  return new Promise((resolve) => {
    const reader = new AnswerReader(opts.timeoutMs, started, resolve);
    try {
      (opts.dispatcher ?? sharedSafeAgent(opts.allowPrivate)).dispatch(
        {
          origin,
          path,
          method: 'POST',
          body,
          headers: headerList(headers),
          headersTimeout: opts.timeoutMs,
          bodyTimeout: opts.timeoutMs,
        },
        reader,
      );
    } catch (err) {
      reader.onError(err as Error);
    }
  });
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
export function postSigned(
  url: string,
  post: SignedBody,
  secrets: SigningSecrets,
  opts: SafePostOptions,
): Promise<PostOutcome> {
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
    if (!options.allowPrivate && isIP(literal) !== 0 && !isPublicAddress(literal))
      return callback(new AddressRefusedError(literal, literal), null);
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

// Lower-cased header names, kept: the same few names go out on every attempt.
const lowerNames = new Map<string, string>();

/** The post's headers as undici's flat list (name, value, ...): no object for it to walk and copy. */
function headerList(headers: Record<string, string>): string[] {
  const list = ['content-type', 'application/json', 'user-agent', 'Lifeline-Webhooks/1.0'];
  for (const name in headers) {
    let lower = lowerNames.get(name);
    if (lower === undefined) {
      lower = name.toLowerCase();
      if (lowerNames.size < 1_000) lowerNames.set(name, lower);
    }
    if (lower === 'content-type' || lower === 'user-agent') list[list.indexOf(lower) + 1] = headers[name];
    else list.push(lower, headers[name]);
  }
  return list;
}
