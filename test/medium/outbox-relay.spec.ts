// The outbox costs the same per event at any size. Below the relay's mark lie 100,000
// relayed rows (a busy week); the relay's reads start at the mark and touch only the rows past it, and
// what it relays is exactly those, in order, once. A workspace nothing listens in costs the relay no
// happenings read.
import { Client } from 'pg';
import type Redis from 'ioredis';
import {
  HEARD_PER_PASS,
  outboxChannel,
  OutboxRelayService,
  OutboxWriter,
  RELAY_HAPPENINGS,
  RELAY_MIN_GAP_MS,
  RELAY_NEXT,
  RELAY_MARK,
} from '@app/outbox';
import { REDIS } from '@app/platform';
import { ManualClock } from '@app/platform/manual-clock';
import { Medium, startMedium } from './medium';

const RELAYED = 100_000;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  Plans?: PlanNode[];
}
const nodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodes)];

// The relay's gaps and the writer's kicks are timed on this clock, which the passes below move by hand.
const clock = new ManualClock();
let t: Medium;
beforeAll(async () => {
  t = await startMedium({ clock });
  const ws = await t.make.workspace();
  // One transaction writes them and moves the mark past them: relayed, as a week of traffic leaves them.
  await t.db.query(
    `WITH rows AS (
       INSERT INTO outbox (workspace_id, happenings)
       SELECT $1, jsonb_build_array(jsonb_build_object('kind', 'event', 'personId', NULL, 'payload', jsonb_build_object('n', n)))
         FROM generate_series(1, $2) n
       RETURNING xid, id)
     UPDATE outbox_relay SET xid = m.xid, id = m.id FROM (SELECT xid, id FROM rows ORDER BY xid DESC, id DESC LIMIT 1) m WHERE name = 'main'`,
    [ws.id, RELAYED],
  );
  for (const n of [1, 2, 3]) await t.make.outbox(ws.id, {}, { fresh: n });
  await t.db.query('ANALYZE outbox');
}, 120_000);
afterAll(() => t.close());

