// libs/sdk/README.md#options and libs/sdk/README.md#it-never-throws: one request, its timeout, its
// retries, and the answer or refusal it resolves to. Never throws, never rejects.
import type { FetchLike, FetchResponseLike, LifelineRefusal } from './types.js';

export interface TransportSettings {
  url: string;
  key: string;
  fetch: FetchLike | undefined;
  timeoutMs: number;
  attempts: number;
}

/** Waits before the second and third attempts: short, so a caller is not held up. */
export const RETRY_WAITS_MS = [250, 500];

type Attempt =
  | { kind: 'answer'; status: number; text: string; headers: FetchResponseLike['headers'] }
  | { kind: 'timeout' }
  | { kind: 'network'; cause: string };

const isRetryable = (a: Attempt) => a.kind !== 'answer' || a.status >= 500;

export function refusal(
  error: string,
  message: string,
  httpStatus = 0,
  extra: Record<string, unknown> = {},
): LifelineRefusal {
  return { ...extra, ok: false, error, message, httpStatus };
}

export async function send<T>(
  settings: TransportSettings,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<T | LifelineRefusal> {
  let payload: string | undefined;
  try {
    payload = body === undefined ? undefined : JSON.stringify(body);
  } catch (error) {
    return refusal(
      'invalid_json',
      `The options could not be written as JSON (${describe(error)}): remove circular references and BigInt values.`,
    );
  }
  const headers: Record<string, string> = { authorization: `Bearer ${settings.key}`, accept: 'application/json' };
  if (payload !== undefined) headers['content-type'] = 'application/json';
  let last: Attempt = { kind: 'network', cause: 'no attempt made' };
  for (let n = 0; n < settings.attempts; n++) {
    if (n > 0) await sleep(RETRY_WAITS_MS[Math.min(n - 1, RETRY_WAITS_MS.length - 1)]);
    last = await attempt(settings, method, path, headers, payload);
    if (!isRetryable(last)) break;
  }
  return outcome<T>(settings, last);
}

async function attempt(
  settings: TransportSettings,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: string | undefined,
): Promise<Attempt> {
  const fetchImpl = settings.fetch ?? (typeof fetch === 'function' ? (fetch as unknown as FetchLike) : undefined);
  if (!fetchImpl) return { kind: 'network', cause: 'no fetch in this runtime; pass one as the fetch option' };
  const controller = typeof AbortController === 'function' ? new AbortController() : undefined;
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // The timer also settles the attempt itself, for a fetch that ignores the abort signal.
  const deadline = new Promise<Attempt>((resolve) => {
    timer = setTimeout(() => {
      timedOut = true;
      controller?.abort();
      resolve({ kind: 'timeout' });
    }, settings.timeoutMs);
  });
  const exchange = (async (): Promise<Attempt> => {
    try {
      const response = await fetchImpl(settings.url + path, { method, headers, body, signal: controller?.signal });
      const text = await response.text();
      return { kind: 'answer', status: response.status, text, headers: response.headers };
    } catch (error) {
      return timedOut ? { kind: 'timeout' } : { kind: 'network', cause: describe(error) };
    }
  })();
  try {
    return await Promise.race([exchange, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

function outcome<T>(settings: TransportSettings, last: Attempt): T | LifelineRefusal {
  const tries = settings.attempts === 1 ? '1 attempt' : `${settings.attempts} attempts`;
  if (last.kind === 'timeout') {
    return refusal(
      'timeout',
      `The service at ${settings.url} did not answer within ${settings.timeoutMs} ms (${tries}): try again ` +
        `later, or raise timeoutMs.`,
    );
  }
  if (last.kind === 'network') {
    return refusal(
      'network_error',
      `Could not reach the service at ${settings.url} (${tries}: ${last.cause}): check the url option and the network.`,
    );
  }
  return answer<T>(settings, last.status, last.text, last.headers);
}

/** An HTTP answer -> the success as sent, or a refusal carrying the route's own code and sentence. */
function answer<T>(
  settings: Pick<TransportSettings, 'url'>,
  status: number,
  text: string,
  headers: FetchResponseLike['headers'],
): T | LifelineRefusal {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return refusal(
      'invalid_response',
      `The service answered HTTP ${status} with a body that is not a JSON object: check that the url option (${settings.url}) is a Lifeline service.`,
      status,
    );
  }
  const body = parsed as Record<string, unknown>;
  if (body.ok === true && status >= 200 && status < 300) return body as T;
  const retryAfter = status === 429 ? parseRetryAfter(headers.get('retry-after')) : undefined;
  const extra = retryAfter === undefined ? body : { ...body, retryAfter };
  if (body.ok !== false || typeof body.error !== 'string' || body.error === '') {
    const code = status >= 500 ? 'server_error' : 'invalid_response';
    return refusal(
      code,
      `The service answered HTTP ${status} without a code saying why: check that the url option (${settings.url}) is a Lifeline service.`,
      status,
      extra,
    );
  }
  const message =
    typeof body.message === 'string' && body.message.trim() !== ''
      ? body.message
      : `The service refused this with the code ${body.error} (HTTP ${status}) and gave no sentence; look up ` +
        `${body.error} in the service's list of errors.`;
  return refusal(body.error, message, status, extra);
}

/** Retry-After in seconds (a number of seconds, or an HTTP date); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    const detail = cause instanceof Error ? `: ${cause.message}` : '';
    return `${error.message}${detail}`;
  }
  return String(error);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
