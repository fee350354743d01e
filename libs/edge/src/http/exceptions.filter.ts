// One envelope for every refusal (docs/rest.md#answers-and-refusals): {ok:false, error, message}. The
// database or Redis being away answers 503 unavailable with Retry-After, counted against the outage and
// not logged; anything else unexpected answers 500 server_error. Writes happen in transactions, so
// nothing was changed.
import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { GqlContextType } from '@nestjs/graphql';
import type { Response } from 'express';
import { GraphQLError } from 'graphql';
import { Refusal, unavailableRefusal } from '@app/platform';

const SERVER_ERROR = 'The service could not finish; nothing was changed; send it again.';

export function refusalFromHttpException(exception: HttpException): Refusal {
  const status = exception.getStatus();
  if (status === 404)
    return new Refusal(
      'not_found',
      'No such address: check the method and path (key-authenticated endpoints live under /api/v1).',
    );
  if (status === 413) return new Refusal('too_large', 'The body is too large: send less.');
  if (status === 405) return new Refusal('method_not_allowed', 'That method is not allowed here.');
  if (status === 401) return new Refusal('invalid_key', 'Send a valid key.');
  if (status === 403) return new Refusal('forbidden', 'Your role does not allow this: ask a workspace owner or admin.');
  if (status === 400)
    return new Refusal(
      'invalid_field',
      String((exception.getResponse() as { message?: unknown })?.message ?? exception.message),
    );
  return new Refusal('server_error', SERVER_ERROR);
}

/** A refusal as an answer: its status, its headers (Retry-After and any the refusal carries) and the envelope. */
export function refusalAnswer(refusal: Refusal): {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
} {
  const headers: Record<string, string> = {};
  const retryAfter = refusal.extra.retryAfter;
  if (typeof retryAfter === 'number') headers['Retry-After'] = String(retryAfter);
  Object.assign(headers, (refusal.extra.headers as Record<string, string> | undefined) ?? {});
  const body = refusal.toBody();
  delete body.retryAfter;
  delete body.headers;
  return { status: refusal.status, headers, body };
}

export function sendRefusal(response: Response, refusal: Refusal): void {
  const { status, headers, body } = refusalAnswer(refusal);
  for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
  response.status(status).json(body);
}

/** What any exception answers: a Refusal as itself, Nest's HTTP exceptions by status, anything else 500 (logged). */
export function refusalOf(exception: unknown, logger: Pick<Logger, 'error'>): Refusal {
  if (exception instanceof Refusal) return exception;
  if (exception instanceof HttpException) return refusalFromHttpException(exception);
  const unavailable = unavailableRefusal(exception);
  if (unavailable) return unavailable;
  // 57014: PostgreSQL cancelled the statement (a GraphQL read over its statement timeout).
  if ((exception as { driverError?: { code?: string } })?.driverError?.code === '57014') {
    return new Refusal(
      'server_error',
      'The read took too long and was stopped; nothing was changed: ask for smaller pages or a shorter period.',
    );
  }
  logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
  return new Refusal('server_error', SERVER_ERROR);
}

@Catch()
export class ExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Exceptions');

  catch(exception: unknown, host: ArgumentsHost) {
    const refusal = refusalOf(exception, this.logger);
    if (host.getType<GqlContextType>() === 'graphql') {
      return new GraphQLError(refusal.message, { extensions: { code: refusal.code, status: refusal.status } });
    }
    sendRefusal(host.switchToHttp().getResponse<Response>(), refusal);
  }
}
