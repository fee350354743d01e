// docs/decisions.md#a-busy-database-is-not-a-dead-one: the watch of a pool on a PostgreSQL of this file's
// own, its time driven by a ManualClock. A server that answers late is slow, not down; a frozen one is down
// after DATABASE_STALL_MS and DATABASE_PROBE_MISSES timeouts, not before; a question stuck on the watch's
// own connection while the pool answers is asked again, and the server is not taken for dead.
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import {
  DatabaseUnavailable,
  DatabaseWatch,
  dataSourceOptions,
  loadConfig,
  Outage,
  WATCH_APPLICATION_NAME,
} from '@app/platform';
import { ManualClock } from '@app/platform/manual-clock';
import { eventually } from '../harness';
import { PrivatePostgres, startPrivatePostgres } from '../support/private-postgres';

let pg: PrivatePostgres;
let clock: ManualClock;
let outage: Outage;
let watch: DatabaseWatch;
let db: DataSource;
const logged: string[] = [];

beforeAll(async () => {
  pg = await startPrivatePostgres();
}, 60_000);
afterAll(() => pg?.remove());

beforeEach(async () => {
  clock = new ManualClock();
  logged.length = 0;
  outage = new Outage('PostgreSQL');
  outage.log = (line) => logged.push(line);
  const config = loadConfig({ APP_SECRET: 'x'.repeat(40), DATABASE_URL: pg.url('postgres'), DATABASE_POOL_SIZE: '4' });
  const options = dataSourceOptions(config, outage, clock);
  watch = (options.extra as { databaseWatch: DatabaseWatch }).databaseWatch;
  db = await new DataSource(options).initialize();
  // the watch opens its own connection beside the pool's first
  await eventually(async () => (await watchBackend()) !== null, 10_000);
});

afterEach(async () => {
  pg.thaw();
  await db?.destroy().catch(() => undefined);
});

/** The process id of the watch's own connection on the server (other than `but`), or null while it has none. */
async function watchBackend(but = 0): Promise<number | null> {
  const [row] = await db.query('SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND pid <> $2', [
    WATCH_APPLICATION_NAME,
    but,
  ]);
  return row?.pid ?? null;
}

/** Sends a statement that the frozen server leaves waiting, and lets it go out before the clock moves. */
async function waiting(): Promise<{ answer: Promise<unknown> }> {
  const answer = db.query('SELECT 1 AS one').then(
    (rows) => rows,
    (error: unknown) => error,
  );
  await new Promise((resolve) => setTimeout(resolve, 50));
  return { answer };
}

it('a server silent for 1.5 s that then answers is slow, not down: nothing is given up', async () => {
  pg.freeze();
  const statement = await waiting();
  await clock.advance(1_000); // the statement has waited DATABASE_STALL_MS: the server is asked
  expect(watch.heard().askedAt).toBe(clock.now());
  await clock.advance(1_500); // one miss
  expect(outage.down).toBe(false);
  pg.thaw();
  expect(await statement.answer).toEqual([{ one: 1 }]);
  await eventually(async () => watch.heard().askedAt === null);
  await clock.advance(5_000);
  expect(outage.down).toBe(false);
  expect(logged).toEqual([]);
}, 30_000);

it('a frozen server is down after the stall and two misses of 1 s, not before, and back when it answers', async () => {
  pg.freeze();
  const sent = Date.now();
  const statement = await waiting();
  // the pool's one connection is taken: this one waits on a new connection, which the frozen server never opens
  const opening = await waiting();
  await clock.advance(2_999);
  expect(outage.down).toBe(false);
  await clock.advance(1);
  expect(outage.down).toBe(true);
  expect(logged).toEqual([
    'PostgreSQL cannot be reached (no answer within 2000 ms): requests that need it answer 503 unavailable until it is back.',
  ]);
  // the statement given up (TypeORM wraps it as the driver's error), and a new one refused at once
  expect(await statement.answer).toMatchObject({ driverError: expect.any(DatabaseUnavailable) });
  // given up with it, not left to the connect timeout (DATABASE_CONNECT_TIMEOUT_MS, 3 s)
  expect(await opening.answer).toBeInstanceOf(DatabaseUnavailable);
  expect(Date.now() - sent).toBeLessThan(2_000);
  await expect(db.query('SELECT 1')).rejects.toBeInstanceOf(DatabaseUnavailable);

  pg.thaw();
  await clock.advance(1_000); // the next check, on a new connection
  await eventually(async () => !outage.down);
  expect(logged[1]).toMatch(/^PostgreSQL answers again after [\d.]+ s;/);
  expect(await db.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
}, 30_000);

it("a question stuck on the watch's own connection while the pool answers is asked again on a new one", async () => {
  const stuck = (await watchBackend())!;
  process.kill(stuck, 'SIGSTOP');
  try {
    const long = db.query('SELECT pg_sleep(1.5)');
    await new Promise((resolve) => setTimeout(resolve, 50));
    await clock.advance(1_000);
    expect(watch.heard().askedAt).toBe(clock.now());
    // the pool keeps answering: each answer is the server's, so the misses count from it
    for (let step = 0; step < 8; step++) {
      await db.query('SELECT 1');
      await clock.advance(250);
      expect(outage.down).toBe(false);
    }
    await long;
    // asked again on a new connection, which answers
    await eventually(async () => watch.heard().askedAt === null);
    expect(await watchBackend(stuck)).not.toBeNull();
    expect(outage.down).toBe(false);
  } finally {
    process.kill(stuck, 'SIGCONT');
  }
}, 30_000);

it('the watch closes its own connection with the pool', async () => {
  const probe = new Client({ connectionString: pg.url('postgres') });
  await probe.connect();
  try {
    await db.destroy();
    const gone = await eventually(async () => {
      const { rows } = await probe.query(
        'SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1',
        [WATCH_APPLICATION_NAME],
      );
      return rows[0].n === 0;
    });
    expect(gone).toBe(true);
  } finally {
    await probe.end();
  }
}, 30_000);
