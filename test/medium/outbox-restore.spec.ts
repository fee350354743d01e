// A backup restored onto a server whose transaction counter is behind the backed-up
// one's (libs/outbox/src/restore-repair.ts). Restored rows are inserted here as pg_restore writes them:
// carrying the old server's xid, made by another transaction. The old server's ids are past 2^32.
import { OutboxRelayService, OutboxRestoreCheck, OutboxRow, RELAY_MARK } from '@app/outbox';
import { isRelayed } from '../support/outbox';
import { Medium, startMedium } from './medium';

const OLD = 2n ** 32n + 5_000_000n;

let t: Medium;
let ws: Record<string, any>;
const seen: OutboxRow[] = [];
beforeAll(async () => {
  t = await startMedium();
  ws = await t.make.workspace();
  t.get(OutboxRelayService).register({
    name: 'probe',
    hearing: `SELECT unnest($1::text[]) AS workspace_id`,
    handle: async (_m, rows) => void seen.push(...rows),
  });
});
afterAll(() => t.close());

/** An outbox row as a restore leaves it: the old server's xid; its happening id. */
async function restored(xid: bigint, payload: Record<string, unknown>): Promise<string> {
  const [row] = await t.db.query(
    `INSERT INTO outbox (workspace_id, happenings, xid) VALUES ($1, $2::jsonb, $3::xid8) RETURNING id::text`,
    [ws.id, JSON.stringify([{ kind: 'event', personId: null, payload }]), xid.toString()],
  );
  return (BigInt(row.id) * 65_536n).toString();
}
const written = async (payload: Record<string, unknown>) =>
  (BigInt((await t.make.outbox(ws.id, {}, payload)).id) * 65_536n).toString();
const mark = async () => (await t.db.query(`SELECT xid::text, id::text FROM outbox_relay WHERE name = 'main'`))[0];
const setMark = (xid: bigint, id: string) =>
  t.db.query(`UPDATE outbox_relay SET xid = $1::xid8, id = $2 WHERE name = 'main'`, [xid.toString(), id]);
const relayAll = async () => {
  while ((await t.get(OutboxRelayService).relayOnce()) > 0);
};
const seenOf = (key: string) => seen.filter((r) => key in r.payload).map((r) => `${r.id}:${String(r.payload[key])}`);
const pastMark = async () =>
  Number((await t.db.query(`SELECT count(*)::int AS n FROM outbox o WHERE (o.xid, o.id) > ${RELAY_MARK}`))[0].n);

it('the mark ahead of the counter: what the old server relayed stays relayed, its rest and what was written here since are relayed once, ids kept, by one of two relays and a starting process', async () => {
  await relayAll();
  const relayedThere = [await restored(OLD + 1n, { a: 1 }), await restored(OLD + 2n, { a: 2 })];
  const dueThere = [await restored(OLD + 3n, { a: 3 }), await restored(OLD + 4n, { a: 4 })];
  await setMark(OLD + 2n, (BigInt(relayedThere[1]) >> 16n).toString());
  // written on this server after the restore, before any relay ran here: it sorts behind the mark
  const writtenHere = await written({ a: 5 });

  const relay = t.get(OutboxRelayService);
  await Promise.all([relay.relayOnce(), relay.relayOnce(), t.get(OutboxRestoreCheck).onApplicationBootstrap()]);
  await relayAll();

  expect(seenOf('a')).toEqual([`${dueThere[0]}:3`, `${dueThere[1]}:4`, `${writtenHere}:5`]);
  for (const id of relayedThere) expect(await isRelayed(t.db, id)).toBe(true);
  expect(await pastMark()).toBe(0);
  // and a write after the repair is relayed
  const later = await written({ a: 6 });
  await relayAll();
  expect(seenOf('a').slice(3)).toEqual([`${later}:6`]);
});

it('the mark behind the counter but restored rows ahead of it: they are relayed once when the relay is idle, not when the counter catches up', async () => {
  const ahead = await restored(OLD + 10n, { b: 1 });
  const here = await written({ b: 2 });
  const relay = t.get(OutboxRelayService);
  expect(await relay.relayOnce()).toBe(1); // the readable row first, the restored one cannot be read yet
  expect(seenOf('b')).toEqual([`${here}:2`]);
  const before = await mark();
  expect(await relay.relayOnce()).toBe(1); // idle: repaired, then relayed in the same call
  expect(seenOf('b')).toEqual([`${here}:2`, `${ahead}:1`]);
  expect(BigInt((await mark()).xid)).toBeGreaterThan(BigInt(before.xid));
  await relayAll();
  expect(seenOf('b')).toHaveLength(2);
  expect(await pastMark()).toBe(0);
});

it('a server that was never behind is left as it is', async () => {
  const before = await mark();
  await t.get(OutboxRestoreCheck).onApplicationBootstrap();
  expect(await t.get(OutboxRelayService).relayOnce()).toBe(0);
  expect(await mark()).toEqual(before);
});
