import { Client } from 'pg';
import { PeopleReadRepository } from '@app/people';
async function main() {
  const db = new Client({ connectionString: `postgres://postgres@127.0.0.1:5432/${process.argv[2]}` });
  await db.connect();
  const ws = process.argv[3];
  if (process.env.WM) await db.query(`SET work_mem = '${process.env.WM}'`);
  const repo = new PeopleReadRepository({ query: async (text: string, args?: unknown[]) => {
    const t0 = Date.now();
    const r = await db.query(`EXPLAIN (ANALYZE, TIMING ${process.env.T ? 'ON' : 'OFF'}) ${text}`, args);
    console.log(`--- ${Date.now() - t0} ms\n` + r.rows.map((x) => x['QUERY PLAN']).join('\n'));
    return (await db.query(text, args)).rows;
  } } as never);
  const kind = process.argv[5] ?? 'count';
  if (kind === 'count') await repo.count(ws, { search: process.argv[4] });
  else await repo.page(ws, { filter: { search: process.argv[4] }, limit: 51 });
  await db.end();
}
main();
