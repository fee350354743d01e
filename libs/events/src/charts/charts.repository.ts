// The one statement of a chart (decisions.md section 12), on the events_chart index.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { ChartQuestion } from './chart-rule';

export interface ChartRow {
  bucket: Date;
  key: string | null;
  value: number;
}

const MEASURE_SQL = {
  count: 'count(*)',
  sum_value: 'coalesce(sum(e.value), 0)',
  people: 'count(DISTINCT e.person_id)',
} as const;

/**
 * The statement of a chart: values per UTC bucket (and first-touch key). Rows past their expires_at but
 * not yet swept are left out, as if already deleted (interface.md events rule 5).
 */
export function chartStatement(workspaceId: string, question: ChartQuestion): { sql: string; args: unknown[] } {
  const key = question.breakdown ? `p.first_touch->>'${question.breakdown}'` : 'NULL::text';
  const join = question.breakdown ? 'JOIN people p ON p.workspace_id = e.workspace_id AND p.id = e.person_id' : '';
  return {
    // Buckets in UTC wall time, made a timestamptz again once per bucket: date_trunc with a zone
    // argument costs about half as much again per row (bench/RESULTS.md).
    sql: `SELECT g.bucket AT TIME ZONE 'UTC' AS bucket, g.key, g.value FROM (
            SELECT date_trunc($5, e.occurred_at AT TIME ZONE 'UTC') AS bucket, ${key} AS key, ${MEASURE_SQL[question.measure]}::float8 AS value
              FROM events e ${join}
             WHERE e.workspace_id = $1 AND e.type = $2 AND e.occurred_at >= $3 AND e.occurred_at <= $4
               AND (e.expires_at IS NULL OR e.expires_at > now())
             GROUP BY 1, 2) AS g`,
    args: [workspaceId, question.event, question.from.toISOString(), question.to.toISOString(), question.interval],
  };
}

@Injectable()
export class ChartsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  chart(workspaceId: string, question: ChartQuestion): Promise<ChartRow[]> {
    const { sql, args } = chartStatement(workspaceId, question);
    return this.dataSource.query(sql, args);
  }

  async seen(workspaceId: string, name: string): Promise<boolean> {
    const rows = await this.dataSource.query(`SELECT 1 FROM event_names WHERE workspace_id = $1 AND name = $2`, [workspaceId, name]);
    return rows.length > 0;
  }
}
