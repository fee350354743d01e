import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import {
  answerClientErrorsInEnvelope,
  Doors,
  ExceptionsFilter,
  HotDoors,
  installBodyParsers,
  installInFlightLimit,
  refuseOriginsThatAreNot,
  Metrics,
  requestContext,
} from '@app/edge';
import { AppConfig, QuietNestLogger } from '@app/platform';
import { installAccess } from '@app/access';
import { ApiModule } from './api.module';
import { installOpenApi } from './openapi';
import { installConsole } from './console/console-files';
import { installApiDocs } from './explorer/api-docs';
import { installExplorerHeaders } from './explorer/explorer';

/** Builds the api application (used by main.ts and by the end-to-end tests). */
export async function createApi(config: AppConfig): Promise<INestApplication> {
  const app = await NestFactory.create<NestExpressApplication>(ApiModule.forRoot(config), {
    bodyParser: false,
    bufferLogs: true,
  });
  app.useLogger(new QuietNestLogger(app.get(Logger)));
  app.disable('x-powered-by');
  // One proxy in front: the client IP is the entry that proxy added, never one the client wrote itself.
  app.set('trust proxy', config.trustProxy ? 1 : false);
  app.set('etag', false);
  app.use(requestContext);
  app.use(app.get(Metrics).middleware);
  app.use(refuseOriginsThatAreNot);
  // Every controller has been made, so every door is open: each reads its body at its own limit.
  installBodyParsers(app, app.get(Doors).all);
  installAccess(app);
  installConsole(app, config.consoleDir);
  installExplorerHeaders(app, '/graphql');
  answerClientErrorsInEnvelope(app.getHttpServer());
  app.useGlobalFilters(new ExceptionsFilter());
  installOpenApi(app, config);
  installApiDocs(app, { explorer: config.nodeEnv !== 'production' });
  app.get(HotDoors).install(app.getHttpServer());
  installInFlightLimit(app.getHttpServer(), config.maxRequestsInFlight);
  return app;
}
