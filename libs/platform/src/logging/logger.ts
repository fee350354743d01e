import { RequestMethod, type LoggerService } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Logger, LoggerModule, PinoLogger } from 'nestjs-pino';
import pinoPretty from 'pino-pretty';
import type { AppConfig } from '../config/config';

/** A person's record id (per_ and a ULID), the only way a log line names a person. */
const RECORD_ID = /^per_[0-9A-Za-z]{1,40}$/;

/**
 * A request's url as logs may show it: without the public key of a website door, without the
 * signature of an automation's start address (the address never appears in a log), and naming a person
 * under /api/v1/people/{who} by record id only: an email there (or anything but a record id) reads as
 * `record`, the record the route found (PERSON_LOGGED_AS), else `…` (docs/security.md#a-persons-data-on-request).
 */
export function loggedUrl(url: string, record?: string): string {
  return url
    .replace(/\/api\/in\/wk_[^/?]+/, '/api/in/wk_…')
    .replace(/(\/api\/webhooks\/automation\/[^/?]*?)\.[^/?]*/, '$1.…')
    .replace(/^(\/api\/v1\/people\/)([^/?]*)/, (whole, people: string, who: string) =>
      RECORD_ID.test(who) ? whole : `${people}${record && RECORD_ID.test(record) ? record : '…'}`,
    );
}

/** Where a route that found a person by email puts their record id (res.locals), for its request line to name. */
export const PERSON_LOGGED_AS = 'loggedPerson';

type Res = ServerResponse & { locals?: { refusal?: string; [PERSON_LOGGED_AS]?: string } };

/** The url a request's line shows; the answer `res`, once known, names the person a route found. */
const path = (req: IncomingMessage, res?: Res) =>
  loggedUrl(req.url ?? '', res?.locals?.[PERSON_LOGGED_AS]).split('?')[0];

const requestLine = (req: IncomingMessage, res: Res, responseTime: number) =>
  `${req.method} ${path(req, res)} ${res.statusCode}${res.locals?.refusal ? ` ${res.locals.refusal}` : ''} ` +
  `${Math.round(responseTime)} ms`;
const failedLine = (req: IncomingMessage, res: Res) => `${req.method} ${path(req, res)} ${res.statusCode} failed`;

/** One line per request, except under tests. */
export const writesRequestLines = (config: AppConfig): boolean => config.nodeEnv !== 'test';

/**
 * A hot door's request line (http/door/hot-door.ts), as the request logger writes the others: the same
 * fields and sentence, at info, or at error for a 500.
 */
export function logRequestLine(req: IncomingMessage & { id?: string }, res: Res, responseTime: number): void {
  const logger = PinoLogger.root;
  if (!logger?.isLevelEnabled(res.statusCode >= 500 ? 'error' : 'info')) return;
  // The request and answer themselves: the request logger's serializers (req above, pino's res) shape them alike.
  const line = { req, res, responseTime, ...(res.locals?.refusal ? { refusal: res.locals.refusal } : {}) };
  if (res.statusCode >= 500) logger.error(line, failedLine(req, res));
  else logger.info(line, requestLine(req, res, responseTime));
}

/**
 * Logs through pino: one JSON line per entry in production (and tests), human lines through
 * pino-pretty in development. Each request's line carries its id and, for a refusal, the code.
 * Request bodies and keys are never logged.
 */
export function loggerModule(config: AppConfig, name: string) {
  const pretty = config.nodeEnv === 'development';
  const options = {
    name,
    level: config.logLevel,
    autoLogging: writesRequestLines(config),
    redact: ['req.headers.authorization', 'req.headers.cookie'],
    serializers: {
      req: (req: { id?: string; method: string; url: string }) => ({
        id: req.id,
        method: req.method,
        url: path(req as unknown as IncomingMessage),
      }),
    },
    customSuccessObject: (_req: IncomingMessage, res: Res, value: Record<string, unknown>) =>
      res.locals?.refusal ? { ...value, refusal: res.locals.refusal } : value,
    customSuccessMessage: requestLine,
    customErrorMessage: failedLine,
  };
  const stream = pretty
    ? pinoPretty({
        sync: true,
        colorize: process.stdout.isTTY,
        translateTime: 'SYS:HH:MM:ss',
        ignore: 'pid,hostname,req,res,responseTime,context,refusal',
        singleLine: false,
      })
    : undefined;
  // Request lines are written at info; when the level hides them, the hot doors skip the
  // request logger altogether (its per-request child logger and hooks cost more than the rest of the log).
  const exclude = requestLinesHidden(config.logLevel) ? HOT_DOORS : [];
  return LoggerModule.forRoot({ pinoHttp: stream ? [options, stream] : options, exclude });
}

/** The routes that take posts at volume: the events endpoint and the public website doors. */
const HOT_DOORS = [
  { path: 'api/v1/events', method: RequestMethod.POST },
  { path: 'api/in/:publicKey/:action', method: RequestMethod.POST },
];

const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

/** Whether a level hides the info lines the request logger writes. */
export function requestLinesHidden(level: string): boolean {
  return LEVELS.indexOf(level) > LEVELS.indexOf('info');
}

/** Nest's own start-up chatter (every module and route, one line each) below debug; the rest as is. */
const START_UP_CONTEXTS = new Set([
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestFactory',
  'NestApplication',
  'GraphQLModule',
]);

export class QuietNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...rest: unknown[]) {
    if (START_UP_CONTEXTS.has(String(rest[rest.length - 1]))) return this.logger.debug(message, ...rest);
    this.logger.log(message, ...rest);
  }
  error(message: unknown, ...rest: unknown[]) {
    this.logger.error(message, ...rest);
  }
  warn(message: unknown, ...rest: unknown[]) {
    this.logger.warn(message, ...rest);
  }
  debug(message: unknown, ...rest: unknown[]) {
    this.logger.debug(message, ...rest);
  }
  verbose(message: unknown, ...rest: unknown[]) {
    this.logger.verbose(message, ...rest);
  }
}
