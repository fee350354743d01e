import { Controller, Get, Inject, Res } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Response } from 'express';
import type Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { REDIS } from '../redis/redis';

async function check(probe: () => Promise<unknown>): Promise<'up' | 'down'> {
  try {
    await Promise.race([probe(), new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 1_000))]);
    return 'up';
  } catch {
    return 'down';
  }
}

@Controller()
export class HealthController {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  @Get('health')
  async health(@Res() res: Response) {
    const [database, redis] = await Promise.all([check(() => this.dataSource.query('SELECT 1')), check(() => this.redis.ping())]);
    const ok = database === 'up' && redis === 'up';
    res.status(ok ? 200 : 503).json(ok ? { ok, database, redis } : { ok, error: 'unhealthy', message: `database ${database}, redis ${redis}: start the one that is down.`, database, redis });
  }
}
