// The hot doors. A post to a door declared hot (door.ts: POST /api/v1/events, which takes
// events at volume) is answered here, before Express and Nest: no router, no per-request middleware
// stack, guards, interceptors or rxjs. It runs the same steps as the door's Nest route, each through the
// code the Express path uses: the request id, the door's body limit and the JSON parse
// (body-parsers.ts), the hostile-input check, the door itself (OpenDoor.answer: authentication, rate
// limit, parse, handler, heartbeat, batch answers), the refusal envelope (exceptions.filter.ts), the
// metrics and the request line. Anything unusual in the request (a query string, Content-Encoding, a
// charset, no Content-Length or one over the limit, an Origin that is not an origin: origin-header.ts) goes
// to Express as before, which answers it exactly as it always has. Which doors are hot, and everything
// about them, is settled when the server is installed: a post costs one Map look-up by its path. The hot
// doors run in no async context, so only the requests Express answers hold them (contextsAtRest: at rest,
// Node's promise hooks are off).
import { Global, Inject, Injectable, Logger, Module } from '@nestjs/common';
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { AppConfig } from '@app/platform';
import { CONFIG, contextsAtRest, Refusal, logRequestLine, writesRequestLines } from '@app/platform';
import { Metrics, refusalCodeOf, requestIdOf } from '../../observability/metrics';
import { ObservabilityModule } from '../../observability/observability.module';
import { invalidJsonRefusal } from '../body-parsers';
import { refusalAnswer, refusalOf } from '../exceptions.filter';
import { hostileJsonRefusal } from '../posted-input';
import { originHeaderReadable } from '../origin-header';
import { DoorAnswer, DoorRequest, Doors, OpenDoor } from './door';

type HotRequest = IncomingMessage & { id?: string; body?: unknown; auth?: DoorRequest['auth'] };
type HotResponse = ServerResponse & { locals: { refusal?: string } };

const JSON_TYPE = 'application/json; charset=utf-8';

@Injectable()
export class HotDoors {
  private readonly logger = new Logger('Exceptions');
  private readonly routes = new Map<string, OpenDoor>();
  private readonly requestLines: boolean;
  /** Posts the hot doors answered (Express answered the rest): tests read it to know which path ran. */
  answered = 0;

  constructor(
    private readonly doors: Doors,
    private readonly metrics: Metrics,
    @Inject(CONFIG) config: AppConfig,
  ) {
    this.requestLines = writesRequestLines(config);
  }

  /**
   * Puts the hot doors (those opened so far: every controller has been made) in front of the server's request listener
   * (Express).
   */
  install(server: Server): void {
    for (const door of this.doors.all) if (door.hot) this.routes.set(door.path, door);
    const listeners = server.listeners('request') as RequestListener[];
    if (listeners.length === 0) throw new Error('HotDoors.install: the server has no request listener yet');
    server.removeAllListeners('request');
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      if (this.take(req, res)) return;
      // Express's requests run in async contexts (the request logger's, GraphQL's read scope): held until the answer
      // closes.
      res.once('close', contextsAtRest.hold());
      for (const listener of listeners) listener.call(server, req, res);
    });
  }

  /** Whether a hot door answers this request; when not, Express does. */
  private take(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'POST') return false;
    const route = this.routes.get(req.url ?? '');
    if (!route) return false;
    const headers = req.headers;
    if (headers['content-encoding'] !== undefined || headers['transfer-encoding'] !== undefined) return false;
    if (!originHeaderReadable(headers.origin)) return false;
    const type = headers['content-type'];
    if (type !== undefined && /charset/i.test(type)) return false;
    const length = Number(headers['content-length'] ?? NaN);
    if (!(length >= 0 && length <= route.bodyLimit)) return false;
    this.answered++;
    this.serve(route, req as HotRequest, res as HotResponse, length).catch((error) => {
      // Only a fault of the answer's own writing lands here (everything else is answered as a refusal); logged by
      // refusalOf.
      if (!res.headersSent)
        res
          .writeHead(500, { 'Content-Type': JSON_TYPE })
          .end(JSON.stringify(refusalAnswer(refusalOf(error, this.logger)).body));
      else res.destroy();
    });
    return true;
  }

  private async serve(route: OpenDoor, req: HotRequest, res: HotResponse, length: number): Promise<void> {
    const started = process.hrtime.bigint();
    req.id = requestIdOf(req.headers['x-request-id']);
    res.locals = {};
    const text = await readBody(req, length);
    if (text === null) return; // the client went away
    await afterIo();
    let answer: DoorAnswer & { headers?: Record<string, string> };
    try {
      answer = await this.answer(route, req, res, text);
    } catch (error) {
      answer = refusalAnswer(refusalOf(error, this.logger));
    }
    const status = answer.status;
    const body = JSON.stringify(answer.body);
    res.locals.refusal = refusalCodeOf(answer.body);
    res.writeHead(status, {
      ...answer.headers,
      'X-Request-Id': req.id,
      'Content-Type': JSON_TYPE,
      'Content-Length': Buffer.byteLength(body),
    });
    res.end(body);
    this.metrics.record('POST', route.path, status, res.locals.refusal, started, answer.body);
    if (this.requestLines) logRequestLine(req, res, Number(process.hrtime.bigint() - started) / 1e6);
  }

  private answer(route: OpenDoor, req: HotRequest, res: HotResponse, text: string): Promise<DoorAnswer> {
    req.body = parseJson(text);
    if (req.body instanceof Refusal) throw req.body;
    const hostile = hostileJsonRefusal(req.body);
    if (hostile) throw hostile;
    return route.answer(req as unknown as DoorRequest, res);
  }
}

/** The whole body as UTF-8 text (Node's HTTP parser holds it to Content-Length), or null when the client left. */
function readBody(req: IncomingMessage, length: number): Promise<string | null> {
  return new Promise((resolve) => {
    if (length === 0) {
      req.resume();
      return req.once('end', () => resolve(''));
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.once('end', () => resolve((chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)).toString('utf8')));
    req.once('error', () => resolve(null));
    req.once('aborted', () => resolve(null));
  });
}

/**
 * Resolves in the event loop's check phase, after the I/O callbacks of its poll phase. A post's work
 * (parse, key, limit, the door) waits there, so the database's answers read in the same poll phase
 * carry their transactions on first: a shared transaction's next statement goes out before, not after,
 * the work of every post that arrived beside its answer (single events wait less for the transaction
 * they share).
 */
function afterIo(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** As express.json({ strict: false }) reads it: an empty body is {}, a byte-order mark is dropped. */
function parseJson(text: string): unknown {
  if (text.length === 0) return {};
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    return invalidJsonRefusal();
  }
}

/** The api's hot doors (the worker has none): the doors declared hot, taken from Doors at install. */
@Global()
@Module({ imports: [ObservabilityModule], providers: [HotDoors], exports: [HotDoors] })
export class HotDoorsModule {}