describe('the relay over a large outbox', () => {
  it('reads from its mark: only the rows past it are touched', async () => {
    const runner = t.db.createQueryRunner();
    await runner.startTransaction();
    try {
      const [mark] = await runner.query(`SELECT xid::text, id::text FROM outbox_relay WHERE name = 'main'`);
      const [last] = await runner.query(
        `SELECT xid::text, id::text, workspace_id FROM outbox ORDER BY xid DESC, id DESC LIMIT 1`,
      );
      const happenings = RELAY_HAPPENINGS.replace(
        /\$(\d)(::[a-z0-9\[\]]+)/g,
        (_all, n: string, cast: string) =>
          `${[`'${mark.xid}'`, mark.id, `'${last.xid}'`, last.id, `ARRAY['${last.workspace_id}']`][Number(n) - 1]}${cast}`,
      );
      for (const statement of [RELAY_NEXT, happenings]) {
        const [
          {
            'QUERY PLAN': [root],
          },
        ] = await runner.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${statement}`);
        const scans = nodes(root.Plan).filter((n) => n['Relation Name'] === 'outbox');
        expect(scans.length).toBeGreaterThan(0);
        for (const scan of scans) expect(scan['Node Type']).toBe('Index Scan');
        const touched = scans.reduce((sum, n) => sum + (n['Actual Rows'] ?? 0) * (n['Actual Loops'] ?? 1), 0);
        expect(touched).toBe(3);
      }
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  });

  it('relays exactly the rows past the mark, in order, and then nothing', async () => {
    const seen: unknown[] = [];
    const relay = t.get(OutboxRelayService);
    relay.register({
      name: 'probe',
      hearing: `SELECT unnest($1::text[]) AS workspace_id`,
      handle: async (_m, rows) => void seen.push(...rows.map((r) => r.payload)),
    });
    expect(await relay.relayOnce()).toBe(3);
    expect(seen).toEqual([{ fresh: 1 }, { fresh: 2 }, { fresh: 3 }]);
    expect(await relay.relayOnce()).toBe(0);
  });

  it('reads no happenings of a workspace nothing listens in, and still moves past its rows', async () => {
    const relay = t.get(OutboxRelayService);
    const quiet = await t.make.workspace();
    let handled = 0;
    const deaf = {
      name: 'deaf',
      hearing: `SELECT unnest($1::text[]) AS workspace_id WHERE false`,
      handle: async () => void handled++,
    };
    const handlers = (relay as unknown as { handlers: unknown[] }).handlers;
    const kept = handlers.splice(0, handlers.length, deaf);
    try {
      await t.make.outbox(quiet.id, {}, { unheard: 1 });
      expect(await relay.relayOnce()).toBe(1);
      expect(handled).toBe(0);
      expect(await relay.relayOnce()).toBe(0);
    } finally {
      handlers.splice(0, handlers.length, ...kept);
    }
  });

  it('stops a pass at the end of the row holding its HEARD_PER_PASS-th happening; the next pass goes on from there', async () => {
    const [ws] = await t.db.query(`SELECT id FROM workspaces LIMIT 1`);
    const size = Math.ceil((HEARD_PER_PASS * 3) / 4);
    for (const row of [1, 2, 3]) {
      await t.db.query(
        `INSERT INTO outbox (workspace_id, happenings)
         SELECT $1, jsonb_agg(jsonb_build_object('kind', 'event', 'personId', NULL, 'payload', jsonb_build_object('row', $2::int, 'n', n)) ORDER BY n)
           FROM generate_series(1, $3) n`,
        [ws.id, row, size],
      );
    }
    const seen: Array<{ row: number; n: number }> = [];
    const relay = t.get(OutboxRelayService);
    const handlers = (relay as unknown as { handlers: unknown[] }).handlers;
    const probe = {
      name: 'probe',
      hearing: `SELECT unnest($1::text[]) AS workspace_id`,
      handle: async (_m: unknown, rows: Array<{ payload: unknown }>) =>
        void seen.push(...rows.map((r) => r.payload as { row: number; n: number })),
    };
    const kept = handlers.splice(0, handlers.length, probe);
    try {
      // The HEARD_PER_PASS-th happening is in the second row: the first pass relays two whole rows.
      expect(await relay.relayOnce()).toBe(2);
      expect(seen).toEqual([1, 2].flatMap((row) => Array.from({ length: size }, (_, i) => ({ row, n: i + 1 }))));
      expect(await relay.relayOnce()).toBe(1);
      expect(seen.slice(2 * size)).toEqual(Array.from({ length: size }, (_, i) => ({ row: 3, n: i + 1 })));
      expect(await relay.relayOnce()).toBe(0);
    } finally {
      handlers.splice(0, handlers.length, ...kept);
    }
  });

  it('moves past a row with no happenings (nothing to hand on, and nothing left behind)', async () => {
    const [ws] = await t.db.query(`SELECT id FROM workspaces LIMIT 1`);
    await t.make.emptyOutboxRow(ws.id);
    expect(await t.get(OutboxRelayService).relayOnce()).toBe(1);
    expect(await t.get(OutboxRelayService).relayOnce()).toBe(0);
  });

  /** A transaction that holds a transaction id (as a write does) in a database, until released. */
  async function holding(database: string): Promise<{ release: () => Promise<void> }> {
    const url = new URL(t.config.databaseUrl);
    url.pathname = `/${database}`;
    const client = new Client({ connectionString: url.toString() });
    await client.connect();
    await client.query('BEGIN');
    await client.query('SELECT pg_current_xact_id()');
    return { release: async () => (await client.query('COMMIT'), await client.end()) };
  }

  it('a long write in another database on the same server does not hold it back', async () => {
    const other = await holding('postgres');
    try {
      const [ws] = await t.db.query(`SELECT id FROM workspaces LIMIT 1`);
      await t.make.outbox(ws.id, {}, { late: 1 });
      expect(await t.get(OutboxRelayService).relayOnce()).toBe(1);
    } finally {
      await other.release();
    }
  });

  it('a write of this database still running holds back every row after it, until it ends', async () => {
    const mine = await holding(new URL(t.config.databaseUrl).pathname.slice(1));
    const [ws] = await t.db.query(`SELECT id FROM workspaces LIMIT 1`);
    await t.make.outbox(ws.id, {}, { after: 1 });
    try {
      expect(await t.get(OutboxRelayService).relayOnce()).toBe(0);
    } finally {
      await mine.release();
    }
    expect(await t.get(OutboxRelayService).relayOnce()).toBe(1);
  });
});

describe('passes while writes keep coming (RELAY_MIN_GAP_MS)', () => {
  const pastMark = async () =>
    Number((await t.db.query(`SELECT count(*) AS n FROM outbox WHERE (xid, id) > ${RELAY_MARK}`))[0].n);
  /** Moves the clock a gap at a time, letting each pass the relay starts finish, until nothing is past the mark. */
  async function drained(relay: OutboxRelayService): Promise<void> {
    for (let i = 0; i < 100 && (await pastMark()) > 0; i++) {
      await clock.advance(RELAY_MIN_GAP_MS);
      await (relay as unknown as { running: Promise<void> | null }).running;
    }
  }

  it('an idle relay starts a pass at the first kick; under a kick every 10 ms, passes start a gap apart and relay everything', async () => {
    const relay = t.get(OutboxRelayService);
    const [ws] = await t.db.query(`SELECT id FROM workspaces LIMIT 1`);
    const starts: number[] = [];
    const original = relay.relayOnce.bind(relay);
    // Each pass's start as the relay times it (the gap is kept between these), read as its first batch begins.
    const spy = jest.spyOn(relay, 'relayOnce').mockImplementation(() => {
      starts.push((relay as unknown as { lastStart: number }).lastStart);
      return original();
    });
    try {
      await clock.advance(RELAY_MIN_GAP_MS + 10); // idle for longer than a gap
      relay.kick();
      expect(starts).toHaveLength(1); // started within kick(), not after a gap
      const until = clock.now() + 8 * RELAY_MIN_GAP_MS;
      let written = 0;
      while (clock.now() < until) {
        // Three writing transactions at a time, so several commit within each gap.
        await Promise.all([1, 2, 3].map(() => t.make.outbox(ws.id, {}, { steady: ++written })));
        relay.kick();
        await clock.advance(10);
      }
      await drained(relay);
      expect(await pastMark()).toBe(0);
      expect(written).toBeGreaterThan(starts.length * 2); // passes carried several transactions each
      const gaps = starts.slice(1).map((start, i) => start - starts[i]);
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(RELAY_MIN_GAP_MS - 1);
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(RELAY_MIN_GAP_MS); // the clock fires no timer early
    } finally {
      spy.mockRestore();
    }
  });

  it("the api's kicks: the first at once, then at most one per gap, the last commit's never dropped", async () => {
    const redis = t.get<Redis>(REDIS);
    const published: number[] = [];
    // Each kick's time as the writer keeps it (the gap is kept between these), read as it publishes.
    const kickedAt: number[] = [];
    const original = redis.publish.bind(redis) as (channel: string, message: string) => Promise<number>;
    const publish = jest.spyOn(redis, 'publish').mockImplementation(((channel: string, message: string) => {
      if (channel === outboxChannel(t.config)) {
        published.push(clock.now());
        kickedAt.push((t.get(OutboxWriter) as unknown as { lastKick: number }).lastKick);
      }
      return original(channel, message);
    }) as never);
    try {
      const writer = t.get(OutboxWriter);
      await clock.advance(RELAY_MIN_GAP_MS + 10);
      writer.kick();
      expect(published).toHaveLength(1); // at once, not after a gap
      const first = published[0];
      let last = first;
      while (clock.now() < first + 6 * RELAY_MIN_GAP_MS) {
        writer.kick();
        last = clock.now();
        await clock.advance(2);
      }
      await clock.advance(2 * RELAY_MIN_GAP_MS);
      expect(published.length).toBeGreaterThanOrEqual(2);
      expect(published.length).toBeLessThanOrEqual(8); // a hundred kicks or so, at most one per gap
      const gaps = kickedAt.slice(1).map((at, i) => at - kickedAt[i]);
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(RELAY_MIN_GAP_MS - 1);
      expect(published[published.length - 1]).toBeGreaterThanOrEqual(last); // told after the last commit
    } finally {
      publish.mockRestore();
    }
  });
});
