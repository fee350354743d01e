// A bound on the requests one api process answers at once (MAX_REQUESTS_IN_FLIGHT).
// Past it a request is refused at once, 503 unavailable with Retry-After, before any of it is read or
// parsed: when the database stalls, requests stop piling up with the arrival rate, each holding its
// body and a place in the pool's queue. The liveness check is never refused: a full process is alive.
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import { busyRefusal } from '@app/platform';
import { refusalAnswer } from './exceptions.filter';

export interface InFlightLimit {
  /** Requests being answered now. */
  readonly current: number;
  /** Requests refused for the bound since the process started. */
  readonly refused: number;
}

/** Puts the bound in front of every request listener the server has (install it last). */
export function installInFlightLimit(server: Server, max: number): InFlightLimit {
  const listeners = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  const state = { current: 0, refused: 0 };
  const { status, headers, body } = refusalAnswer(busyRefusal());
  const text = JSON.stringify(body);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (state.current >= max && req.url !== '/health/live') {
      state.refused++;
      res
        .writeHead(status, {
          ...headers,
          'Content-Type': 'application/json; charset=utf-8',
          'Content-Length': Buffer.byteLength(text),
        })
        .end(text);
      return;
    }
    state.current++;
    res.once('close', () => state.current--);
    for (const listener of listeners) listener.call(server, req, res);
  });
  return state;
}
