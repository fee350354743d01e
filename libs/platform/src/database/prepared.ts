import type { DataSource, EntityManager } from 'typeorm';

/**
 * Runs a hot query as a named prepared statement on the transaction's own connection, so
 * PostgreSQL parses and plans it once per connection instead of on every post.
 */
export async function preparedQuery<T = any>(m: EntityManager, name: string, text: string, values: unknown[]): Promise<T[]> {
  const client = (m.queryRunner as unknown as { databaseConnection?: { query: (q: object) => Promise<{ rows: T[] }> } })?.databaseConnection;
  if (!client) return m.query(text, values);
  return (await client.query({ name, text, values })).rows;
}

/** preparedQuery outside a transaction: on whichever pooled connection is free (each prepares it once). */
export async function preparedPoolQuery<T = any>(dataSource: DataSource, name: string, text: string, values: unknown[]): Promise<T[]> {
  const pool = (dataSource.driver as unknown as { master?: { query: (q: object) => Promise<{ rows: T[] }> } }).master;
  if (!pool) return dataSource.query(text, values);
  return (await pool.query({ name, text, values })).rows;
}

/**
 * A row as a write document carries it to jsonb_to_recordset, which reads a missing key as NULL: its
 * null fields and the \`omitted\` column (one the statement fills itself, such as the workspace) left
 * out, so the document is smaller to build, send and parse (issue 18).
 */
export function leanRecord<T extends object>(row: T, omitted?: keyof T): Partial<T> {
  const lean: Partial<T> = {};
  for (const key in row) if (row[key] !== null && row[key] !== undefined && key !== omitted) lean[key] = row[key];
  return lean;
}
