import type { DataSource } from 'typeorm';

/**
 * Retention sweeps: deletes the rows of `table` that match `where` (its parameters start at $2; $1 is
 * the batch size), a batch per statement, so no sweep holds locks on a large table for long.
 */
export async function deleteInBatches(
  dataSource: DataSource,
  table: string,
  where: string,
  params: unknown[],
  batch = 5_000,
): Promise<number> {
  let total = 0;
  for (;;) {
    const [, count]: [unknown, number] = await dataSource.query(
      `DELETE FROM ${table} WHERE (workspace_id, id) IN (SELECT workspace_id, id FROM ${table} WHERE ${where} ` +
        `LIMIT $1)`,
      [batch, ...params],
    );
    total += count;
    if (count < batch) return total;
  }
}
