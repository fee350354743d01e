import { join } from 'node:path';
import { Client } from 'pg';
import { PeopleReadRepository } from '@app/people';
async function main() {
  const db = new Client({ connectionString: `postgres://postgres@127.0.0.1:5432/${process.argv[2]}` });
  await db.connect();
  const ws = process.argv[3];
  if (process.env.WM) await db.query(`SET work_mem = '${process.env.WM}'`);
  const reads = { query: async (text: string, args?: unknown[]) => (await db.query(text, args)).rows } as never;
  const repos: Record<string, PeopleReadRepository> = { after: new PeopleReadRepository(reads), base: new (require(join('/work/wt-base', 'libs/people/src/people-read.repository.ts')).PeopleReadRepository)(reads) };
  for (const fragment of process.argv.slice(4)) {
    const t: Record<string, number[]> = { base: [], after: [] };
    for (let i = 0; i < 8; i++) for (const name of i % 2 ? ['base', 'after'] : ['after', 'base']) {
      const s = process.hrtime.bigint();
      await repos[name].page(ws, { filter: { search: fragment }, limit: 51 });
      t[name].push(Number(process.hrtime.bigint() - s) / 1e6);
    }
    const med = (a: number[]) => a.slice(1).sort((x, y) => x - y)[3].toFixed(1);
    console.log(fragment, 'page base', med(t.base), 'after', med(t.after));
  }
  await db.end();
}
main();
