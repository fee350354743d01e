// ReadDatabase.serialQuery (libs/platform/src/database/read-database.ts): its read is planned without
// parallel workers, the setting its own transaction's, over the app's real pool; a read that fails
// rejects and leaves no connection in a transaction.
import { READ_DATABASE, ReadDatabase } from '@app/platform';
import { Medium, startMedium } from './medium';

let t: Medium;
let reads: ReadDatabase;
beforeAll(async () => {
  t = await startMedium();
  reads = t.get<ReadDatabase>(READ_DATABASE);
});
afterAll(() => t.close());

const SETTING = `SELECT current_setting('max_parallel_workers_per_gather') AS workers, now() = statement_timestamp() AS alone`;

describe('ReadDatabase.serialQuery', () => {
  it('reads with no parallel workers, in a transaction of its own, and leaves every connection as it was', async () => {
    const [usual] = await reads.query(SETTING);
    expect(usual.workers).not.toBe('0');
    expect(usual.alone).toBe(true); // outside a transaction a statement starts its own
    // In its transaction the SET ran first, so the read's statement began after the transaction did.
    expect(await reads.serialQuery(SETTING, [])).toEqual([{ workers: '0', alone: false }]);
    const after = await Promise.all(Array.from({ length: 12 }, () => reads.query(SETTING)));
    expect(after.map(([row]) => row.workers)).toEqual(after.map(() => usual.workers));
  });

  it('rejects a read that fails, and the pool reads on', async () => {
    await expect(reads.serialQuery(`SELECT 1 / (0 * $1::int) AS n`, [1])).rejects.toThrow(/division by zero/);
    const rows = await Promise.all(
      Array.from({ length: 12 }, () => reads.query(`SELECT 1 AS n, now() = statement_timestamp() AS alone`)),
    );
    expect(rows.map(([row]) => row)).toEqual(rows.map(() => ({ n: 1, alone: true })));
    expect(await reads.serialQuery(`SELECT $1::int AS n`, [2])).toEqual([{ n: 2 }]);
  });
});
