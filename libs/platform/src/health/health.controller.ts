import { Controller, Get, Inject, Res } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Response } from 'express';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../config/config';
import { CONFIG } from '../config/config.token';
import { appliedMigrations, Migration, MIGRATION_LIST } from '../database/migration-state';
import { readWorkerHeartbeat } from '../observability/worker-heartbeat';
import { REDIS, type RedisClient } from '../redis/redis';

type Check = 'up' | 'down';

async function check(probe: () => Promise<unknown>): Promise<Check> {
  try {
    const ok = await Promise.race([
      probe(),
      new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 1_000)),
    ]);
    return ok === false ? 'down' : 'up';
  } catch {
    return 'down';
  }
}

@Controller()
export class HealthController {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(REDIS) private readonly redis: RedisClient,
    @Inject(CONFIG) private readonly config: AppConfig,
    @Inject(MIGRATION_LIST) private readonly migrations: Migration[],
  ) {}

  @Get('health')
  async health(@Res() res: Response) {
    const [database, redis] = await Promise.all([
      check(() => this.dataSource.query('SELECT 1')),
      check(() => this.redis.ping()),
    ]);
    const ok = database === 'up' && redis === 'up';
    res.status(ok ? 200 : 503).json(
      ok
        ? { ok, database, redis }
        : {
            ok,
            error: 'unhealthy',
            message: `database ${database}, redis ${redis}: start the one that is down.`,
            database,
            redis,
          },
    );
  }

  /** Liveness: the process answers. A load balancer restarts it when this fails, so it checks nothing else. */
  @Get('health/live')
  live(@Res() res: Response) {
    res.json({ ok: true });
  }

  /** Readiness: the database and Redis answer, every migration has run, and a worker beats. */
  @Get('health/ready')
  async ready(@Res() res: Response) {
    const [database, redis, migrations, worker] = await Promise.all([
      check(() => this.dataSource.query('SELECT 1')),
      check(() => this.redis.ping()),
      check(async () => (await appliedMigrations(this.dataSource)).length === this.migrations.length),
      check(async () => (await readWorkerHeartbeat(this.redis, this.config.redisPrefix)) !== null),
    ]);
    const checks = { database, redis, migrations, worker };
    const down = Object.entries(checks)
      .filter(([, state]) => state === 'down')
      .map(([name]) => name);
    if (!down.length) return res.json({ ok: true, ...checks });
    res.status(503).json({
      ok: false,
      error: 'not_ready',
      message:
        `Not ready: ${down.join(', ')} ${down.length > 1 ? 'are' : 'is'} down (migrations down means some have ` +
        `not run; worker down means no worker heartbeat).`,
      ...checks,
    });
  }
}
