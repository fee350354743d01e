// Each event row carries its person's first-touch key (docs/decisions.md#charts-from-rollups): written
// by the ingest, rewritten with the person's rows when a first touch is set later or a merge moves rows,
// and named in event_touches; people's touchKeySql computes the same key in the database as touchKey here.
import { WorkspaceEntity, WorkspacesService } from '@app/workspaces';
import { IngestService } from '@app/events';
import { touchKey, touchKeySql, touchParts } from '@app/people';
import { useMedium } from './medium';

const t = useMedium();
let workspace: WorkspaceEntity;
beforeAll(async () => {
  const made = await t.get(WorkspacesService).create({ slug: 'medium-touch', owner: 'owner@example.com' });
  workspace = await t.get(WorkspacesService).get(made.workspace.id);
});

const ingest = (items: unknown[]) => t.get(IngestService).ingest(workspace, items, { publicDoor: false });
const rows = (sql: string, args: unknown[] = []) => t.db.query(sql, [workspace.id, ...args]);
const keysOf = async (personId: string) =>
  (
    await rows(`SELECT DISTINCT touch::text AS touch FROM events WHERE workspace_id = $1 AND person_id = $2`, [
      personId,
    ])
  ).map((r: { touch: string }) => r.touch);
const idOf = (result: unknown) => (result as { id: string }).id;

/** Rows whose key is not their person's first touch's, over the workspace. */
const astray = async () =>
  (
    await rows(`SELECT count(*)::int AS n FROM events e JOIN people p ON p.workspace_id = e.workspace_id AND p.id = e.person_id
                WHERE e.workspace_id = $1 AND e.touch IS DISTINCT FROM ${touchKeySql('p.first_touch')}`)
  )[0].n;

describe('the first-touch key on each event row', () => {
  it('a post with arrival data writes its rows under the first touch it sets, and names the key', async () => {
    const [made] = await ingest([
      {
        type: 'signup',
        email: 'a@example.com',
        source: { utm: { source: 'google', medium: 'cpc', campaign: 'spring' } },
      },
    ]);
    const key = touchKey({ source: 'google', medium: 'cpc', campaign: 'spring' });
    expect(await keysOf(idOf(made))).toEqual([key]);
    expect(
      await rows(
        `SELECT touch::text, source, medium, campaign FROM event_touches WHERE workspace_id = $1 AND touch = $2`,
        [key],
      ),
    ).toEqual([{ touch: key, source: 'google', medium: 'cpc', campaign: 'spring' }]);
    expect(await astray()).toBe(0);
  });

  it('rows written before a first touch is set are rewritten under it in the post that sets it', async () => {
    const [made] = await ingest([
      { type: 'signup', email: 'b@example.com' },
      { type: 'pageview', email: 'b@example.com' },
    ]);
    expect(await keysOf(idOf(made))).toEqual(['0']);
    await ingest([{ type: 'pageview', email: 'b@example.com', source: { referrer: 'https://news.example.org/x' } }]);
    expect(await keysOf(idOf(made))).toEqual([touchKey({ source: 'news.example.org', medium: '', campaign: '' })]);
    expect(await astray()).toBe(0);
  });

  it("a merge moves the absorbed person's rows under the survivor's key", async () => {
    const [older] = await ingest([
      { type: 'signup', email: 'c@example.com', source: { utm: { source: 'newsletter' } } },
    ]);
    const [anon] = await ingest([
      { type: 'pageview', anon_id: 'c-anon', source: { utm: { source: 'ads', campaign: 'x' } } },
    ]);
    expect(await keysOf(idOf(anon))).toEqual([touchKey(touchParts({ source: 'ads', campaign: 'x' }))]);
    const [merged] = await ingest([{ type: 'identify', email: 'c@example.com', anon_id: 'c-anon' }]);
    expect(merged).toMatchObject({ status: 'merged', id: idOf(older) });
    expect(await keysOf(idOf(older))).toEqual([touchKey({ source: 'newsletter', medium: '', campaign: '' })]);
    expect(await astray()).toBe(0);
  });

  it('a batch of many people, some new, some known, leaves no row astray', async () => {
    const items = Array.from({ length: 60 }, (_, i) => ({
      type: i % 3 ? 'pageview' : 'purchase',
      email: `d${i % 20}@example.com`,
      ...(i % 4 === 0 ? { source: { utm: { source: `s${i % 3}`, medium: i % 2 ? 'email' : undefined } } } : {}),
    }));
    await ingest(items);
    await ingest(items.map((item, i) => ({ ...item, anon_id: i % 5 === 0 ? `d-anon-${i % 7}` : undefined })));
    expect(await astray()).toBe(0);
    const unnamed = await rows(`SELECT count(*)::int AS n FROM events e WHERE e.workspace_id = $1 AND e.touch <> 0
                                  AND NOT EXISTS (SELECT 1 FROM event_touches k WHERE k.workspace_id = e.workspace_id AND k.touch = e.touch)`);
    expect(unnamed).toEqual([{ n: 0 }]);
  });
});
