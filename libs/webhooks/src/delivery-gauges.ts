// Webhooks' figure at /metrics: deliveries kept, by state.
import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { MetricsRegistry } from '@app/platform';

const STATES = ['pending', 'succeeded', 'failed'] as const;

@Injectable()
export class DeliveryGauges implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly metrics: MetricsRegistry,
  ) {}

  onModuleInit(): void {
    const dataSource = this.dataSource;
    this.metrics.gauge({
      name: 'lifeline_deliveries',
      help: 'Webhook deliveries kept, by state (pending, succeeded, failed)',
      labelNames: ['state'],
      async collect() {
        this.reset();
        for (const state of STATES) this.set({ state }, 0);
        for (const row of await dataSource.query(`SELECT state, count(*)::int AS n FROM deliveries GROUP BY state`))
          this.set({ state: row.state }, row.n);
      },
    });
  }
}
