// The outbox's figures at /metrics: what the relay has still to pass, and how old the oldest is.
import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { MetricsRegistry } from '@app/platform';
import { RELAY_MARK } from './outbox';

@Injectable()
export class OutboxGauges implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly metrics: MetricsRegistry,
  ) {}

  onModuleInit(): void {
    const age = this.metrics.gauge({
      name: 'lifeline_outbox_oldest_age_seconds',
      help: 'Age of the oldest outbox row not yet relayed',
    });
    const dataSource = this.dataSource;
    this.metrics.gauge({
      name: 'lifeline_outbox_backlog',
      help: 'Outbox rows (one per writing transaction) not yet relayed',
      async collect() {
        const [row] = await dataSource.query(
          `SELECT count(*)::int AS n, COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0)::float AS age ` +
            `FROM outbox o WHERE (o.xid, o.id) > ${RELAY_MARK}`,
        );
        this.set(row.n);
        age.set(row.age);
      },
    });
  }
}
