import { LoggerModule } from 'nestjs-pino';
import type { AppConfig } from '../config/config';

/**
 * A request's url as logs may show it: without the public key of a website door and without the
 * signature of an automation's start address (interface.md: the address never appears in a log).
 */
export function loggedUrl(url: string): string {
  return url.replace(/\/api\/in\/wk_[^/?]+/, '/api/in/wk_…').replace(/(\/api\/webhooks\/automation\/[^/?]*?)\.[^/?]*/, '$1.…');
}

/** Structured JSON logs; request bodies and keys are never logged. */
export function loggerModule(config: AppConfig, name: string) {
  return LoggerModule.forRoot({
    pinoHttp: {
      name,
      level: config.logLevel,
      autoLogging: config.nodeEnv !== 'test',
      redact: ['req.headers.authorization', 'req.headers.cookie'],
      serializers: { req: (req: { method: string; url: string }) => ({ method: req.method, url: loggedUrl(req.url) }) },
    },
  });
}
