// Operator visibility: the api's HTTP figures. Requests and event items are counted here, at
// the HTTP edge, from the status and the answer's envelope, so no door's code has to remember to count;
// the gauges of each lib's backlog sit in the same registry (platform's MetricsRegistry).
//
// Per-request context for logs and metrics: a request id (the caller's X-Request-Id when it
// is a sane token, else a new one, always answered as X-Request-Id) and the refusal code of the answer,
// seen where the envelope is written so every door and the exception filter are covered alike.
import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import { MetricsRegistry } from '@app/platform';
import { Doors, type EventItemDoor } from '../http/door/door';

const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The refusal code of a JSON answer ({ok:false, error}), or undefined. */
export function refusalCodeOf(body: unknown): string | undefined {
  if (body && typeof body === 'object' && (body as { ok?: unknown }).ok === false) {
    const code = (body as { error?: unknown }).error;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/** The caller's X-Request-Id when it is a sane token, else a new one. */
export function requestIdOf(given: string | string[] | undefined): string {
  return typeof given === 'string' && SANE_ID.test(given) ? given : randomUUID();
}

export function requestContext(req: Request, res: Response, next: NextFunction): void {
  const id = requestIdOf(req.headers['x-request-id']);
  (req as Request & { id?: string }).id = id;
  res.setHeader('X-Request-Id', id);
  const json = res.json.bind(res);
  res.json = (body: unknown) => {
    const code = refusalCodeOf(body);
    if (code) res.locals.refusal = code;
    res.locals.answer = body; // for the metrics' count of event items (Metrics.middleware)
    return json(body);
  };
  next();
}

/** Which door's event items an answer holds: a POST to a route whose door declares `eventItems`. */
export function ingestDoor(
  method: string,
  route: string | undefined,
  eventItemRoutes: ReadonlyMap<string, EventItemDoor>,
): EventItemDoor | null {
  if (method !== 'POST' || !route) return null;
  return eventItemRoutes.get(route) ?? null;
}

/** Outcome of each item of an ingest answer: 'accepted' or the refusal code. */
export function itemOutcomes(status: number, body: unknown): string[] {
  const answer = (body ?? {}) as { ok?: unknown; error?: unknown; results?: Array<{ ok?: unknown; error?: unknown }> };
  if (Array.isArray(answer.results))
    return answer.results.map((r) => (r.ok === false && typeof r.error === 'string' ? r.error : 'accepted'));
  if (answer.ok === false && typeof answer.error === 'string') return [answer.error];
  return [status < 400 ? 'accepted' : 'server_error'];
}

@Injectable()
export class Metrics {
  private readonly registry: Registry;
  private readonly requests: Counter;
  private readonly events: Counter;
  private readonly ingestSeconds: Histogram;
  private eventItemRoutes?: ReadonlyMap<string, EventItemDoor>;

  constructor(
    metrics: MetricsRegistry,
    private readonly doors: Doors,
  ) {
    this.registry = metrics.registry;
    collectDefaultMetrics({ register: this.registry, prefix: 'lifeline_api_' });
    const registers = [this.registry];
    this.requests = new Counter({
      name: 'lifeline_http_requests_total',
      help: 'HTTP requests answered, by route, status and refusal code',
      labelNames: ['method', 'route', 'status', 'code'],
      registers,
    });
    this.events = new Counter({
      name: 'lifeline_events_total',
      help: 'Event items posted, by door and outcome (accepted or the refusal code)',
      labelNames: ['door', 'outcome'],
      registers,
    });
    this.ingestSeconds = new Histogram({
      name: 'lifeline_ingest_duration_seconds',
      help: 'Time to answer an ingest post, by door',
      labelNames: ['door'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    });
  }

  /** The text a scrape answers. */
  scrape(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** Express middleware: counts each answer when it has been sent. */
  readonly middleware = (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    res.on('finish', () =>
      this.record(
        req.method,
        req.route?.path as string | undefined,
        res.statusCode,
        res.locals.refusal,
        started,
        res.locals.answer,
      ),
    );
    next();
  };

  /** One answer: the request count, and for the ingest doors its time and each item's outcome. */
  record(
    method: string,
    route: string | undefined,
    status: number,
    refusal: string | undefined,
    started: bigint,
    answer: unknown,
  ): void {
    this.requests.inc({ method, route: route ?? 'unmatched', status: String(status), code: refusal ?? '' });
    this.eventItemRoutes ??= this.doors.eventItemRoutes(); // every door is open once the app serves
    const door = ingestDoor(method, route, this.eventItemRoutes);
    if (!door) return;
    this.ingestSeconds.observe({ door }, Number(process.hrtime.bigint() - started) / 1e9);
    for (const outcome of itemOutcomes(status, answer)) this.events.inc({ door, outcome });
  }
}
