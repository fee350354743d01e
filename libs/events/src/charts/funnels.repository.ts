// The reads of funnels and retention (docs/graphql.md#funnels-and-retention): one statement each
// (funnel.statement.ts, retention.statement.ts).
import { Inject, Injectable } from '@nestjs/common';
import { READ_DATABASE, ReadDatabase } from '@app/platform';
import type { FunnelQuestion } from './funnel-rule';
import { funnelStatement } from './funnel.statement';
import type { RetentionQuestion } from './retention-rule';
import { RetentionRow, retentionStatement } from './retention.statement';

@Injectable()
export class FunnelsRepository {
  /** Like a chart, a funnel decides nothing: inside a read request the replica may serve it. */
  constructor(@Inject(READ_DATABASE) private readonly reads: ReadDatabase) {}

  /** Each step's people, in the steps' order. */
  async funnel(workspaceId: string, question: FunnelQuestion): Promise<number[]> {
    const { sql, args } = funnelStatement(workspaceId, question);
    const [row] = await this.read<Record<string, number>>(sql, args);
    return question.steps.map((_, i) => Number(row[`s${i + 1}`]));
  }

  retention(workspaceId: string, question: RetentionQuestion): Promise<RetentionRow[]> {
    const { sql, args } = retentionStatement(workspaceId, question);
    return this.read<RetentionRow>(sql, args);
  }

  /** With JIT off, as a chart (docs/decisions.md#charts-over-a-million-events). */
  private read<T>(sql: string, args: unknown[]): Promise<T[]> {
    return this.reads.transaction(async (m) => {
      await m.query('SET TRANSACTION READ ONLY');
      await m.query('SET LOCAL jit = off');
      return m.query(sql, args);
    });
  }
}
