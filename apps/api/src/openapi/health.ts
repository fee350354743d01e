// The references of platform's health routes (libs/platform/src/health/health.controller.ts).
// Written here, not beside the routes: platform sits below edge, whose Reference the other routes use.
import type { RouteReference } from '@app/edge';

const STATE = { type: 'string', enum: ['up', 'down'] };

/** An answer of a health route: ok, and each check's state; down, the code and the sentence too. */
function answer(checks: string[], down?: string) {
  const failure = down
    ? { error: { type: 'string', const: down }, message: { type: 'string', description: 'What is down, and the fix.' } }
    : {};
  return {
    type: 'object',
    required: ['ok', ...Object.keys(failure), ...checks],
    properties: {
      ok: { type: 'boolean', const: !down },
      ...failure,
      ...Object.fromEntries(checks.map((name) => [name, STATE])),
    },
  };
}

const health = (reference: Omit<RouteReference, 'tag' | 'caller' | 'refuses'>): RouteReference => ({
  ...reference,
  tag: 'health',
  caller: 'anyone',
  refuses: [],
});

export const HEALTH_ROUTES: Record<string, RouteReference> = {
  'GET /health': health({
    operationId: 'getHealth',
    summary: 'Whether the database and Redis answer',
    description: '200 when PostgreSQL and Redis both answer within a second; 503 naming the one that does not.',
    answers: {
      200: { description: 'Both answer.', schema: answer(['database', 'redis']) },
      503: {
        description: 'unhealthy: one of them does not answer.',
        schema: answer(['database', 'redis'], 'unhealthy'),
        example: {
          ok: false,
          error: 'unhealthy',
          message: 'database up, redis down: start the one that is down.',
          database: 'up',
          redis: 'down',
        },
      },
    },
  }),
  'GET /health/live': health({
    operationId: 'getLiveness',
    summary: 'Whether the process answers',
    description:
      "Liveness (the image's health check): it checks nothing else, so a supervisor restarts only a process " +
      'that no longer answers.',
    answers: { 200: { description: 'The process answers.', schema: answer([]) } },
  }),
  'GET /health/ready': health({
    operationId: 'getReadiness',
    summary: 'Whether the api can serve',
    description:
      'Readiness: the database and Redis answer, every migration has run, and a worker beats; 503 naming what is down.',
    answers: {
      200: { description: 'Ready.', schema: answer(['database', 'redis', 'migrations', 'worker']) },
      503: {
        description: 'not_ready: something it needs is down.',
        schema: answer(['database', 'redis', 'migrations', 'worker'], 'not_ready'),
        example: {
          ok: false,
          error: 'not_ready',
          message:
            'Not ready: worker is down (migrations down means some have not run; worker down means no worker ' +
            'heartbeat).',
          database: 'up',
          redis: 'up',
          migrations: 'up',
          worker: 'down',
        },
      },
    },
  }),
};
