// Merges through the merge participants registry (docs/architecture.md#merge-participants): a merge moves
// every context's rows onto the survivor, inside the merge's transaction.
import { MergeParticipants, PeopleRepository, PersonMerge } from '@app/people';
import { useMedium } from './medium';

const t = useMedium();
let ws: string;
beforeAll(async () => {
  ws = (await t.make.workspace()).id;
});

const ownerOf = async (table: string, id: string) =>
  (await t.db.query(`SELECT person_id FROM ${table} WHERE workspace_id = $1 AND id = $2`, [ws, id]))[0].person_id;

describe('a person merge', () => {
  it('has a participant for every context with rows that name a person', () => {
    expect(t.get(MergeParticipants).names()).toEqual(expect.arrayContaining(['events', 'messages', 'automation_runs']));
  });

  it('moves identities, subscriptions, timeline rows and messages of the absorbed person onto the survivor', async () => {
    const survivor = await t.make.person(ws, { email: 'keep@example.com' });
    const absorbed = await t.make.person(ws, { anon_id: 'absorbed-1' });
    const list = await t.make.list(ws);
    await t.make.subscription(ws, list.id, absorbed.id);
    const event = await t.make.event(ws, absorbed.id);
    const message = await t.make.message(ws, absorbed.id);

    await t.db.transaction((m) => t.get(PeopleRepository).moveOnto(m, ws, survivor.id, [absorbed.id]));

    expect(await ownerOf('events', event.id)).toBe(survivor.id);
    expect(await ownerOf('messages', message.id)).toBe(survivor.id);
    const identities = await t.db.query(
      `SELECT i.person_id, i.person_created_at = p.created_at AS survivors_created_at
         FROM identities i JOIN people p ON p.workspace_id = i.workspace_id AND p.id = $2 WHERE i.workspace_id = $1 AND i.value = 'absorbed-1'`,
      [ws, survivor.id],
    );
    expect(identities).toEqual([{ person_id: survivor.id, survivors_created_at: true }]);
    const subscriptions = await t.db.query(
      `SELECT person_id FROM subscriptions WHERE workspace_id = $1 AND list_id = $2`,
      [ws, list.id],
    );
    expect(subscriptions).toEqual([{ person_id: survivor.id }]);
    const [gone] = await t.db.query(`SELECT merged_into FROM people WHERE workspace_id = $1 AND id = $2`, [
      ws,
      absorbed.id,
    ]);
    expect(gone.merged_into).toBe(survivor.id);
  });

  it("moves the absorbed person's automation runs onto the survivor", async () => {
    const survivor = await t.make.person(ws, { email: 'runs@example.com' });
    const absorbed = await t.make.person(ws, { anon_id: 'runs-1' });
    const run = await t.make.run(ws, await t.make.automation(ws), absorbed.id);

    await t.db.transaction((m) => t.get(PeopleRepository).moveOnto(m, ws, survivor.id, [absorbed.id]));

    expect(await ownerOf('automation_runs', run.id)).toBe(survivor.id);
  });

  it('a list both were on keeps the earlier consent', async () => {
    const survivor = await t.make.person(ws, { email: 'later@example.com' });
    const absorbed = await t.make.person(ws, { anon_id: 'earlier-1' });
    const list = await t.make.list(ws);
    await t.make.subscription(ws, list.id, survivor.id, {
      consent_text: 'later',
      granted_at: new Date('2026-02-01T00:00:00Z'),
    });
    await t.make.subscription(ws, list.id, absorbed.id, {
      consent_text: 'earlier',
      granted_at: new Date('2026-01-01T00:00:00Z'),
    });

    await t.db.transaction((m) => t.get(PeopleRepository).moveOnto(m, ws, survivor.id, [absorbed.id]));

    const rows = await t.db.query(
      `SELECT person_id, consent_text FROM subscriptions WHERE workspace_id = $1 AND list_id = $2`,
      [ws, list.id],
    );
    expect(rows).toEqual([{ person_id: survivor.id, consent_text: 'earlier' }]);
  });

  it('a registered participant runs inside the merge transaction, and its failure undoes the whole merge', async () => {
    const seen: PersonMerge[] = [];
    const participants = t.get(MergeParticipants);
    participants.register({
      name: 'test-failing',
      movePeople: async (m, merge) => {
        seen.push(merge);
        // Inside the transaction the people rows already show the merge.
        const [row] = await m.query(`SELECT merged_into FROM people WHERE workspace_id = $1 AND id = $2`, [
          merge.workspaceId,
          merge.absorbedIds[0],
        ]);
        expect(row.merged_into).toBe(merge.survivorId);
        throw new Error('participant failed');
      },
    });
    const survivor = await t.make.person(ws, { email: 'stays@example.com' });
    const absorbed = await t.make.person(ws, { anon_id: 'stays-apart' });
    const event = await t.make.event(ws, absorbed.id);
    try {
      await expect(
        t.db.transaction((m) => t.get(PeopleRepository).moveOnto(m, ws, survivor.id, [absorbed.id])),
      ).rejects.toThrow('participant failed');
    } finally {
      participants.register({ name: 'test-failing', movePeople: async () => undefined });
    }
    expect(seen).toEqual([{ workspaceId: ws, survivorId: survivor.id, absorbedIds: [absorbed.id] }]);
    expect(await ownerOf('events', event.id)).toBe(absorbed.id);
    const [row] = await t.db.query(`SELECT merged_into FROM people WHERE workspace_id = $1 AND id = $2`, [
      ws,
      absorbed.id,
    ]);
    expect(row.merged_into).toBeNull();
  });
});
