// pipelinedTransaction (libs/platform/src/database/pipelined.ts): BEGIN travels with the first statement
// and COMMIT with the one commitWithNext marks, over the real pool's connections, and the transaction
// keeps every promise of one: all or nothing, the connection handed back clean.
import { Client } from 'pg';
import type { EntityManager } from 'typeorm';
import { commitWithNext, pipelinedTransaction } from '@app/platform';
import { Medium, startMedium } from './medium';

let t: Medium;
beforeAll(async () => {
  t = await startMedium();
  await t.db.query(`CREATE TABLE pipe_rows (id int PRIMARY KEY)`);
  await t.db.query(`CREATE TABLE pipe_refs (id int REFERENCES pipe_rows (id) DEFERRABLE INITIALLY DEFERRED)`);
});
afterAll(() => t.close());
beforeEach(() => t.db.query(`TRUNCATE pipe_refs, pipe_rows`));

const ids = async () =>
  ((await t.db.query(`SELECT id FROM pipe_rows ORDER BY id`)) as Array<{ id: number }>).map((r) => r.id);

/** Round trips a piece of work costs: each pg client query is one statement list up to its Sync. */
async function roundTrips<T>(work: () => Promise<T>): Promise<{ trips: number; result?: T; error?: Error }> {
  const spy = jest.spyOn(Client.prototype, 'query');
  try {
    const result = await work();
    return { trips: spy.mock.calls.length, result };
  } catch (error) {
    return { trips: spy.mock.calls.length, error: error as Error };
  } finally {
    spy.mockRestore();
  }
}

/** After the transaction: the pool's connections are out of any transaction, and take statements. */
async function poolIsClean(): Promise<void> {
  const states = await Promise.all(
    Array.from({ length: 4 }, () =>
      t.db.query(`SELECT txid_current_if_assigned() AS x, pg_current_xact_id_if_assigned() IS NULL AS none`),
    ),
  );
  for (const [state] of states) expect(state.none).toBe(true);
}

it('runs a load and a write in two round trips, in one transaction, committed', async () => {
  const { trips, result } = await roundTrips(() =>
    pipelinedTransaction(t.db, async (m: EntityManager) => {
      const [first] = await m.query(`INSERT INTO pipe_rows VALUES (1) RETURNING txid_current() AS x, now() AS at`);
      commitWithNext(m);
      const [last] = await m.query(`INSERT INTO pipe_rows VALUES (2) RETURNING txid_current() AS x, now() AS at`);
      return { first, last };
    }),
  );
  expect(trips).toBe(2);
  expect(result!.last).toEqual(result!.first); // one transaction: one id, one start
  expect(await ids()).toEqual([1, 2]);
  await poolIsClean();
});

it('a failing last statement skips COMMIT and rolls the first statement back', async () => {
  const { trips, error } = await roundTrips(() =>
    pipelinedTransaction(t.db, async (m) => {
      await m.query(`INSERT INTO pipe_rows VALUES (1)`);
      commitWithNext(m);
      await m.query(`INSERT INTO pipe_rows VALUES (1)`); // duplicate key
    }),
  );
  expect(error?.message).toMatch(/duplicate key/);
  expect(trips).toBe(3); // BEGIN + insert, insert (+ COMMIT skipped), ROLLBACK
  expect(await ids()).toEqual([]);
  await poolIsClean();
});

it('a COMMIT that fails (a deferred key) fails the statement it went with, and nothing is written', async () => {
  const { error } = await roundTrips(() =>
    pipelinedTransaction(t.db, async (m) => {
      await m.query(`INSERT INTO pipe_rows VALUES (5)`);
      commitWithNext(m);
      await m.query(`INSERT INTO pipe_refs VALUES (404)`); // checked at COMMIT
    }),
  );
  expect(error?.message).toMatch(/foreign key/);
  expect(await ids()).toEqual([]);
  expect(await t.db.query(`SELECT count(*)::int AS n FROM pipe_refs`)).toEqual([{ n: 0 }]);
  await poolIsClean();
});

it('refuses a statement after the one that carried COMMIT (it would run outside the transaction)', async () => {
  const { error } = await roundTrips(() =>
    pipelinedTransaction(t.db, async (m) => {
      commitWithNext(m);
      await m.query(`INSERT INTO pipe_rows VALUES (7)`);
      await m.query(`INSERT INTO pipe_rows VALUES (8)`);
    }),
  );
  expect(error?.message).toMatch(/after its transaction committed/);
  expect(await ids()).toEqual([7]); // the transaction itself had committed
  await poolIsClean();
});

it('without commitWithNext, COMMIT goes at the end; an error rolls back; work that sent nothing sends nothing', async () => {
  const committed = await roundTrips(() =>
    pipelinedTransaction(t.db, async (m) => {
      await m.query(`INSERT INTO pipe_rows VALUES (1)`);
      await m.query(`INSERT INTO pipe_rows VALUES (2)`);
    }),
  );
  expect(committed.trips).toBe(3);
  const failed = await roundTrips(() =>
    pipelinedTransaction(t.db, async (m) => {
      await m.query(`INSERT INTO pipe_rows VALUES (3)`);
      throw new Error('changed its mind');
    }),
  );
  expect(failed.error?.message).toBe('changed its mind');
  const idle = await roundTrips(() =>
    pipelinedTransaction(t.db, async () => {
      throw new Error('before any statement');
    }),
  );
  expect(idle).toEqual({ trips: 0, error: new Error('before any statement') });
  expect(await ids()).toEqual([1, 2]);
  await poolIsClean();
});

it("commitWithNext outside a pipelined transaction is refused, in TypeORM's own transaction too", async () => {
  expect(() => commitWithNext(t.db.manager)).toThrow(/not inside a pipelinedTransaction/);
  await expect(t.db.transaction(async (m) => commitWithNext(m))).rejects.toThrow(/not inside a pipelinedTransaction/);
  await poolIsClean();
});
