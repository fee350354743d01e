// The heartbeat counts each post in the row of its minute. The minute's name is
// made once a minute (a batch counts 100 items); a count in the next minute starts the next row.
import { HeartbeatService } from '@app/events';
import { Medium, startMedium } from './medium';

let t: Medium;
beforeAll(async () => {
  t = await startMedium();
});
afterAll(() => t.close());

/** Runs `work` with the clock at `ms` (Date.now, which the heartbeat reads). */
function at(ms: number, work: () => void): void {
  const now = jest.spyOn(Date, 'now').mockReturnValue(ms);
  try {
    work();
  } finally {
    now.mockRestore();
  }
}

/** The heartbeat rows of a workspace since `since`, as [minute, count]. */
async function minutes(
  heartbeat: HeartbeatService,
  workspaceId: string,
  since: number,
): Promise<Array<[string, number]>> {
  const rows = await heartbeat.read(workspaceId, new Date(since));
  return rows.map((r) => [new Date(r.minute).toISOString(), Number(r.count)]);
}

it('counts into the row of the minute the item came in, across a minute boundary', async () => {
  const ws = await t.make.workspace();
  const heartbeat = t.get(HeartbeatService);
  const minute = Date.parse('2026-11-24T10:15:00.000Z');
  const count = () => heartbeat.count(ws.id, 'event', 'recorded', 'server');
  at(minute + 59_999, () => (count(), count()));
  at(minute + 60_000, count);
  at(minute - 1, count);
  await heartbeat.flush();
  expect(await minutes(heartbeat, ws.id, minute - 3_600_000)).toEqual([
    ['2026-11-24T10:16:00.000Z', 1],
    ['2026-11-24T10:15:00.000Z', 2],
    ['2026-11-24T10:14:00.000Z', 1],
  ]);
});

it('a flush called while another is saving resolves only after the counts it took are in the table', async () => {
  const ws = await t.make.workspace();
  const heartbeat = t.get(HeartbeatService);
  // Another session holds the table, so the first flush's insert waits while a reader's flush runs.
  const holder = t.db.createQueryRunner();
  await holder.connect();
  await holder.startTransaction();
  await holder.query('LOCK TABLE heartbeat IN EXCLUSIVE MODE');
  try {
    heartbeat.count(ws.id, 'event', 'recorded', 'server');
    const first = heartbeat.flush(); // the timer's flush: it takes the count from memory, then waits on the lock
    let readerDone = false;
    const reader = heartbeat.flush().then(() => (readerDone = true)); // nothing left in memory, yet it waits for the first
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(readerDone).toBe(false);
    await holder.commitTransaction();
    await Promise.all([first, reader]);
  } finally {
    if (holder.isTransactionActive) await holder.rollbackTransaction();
    await holder.release();
  }
  const rows = await heartbeat.read(ws.id, new Date(Date.now() - 3_600_000));
  expect(rows.map((r) => Number(r.count))).toEqual([1]);
});

it('a flush that fails keeps every count, each in its own minute, for the next flush', async () => {
  const ws = await t.make.workspace();
  const heartbeat = t.get(HeartbeatService);
  const minute = Date.parse('2026-11-24T11:15:00.000Z');
  at(minute, () => {
    heartbeat.count(ws.id, 'event', 'recorded', 'server', 40);
    heartbeat.count(ws.id, 'event', 'recorded', 'server');
  });
  await t.db.query('ALTER TABLE heartbeat RENAME TO heartbeat_away');
  try {
    await heartbeat.flush(); // fails: no such table
  } finally {
    await t.db.query('ALTER TABLE heartbeat_away RENAME TO heartbeat');
  }
  heartbeat.count(ws.id, 'event', 'recorded', 'server', 2);
  await heartbeat.flush();
  expect(await minutes(heartbeat, ws.id, minute - 3_600_000)).toEqual([
    [new Date(Math.floor(Date.now() / 60_000) * 60_000).toISOString(), 2],
    ['2026-11-24T11:15:00.000Z', 41],
  ]);
});
