// Platform: what every context runs on and none of them owns: settings, logs, PostgreSQL and the
// migration runner, Redis, the process runtime, queues, sweeps, retention, batching, rate limits,
// the one refusal type, ids, the worker heartbeat and health. It names no lib above it.
export * from './entries/plain';
export * from './database/database';
export * from './database/time-limits';
export * from './database/database-watch';
export * from './database/read-database';
export * from './database/migrate';
export * from './database/delete-in-batches';
export * from './database/copy-out';
export * from './runtime/redis-reachable';
export * from './runtime/lifecycle';
export * from './runtime/start-process';
export * from './runtime/memory-at-rest';
export * from './runtime/contexts-at-rest';
export * from './redis/redis';
export * from './queues/queues';
export * from './queues/queue-module';
export * from './queues/due-poll';
export * from './queues/enqueue-within';
export * from './sweeps/sweeps';
export * from './sweeps/sweeps-worker.module';
export * from './retention/retention';
export * from './rate-limits/rate-limits';
export * from './logging/logger';
export * from './observability/worker-heartbeat';
export * from './observability/metrics-registry';
export * from './person-data/person-data';
export * from './time/clock';
export * from './platform.module';
