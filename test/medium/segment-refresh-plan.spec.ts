// A refresh outside a post (a fill's chunk, a sweep, one person's unsubscribe) plans its membership statement for
// its own pairs every time, so a pooled connection's prepared statement is never run by a generic plan kept from
// when segment_members was small (docs/decisions.md#the-fill-and-the-sweeps-chunks-in-id-order-after-the-writers-before-it).
import { SegmentMembership } from '@app/events';
import { SegmentsService } from '../../libs/events/src/segments/segments.service';
import { useMedium } from './medium';

const t = useMedium();

interface PreparedCounts {
  generic_plans: string;
  custom_plans: string;
}

it('runs each refresh by a plan of its own, however often its connection ran the statement', async () => {
  const ws = await t.make.workspace();
  await t.get(SegmentsService).create(ws.id, { name: 'trials', definition: { stage: ['trial'] } });
  const people = await Promise.all([1, 2, 3].map((n) => t.make.person(ws.id, { email: `p${n}@example.com` })));
  await t.db.query(`UPDATE people SET stage = 'trial' WHERE workspace_id = $1 AND id = $2`, [ws.id, people[0].id]);
  const membership = t.get(SegmentMembership);
  // One transaction: one connection, on which PostgreSQL moves a prepared statement to a generic plan after five
  // custom ones when it judges the generic no dearer.
  const counts = await t.db.transaction(async (m) => {
    for (let round = 0; round < 8; round++) {
      for (const person of people) await membership.refresh(m, ws.id, [person.id]);
    }
    const rows: PreparedCounts[] = await m.query(
      `SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name LIKE 'segment_refresh_%'`,
    );
    return rows;
  });
  expect(counts).toEqual([{ generic_plans: '0', custom_plans: '24' }]);
  const members = await t.db.query(`SELECT person_id FROM segment_members WHERE workspace_id = $1`, [ws.id]);
  expect(members).toEqual([{ person_id: people[0].id }]);
});
