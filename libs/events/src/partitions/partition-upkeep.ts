// The sweep of the events table by month (docs/decisions.md#events-by-month): every minute, once
// across workers, it makes the months ahead, moves rows that landed in the default partition to their
// month, and carries on converting an old plain table, a bounded number of batches a run.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { partitionName, monthsDue } from './event-months';
import {
  copyBatch,
  copyMark,
  dropLegacy,
  eventsShape,
  finishConversion,
  makeMonth,
  monthPartitions,
  monthsInDefault,
  nextBatchMonths,
  partitionedName,
  Run,
  CONVERTING,
  COPY_BATCH,
} from './partitions.sql';

/** Months of stragglers moved out of the default partition per run, each in a transaction of its own. */
const DEFAULT_MONTHS_PER_RUN = 12;
/** How long a run may go on copying an old table: well inside the minute between runs. */
const CONVERSION_BUDGET_MS = 20_000;

@Injectable()
export class PartitionUpkeep {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private readonly run: Run = (sql, params) => this.dataSource.query(sql, params);

  private transaction<T>(work: (run: Run) => Promise<T>): Promise<T> {
    return this.dataSource.transaction((m) => work((sql, params) => m.query(sql, params)));
  }

  /** The sweep: answers the rows moved or copied. */
  async sweep(now = new Date(), budgetMs = CONVERSION_BUDGET_MS): Promise<number> {
    await dropLegacy(this.run);
    const shape = await eventsShape(this.run);
    if (shape === 'plain') return 0;
    const parent = partitionedName(shape);
    let done = await this.makeMonths(parent, [
      ...monthsDue(now),
      ...(await monthsInDefault(this.run, DEFAULT_MONTHS_PER_RUN)),
    ]);
    if (shape === 'converting') done += await this.convert(budgetMs);
    return done;
  }

  /** Copies an old plain table's rows batch by batch for up to `budgetMs`, then takes its name once all are copied. */
  async convert(budgetMs: number): Promise<number> {
    const until = Date.now() + budgetMs;
    let copied = 0;
    for (;;) {
      const mark = await copyMark(this.run);
      await this.makeMonths(CONVERTING, await nextBatchMonths(this.run, mark));
      const read = await this.transaction((run) => copyBatch(run, mark));
      copied += read;
      if (read < COPY_BATCH) {
        if (await this.transaction(finishConversion)) {
          await this.run('ANALYZE events');
          return copied;
        }
      }
      if (Date.now() >= until) return copied;
    }
  }

  /** Makes the partitions of these months that are missing; the parent's statistics are renewed after any. */
  private async makeMonths(parent: string, months: Date[]): Promise<number> {
    const made = await monthPartitions(this.run, parent);
    const missing = [...new Map(months.map((m) => [partitionName(m), m])).entries()].filter(
      ([name]) => !made.has(name),
    );
    let moved = 0;
    for (const [, month] of missing) moved += await this.transaction((run) => makeMonth(run, parent, month));
    // Autovacuum analyzes the partitions but never the partitioned table, whose statistics the charts' plans read.
    if (missing.length) await this.run(`ANALYZE ${parent}`);
    return moved;
  }
}
