import { LoggerModule } from 'nestjs-pino';
import type { AppConfig } from '../config/config';

/** Structured JSON logs; request bodies and keys are never logged. */
export function loggerModule(config: AppConfig, name: string) {
  return LoggerModule.forRoot({
    pinoHttp: {
      name,
      level: config.logLevel,
      autoLogging: config.nodeEnv !== 'test',
      redact: ['req.headers.authorization', 'req.headers.cookie'],
      serializers: { req: (req: { method: string; url: string }) => ({ method: req.method, url: req.url.replace(/\/api\/in\/wk_[^/]+/, '/api/in/wk_…') }) },
    },
  });
}
