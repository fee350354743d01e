// A chart's reads (docs/graphql.md#activity-and-charts): counts and sums from the rollups and the rows not folded, in
// one snapshot (chart-rollup.statement.ts); people from the sketches and the rows they do not hold
// (chart-people.statement.ts).
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { READ_DATABASE, ReadDatabase } from '@app/platform';
import type { ChartQuestion } from './chart-rule';
import { readPeopleChart } from './chart-people.statement';
import { rollupChartStatement, ROLLUP_MARK_SQL, RollupMark } from './chart-rollup.statement';
import { foldRollups, Query, rebuildRollups } from './people-rollup';

export interface ChartRow {
  bucket: Date;
  key: string | null;
  value: number;
}

/** A chart, inside the caller's REPEATABLE READ transaction (the bench runs it too). */
export async function readChart(query: Query, workspaceId: string, question: ChartQuestion): Promise<ChartRow[]> {
  if (question.measure === 'people') return readPeopleChart(query, workspaceId, question);
  const [mark]: RollupMark[] = await query(ROLLUP_MARK_SQL);
  const { sql, args } = rollupChartStatement(workspaceId, question, mark);
  return query(sql, args);
}

@Injectable()
export class ChartsRepository {
  /** A chart decides nothing: inside a read request the replica may serve it (docs/decisions.md#read-replica). */
  constructor(@Inject(READ_DATABASE) private readonly reads: ReadDatabase) {}

  /**
   * The chart, in one REPEATABLE READ transaction (the mark, the rollups and the rows past it in one
   * snapshot), with JIT off: LLVM would compile more than the statement reads
   * (docs/decisions.md#charts-over-a-million-events).
   */
  chart(workspaceId: string, question: ChartQuestion): Promise<ChartRow[]> {
    return this.reads.transaction(async (m) => {
      await m.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
      await m.query('SET LOCAL jit = off');
      return readChart((sql, args) => m.query(sql, args), workspaceId, question);
    });
  }

  async seen(workspaceId: string, name: string): Promise<boolean> {
    const rows = await this.reads.query(`SELECT 1 FROM event_names WHERE workspace_id = $1 AND name = $2`, [
      workspaceId,
      name,
    ]);
    return rows.length > 0;
  }
}

/** Keeps the rollups (rollup.sql.ts): the minute sweep's fold, and the rebuild. Writes: the primary. */
@Injectable()
export class ChartRollups {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Folds the rows received since the last fold, counts and people in one transaction; answers the count rows it wrote.
   */
  async fold(): Promise<number> {
    const folded = await this.dataSource.transaction((m) => foldRollups((sql, args) => m.query(sql, args)));
    return folded?.changed ?? 0;
  }

  /** Recomputes every rollup from events (holds the rollups' mark while it works), then sketches every hour again. */
  rebuild(): Promise<number> {
    return rebuildRollups((work) => this.dataSource.transaction((m) => work((sql, args) => m.query(sql, args))));
  }
}
