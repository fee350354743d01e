// npm run bench:auth — what reading the key on every request costs (no key cache): the key
// lookup statement the guard runs, beside a whole single post to POST /api/v1/events on the same api.
import { loadavg } from 'node:os';
import { Client } from 'pg';
import { hashSecretKey } from '@app/workspaces';
import { median, startService, workspaceWithKeys, writeResults } from './support';

const RUNS = 1_000;

async function timed(times: number[], work: () => Promise<unknown>) {
  const start = process.hrtime.bigint();
  await work();
  times.push(Number(process.hrtime.bigint() - start) / 1e6);
}

async function main() {
  const service = await startService('lifeline_bench_auth', ['api']);
  try {
    const { secretKeys } = await workspaceWithKeys(service.url, 'auth', 1);
    const key = secretKeys[0];
    const posts: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      await timed(posts, () =>
        fetch(`${service.url}/api/v1/events`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
          body: JSON.stringify({ type: 'pageview', email: `p${i % 50}@bench.test` }),
        }).then((r) => r.text()),
      );
    }
    const db = new Client({ connectionString: service.databaseUrl });
    await db.connect();
    // The statement of WorkspacesRepository.findKeyOwners, prepared once per connection as the guard sends it.
    const lookup = `SELECT k.key_hash, k.id AS key_id, k.revoked_at, k.last_used_at, w.id AS workspace_id, w.slug AS workspace_slug,
              m.id AS member_id, m.email AS member_email, m.role, m.removed_at
         FROM api_keys k JOIN workspaces w ON w.id = k.workspace_id
         JOIN members m ON m.workspace_id = k.workspace_id AND m.id = k.member_id WHERE k.key_hash = ANY($1::text[])`;
    const lookups: number[] = [];
    for (let i = 0; i < RUNS; i++)
      await timed(lookups, () => db.query({ name: 'key_owners', text: lookup, values: [[hashSecretKey(key)]] }));
    const unprepared: number[] = [];
    for (let i = 0; i < RUNS; i++) await timed(unprepared, () => db.query(lookup, [[hashSecretKey(key)]]));
    const pings: number[] = [];
    for (let i = 0; i < RUNS; i++) await timed(pings, () => db.query('SELECT 1'));
    await db.end();
    const post = median(posts);
    const read = median(lookups);
    writeResults(
      'Key lookup on every request (no key cache)',
      `Command: \`npm run bench:auth\` (api alone, NODE_ENV=production; ${RUNS} sequential requests of each kind; medians).

| what | median |
|---|---|
| whole single post, POST /api/v1/events | ${post.toFixed(2)} ms |
| the key lookup statement (key, member, workspace in one join), prepared as the guard sends it | ${read.toFixed(3)} ms |
| the same statement unprepared (parsed and planned every time) | ${median(unprepared).toFixed(3)} ms |
| \`SELECT 1\` round trip, for scale | ${median(pings).toFixed(3)} ms |

Load average during the run: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(
          ', ',
        )} (2 cores, shared with other work).\nThe lookup is ${((read / post) * 100).toFixed(1)}% of a single post's time when requests come one at a time; concurrent
requests share one lookup statement per tick (DataLoader, up to 100 keys), so under load the cost per
request falls further. In exchange a revoked key or removed member is refused on the very next request
by every api process. Measured on ${new Date().toISOString().slice(0, 10)}.`,
    );
    process.stdout.write(`post ${post.toFixed(2)} ms, lookup ${read.toFixed(3)} ms\n`);
  } finally {
    await service.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
