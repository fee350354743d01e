// The one statement of a chart (decisions.md section 12; built in chart-statement.ts), on the events_chart index.
import { Inject, Injectable } from '@nestjs/common';
import { READ_DATABASE, ReadDatabase } from '@app/platform';
import type { ChartQuestion } from './chart-rule';
import { chartStatement } from './chart-statement';

export interface ChartRow {
  bucket: Date;
  key: string | null;
  value: number;
}

@Injectable()
export class ChartsRepository {
  /** A chart decides nothing: inside a read request the replica may serve it (docs/decisions.md "Read replica"). */
  constructor(@Inject(READ_DATABASE) private readonly reads: ReadDatabase) {}

  /**
   * The chart's one statement, with JIT off for it alone: LLVM would compile every branch of the
   * statement (in each parallel worker), which costs more than the rows it reads (docs/decisions.md).
   */
  chart(workspaceId: string, question: ChartQuestion): Promise<ChartRow[]> {
    const { sql, args } = chartStatement(workspaceId, question);
    return this.reads.transaction(async (m) => {
      await m.query('SET LOCAL jit = off');
      return m.query(sql, args);
    });
  }

  async seen(workspaceId: string, name: string): Promise<boolean> {
    const rows = await this.reads.query(`SELECT 1 FROM event_names WHERE workspace_id = $1 AND name = $2`, [workspaceId, name]);
    return rows.length > 0;
  }
}
