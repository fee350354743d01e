import { Controller, Get, Inject, Module, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { AppConfig } from '@app/platform';
import { CONFIG, Refusal, sameSecret } from '@app/platform';
import { Reference } from '../http/door/reference';
import { sendRefusal } from '../http/exceptions.filter';
import { Metrics } from './metrics';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * Who may read /metrics: with ADMIN_TOKEN set, a caller sending it as a bearer token; without it, only
 * callers on this machine (the socket's address, never X-Forwarded-For), e.g. a Prometheus sidecar.
 */
export function metricsAllowed(
  config: Pick<AppConfig, 'adminToken'>,
  authorization: string | undefined,
  remoteAddress: string | undefined,
): boolean {
  if (config.adminToken) return sameSecret(authorization ?? '', `Bearer ${config.adminToken}`);
  return LOOPBACK.has(remoteAddress ?? '');
}

@Controller()
export class MetricsController {
  constructor(
    private readonly metrics: Metrics,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('metrics')
  @Reference({
    operationId: 'getMetrics',
    summary: "The api's figures, for Prometheus",
    description:
      'Event items accepted and refused by code, ingest latency, outbox backlog and age, deliveries by state, ' +
      'queue depths, api and worker memory. ' +
      ("With ADMIN_TOKEN set, send it as a bearer token; without it, only callers on the service's own machine " +
        'may read it (never through a proxy header).'),
    tag: 'metrics',
    caller: 'operator',
    answers: {
      200: { description: 'The Prometheus text format.', mediaType: 'text/plain', schema: { type: 'string' } },
    },
    refuses: ['invalid_key', 'forbidden'],
    examples: {
      invalid_key: '/metrics is for operators: send ADMIN_TOKEN as "Authorization: Bearer …".',
      forbidden: '/metrics is for operators: without ADMIN_TOKEN set, only this machine may read it.',
    },
  })
  async scrape(@Req() req: Request, @Res() res: Response) {
    if (!metricsAllowed(this.config, req.headers.authorization, req.socket.remoteAddress)) {
      const why = this.config.adminToken
        ? 'send ADMIN_TOKEN as "Authorization: Bearer …".'
        : 'without ADMIN_TOKEN set, only this machine may read it.';
      return sendRefusal(
        res,
        new Refusal(this.config.adminToken ? 'invalid_key' : 'forbidden', `/metrics is for operators: ${why}`),
      );
    }
    res.set('Content-Type', this.metrics.contentType).send(await this.metrics.scrape());
  }
}

/** /metrics of the api (the worker's own figures reach it through its heartbeat). */
@Module({ controllers: [MetricsController], providers: [Metrics], exports: [Metrics] })
export class ObservabilityModule {}
