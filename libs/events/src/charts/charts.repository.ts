// A chart's reads (decisions.md section 12): the rollups and the rows not folded in one snapshot
// (chart-rollup.statement.ts), or the events-only statement (chart-statement.ts) where rollups do not answer.
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { READ_DATABASE, ReadDatabase } from '@app/platform';
import type { ChartQuestion } from './chart-rule';
import { rollupChartStatement, rollupsAnswer } from './chart-rollup.statement';
import { EDGE_SIZES_SQL, edgePlan, EdgePlans, peopleEdges, PEOPLE_SIZE_SQL } from './chart-rollup-people.statement';
import { ROLLUP_MARK_SQL, RollupMark } from './rollup-read.sql';
import { chartStatement } from './chart-statement';

export interface ChartRow {
  bucket: Date;
  key: string | null;
  value: number;
}

type Query = (sql: string, args?: unknown[]) => Promise<any[]>; // eslint-disable-line @typescript-eslint/no-explicit-any

const HOUR = 3_600_000;
const floorHour = (at: Date) => new Date(Math.floor(at.getTime() / HOUR) * HOUR);
const ceilHour = (at: Date) => new Date(Math.ceil(at.getTime() / HOUR) * HOUR);

/** A people chart's edge buckets each read the cheapest way, by the rollups' row counts (edgePlan). */
async function edgePlans(query: Query, workspaceId: string, question: ChartQuestion): Promise<EdgePlans> {
  const edges = question.measure === 'people' ? peopleEdges(question) : [];
  if (!edges.length) return {};
  const [{ people }] = await query(PEOPLE_SIZE_SQL, [workspaceId]);
  const plans: EdgePlans = {};
  for (const edge of edges) {
    const inside = [floorHour(edge.lo), ceilHour(edge.end < question.to ? edge.end : question.to)];
    const [{ inside: rows, whole }] = await query(EDGE_SIZES_SQL, [workspaceId, question.event, edge.bucket, edge.end, ...inside]);
    plans[edge.bucket.toISOString()] = edgePlan({ inside: rows, outside: whole - rows, people });
  }
  return plans;
}

/** A chart from the rollups, inside the caller's REPEATABLE READ transaction (the bench runs it too). */
export async function readRollupChart(query: Query, workspaceId: string, question: ChartQuestion): Promise<ChartRow[]> {
  const [mark]: RollupMark[] = await query(ROLLUP_MARK_SQL);
  const { sql, args } = rollupChartStatement(workspaceId, question, mark, await edgePlans(query, workspaceId, question));
  return query(sql, args);
}

@Injectable()
export class ChartsRepository {
  /** A chart decides nothing: inside a read request the replica may serve it (docs/decisions.md "Read replica"). */
  constructor(@Inject(READ_DATABASE) private readonly reads: ReadDatabase) {}

  /**
   * The chart, in one REPEATABLE READ transaction (the mark, the rollups and the rows past it in one
   * snapshot), with JIT off: LLVM would compile more than the statement reads (docs/decisions.md).
   */
  chart(workspaceId: string, question: ChartQuestion): Promise<ChartRow[]> {
    return this.reads.transaction(async (m) => {
      await m.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
      await m.query('SET LOCAL jit = off');
      if (!rollupsAnswer(question)) {
        const { sql, args } = chartStatement(workspaceId, question);
        return m.query(sql, args);
      }
      return readRollupChart((sql, args) => m.query(sql, args), workspaceId, question);
    });
  }

  async seen(workspaceId: string, name: string): Promise<boolean> {
    const rows = await this.reads.query(`SELECT 1 FROM event_names WHERE workspace_id = $1 AND name = $2`, [workspaceId, name]);
    return rows.length > 0;
  }
}

/** Keeps the rollups (rollup.sql.ts): the minute sweep's fold, and the rebuild. Writes: the primary. */
@Injectable()
export class ChartRollups {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Folds the rows received since the last fold; answers the rollup rows it changed. */
  async fold(): Promise<number> {
    const [{ changed }] = await this.dataSource.query('SELECT events_rollup_fold() AS changed');
    return Number(changed);
  }

  /** Recomputes every rollup from events (holds the rollups' tables while it works). */
  async rebuild(): Promise<number> {
    const [{ changed }] = await this.dataSource.query('SELECT events_rollup_rebuild() AS changed');
    return Number(changed);
  }
}
