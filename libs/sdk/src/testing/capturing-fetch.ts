// A fetch for the client's specs: records every call and answers from a script, one reply per call
// (the last reply repeats). 'hang' never answers, and fails only when the client aborts it.
import type { FetchLike } from '../types.js';

export type Reply =
  | { status: number; body?: unknown; text?: string; headers?: Record<string, string>; hangBody?: boolean }
  | Error
  | 'hang';

export interface Call {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
  signal?: AbortSignal;
}

export function capturingFetch(...replies: Reply[]): { fetch: FetchLike; calls: Call[] } {
  const calls: Call[] = [];
  const never = (signal?: AbortSignal) =>
    new Promise<never>((_, reject) =>
      signal?.addEventListener('abort', () => reject(new Error('The operation was aborted.'))),
    );
  const fetch: FetchLike = async (url, init) => {
    calls.push({
      url,
      method: init.method,
      headers: init.headers,
      body: init.body === undefined ? undefined : JSON.parse(init.body),
      signal: init.signal,
    });
    const reply = replies[Math.min(calls.length - 1, replies.length - 1)];
    if (reply instanceof Error) throw reply;
    if (reply === 'hang') return never(init.signal);
    return {
      status: reply.status,
      headers: new Headers(reply.headers ?? { 'content-type': 'application/json' }),
      text: () => (reply.hangBody ? never(init.signal) : Promise.resolve(reply.text ?? JSON.stringify(reply.body))),
    };
  };
  return { fetch, calls };
}
