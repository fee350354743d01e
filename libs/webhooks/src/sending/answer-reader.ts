// docs/webhooks.md#delivery-retries-and-the-log (attempt time, success, failure): how one post's answer is
// read. What an attempt keeps of an answer is its status and the first 500 characters of its body, so the
// post goes to undici's dispatch with this handler rather than through request(): no response stream, no
// parsed headers, no async resource per post (request()'s stream machinery was a tenth of the worker's CPU
// in a burst of deliveries). Redirects are not followed (dispatch never follows them).
import type { Dispatcher } from 'undici';

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

const EXCERPT_CHARS = 500;
// 500 characters take at most 2,000 UTF-8 bytes; past 64 KB the rest is not worth reading.
const EXCERPT_BYTES = EXCERPT_CHARS * 4;
const MAX_READ_BYTES = 64 * 1024;

/**
 * Reads one answer: its status, then its body up to MAX_READ_BYTES (past that the socket is given up:
 * a huge answer costs the socket, not the memory); `finish` is called once, with the outcome. The
 * attempt's time limit (connect, headers and body together) is a timer of its own; undici's own
 * timers, given the same bound, may end the post first.
 */
export class AnswerReader implements Dispatcher.DispatchHandler {
  private status: number | undefined;
  private readonly kept: Buffer[] = [];
  private keptBytes = 0;
  private seenBytes = 0;
  private abortPost: ((err?: Error) => void) | null = null;
  private late = false;
  private finished = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly timeoutMs: number,
    private readonly started: number,
    private readonly finish: (outcome: PostOutcome) => void,
  ) {
    this.timer = setTimeout(() => {
      this.late = true;
      this.abortPost?.(this.lateError());
    }, timeoutMs);
  }

  onConnect(abort: (err?: Error) => void): void {
    // A post still waiting for a socket when its time ran out is aborted as soon as it gets one.
    if (this.late) abort(this.lateError());
    else this.abortPost = abort;
  }

  onHeaders(statusCode: number): boolean {
    if (statusCode >= 200) this.status = statusCode; // 1xx answers are informational: the real one follows
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.seenBytes += chunk.length;
    if (this.keptBytes < EXCERPT_BYTES) {
      this.kept.push(chunk);
      this.keptBytes += chunk.length;
    }
    if (this.seenBytes <= MAX_READ_BYTES) return true;
    this.answered();
    this.abortPost?.();
    return false;
  }

  onComplete(): void {
    this.answered();
  }

  onError(err: Error): void {
    if (this.finished) return;
    const late = this.late || /^UND_ERR_(HEADERS|BODY)_TIMEOUT$/.test((err as { code?: string }).code ?? '');
    const error = late ? this.lateError().message : describe(err);
    this.end({
      ok: false,
      ...(this.status === undefined ? {} : { status: this.status }),
      durationMs: this.elapsed(),
      error,
    });
  }

  private answered(): void {
    if (this.finished) return;
    const status = this.status!;
    this.end({
      ok: status >= 200 && status < 300,
      status,
      bodyExcerpt: excerpt(this.kept),
      durationMs: this.elapsed(),
    });
  }

  private end(outcome: PostOutcome): void {
    this.finished = true;
    clearTimeout(this.timer);
    this.finish(outcome);
  }

  private elapsed(): number {
    return Math.round(performance.now() - this.started);
  }

  private lateError(): Error {
    return new Error(`No complete answer within ${this.timeoutMs} ms.`);
  }
}

function excerpt(chunks: Buffer[]): string {
  const text = (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks))
    .subarray(0, EXCERPT_BYTES)
    .toString('utf8')
    .slice(0, EXCERPT_CHARS);
  // Do not end on half of a surrogate pair.
  return /[\uD800-\uDBFF]$/.test(text) ? text.slice(0, -1) : text;
}

/** The transport error in a sentence (a refused address says which address and why). */
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
