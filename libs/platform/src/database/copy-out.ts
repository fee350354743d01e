// COPY (SELECT …) TO STDOUT as a stream of PostgreSQL's own bytes, on a connection of the pool held for the
// statement: the rows reach the caller as PostgreSQL sends them, a chunk of about 64 kB at a time, and the
// next chunk is read only when the caller asks for it, so a slow reader holds PostgreSQL back rather than the
// api's memory (docs/rest.md#every-event-out-as-a-stream).
import type { PoolClient } from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { DataSource } from 'typeorm';

interface Pool {
  connect(): Promise<PoolClient>;
}

/**
 * The bytes of `copy` (a COPY … TO STDOUT statement, its values written into it as literals: COPY takes no
 * parameters). A caller that stops reading part-way ends the statement: its connection is closed, not
 * returned to the pool in the middle of a COPY.
 */
export async function* copyOut(dataSource: DataSource, copy: string): AsyncGenerator<Buffer> {
  const pool = (dataSource.driver as unknown as { master?: Pool }).master;
  if (!pool) throw new Error('copyOut needs a PostgreSQL data source');
  const client = await pool.connect();
  const stream = client.query(copyTo(copy));
  let finished = false;
  try {
    for await (const chunk of stream) yield chunk as Buffer;
    finished = true;
  } finally {
    if (!finished) stream.destroy();
    // A COPY ended part-way leaves the connection mid-protocol: it is closed, and the pool opens another.
    client.release(finished ? undefined : new Error('COPY ended before its last row'));
  }
}
