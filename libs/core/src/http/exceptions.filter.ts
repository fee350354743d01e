// One envelope for every refusal (decisions.md section 3): {ok:false, error, message}. Anything
// unexpected answers 500 server_error; writes happen in transactions, so nothing was changed.
import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { GqlContextType } from '@nestjs/graphql';
import type { Response } from 'express';
import { GraphQLError } from 'graphql';
import { Refusal } from '../errors/refusal';

const SERVER_ERROR = 'The service could not finish; nothing was changed; send it again.';

export function refusalFromHttpException(exception: HttpException): Refusal {
  const status = exception.getStatus();
  if (status === 404) return new Refusal('not_found', 'No such address: check the method and path (key-authenticated endpoints live under /api/v1).');
  if (status === 413) return new Refusal('too_large', 'The body is too large: send less.');
  if (status === 405) return new Refusal('method_not_allowed', 'That method is not allowed here.');
  if (status === 401) return new Refusal('invalid_key', 'Send a valid key.');
  if (status === 403) return new Refusal('forbidden', 'Your role does not allow this: ask a workspace owner or admin.');
  if (status === 400) return new Refusal('invalid_field', String((exception.getResponse() as { message?: unknown })?.message ?? exception.message));
  return new Refusal('server_error', SERVER_ERROR);
}

export function sendRefusal(response: Response, refusal: Refusal): void {
  const retryAfter = refusal.extra.retryAfter;
  if (typeof retryAfter === 'number') response.setHeader('Retry-After', String(retryAfter));
  const headers = refusal.extra.headers as Record<string, string> | undefined;
  for (const [name, value] of Object.entries(headers ?? {})) response.setHeader(name, value);
  const body = refusal.toBody();
  delete body.retryAfter;
  delete body.headers;
  response.status(refusal.status).json(body);
}

@Catch()
export class ExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Exceptions');

  catch(exception: unknown, host: ArgumentsHost) {
    const refusal = this.toRefusal(exception);
    if (host.getType<GqlContextType>() === 'graphql') {
      return new GraphQLError(refusal.message, { extensions: { code: refusal.code, status: refusal.status } });
    }
    sendRefusal(host.switchToHttp().getResponse<Response>(), refusal);
  }

  private toRefusal(exception: unknown): Refusal {
    if (exception instanceof Refusal) return exception;
    if (exception instanceof HttpException) return refusalFromHttpException(exception);
    this.logger.error(exception instanceof Error ? exception.stack ?? exception.message : String(exception));
    return new Refusal('server_error', SERVER_ERROR);
  }
}
