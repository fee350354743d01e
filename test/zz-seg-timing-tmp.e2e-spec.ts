import { HotDoors } from '@app/edge';
import { useApp } from './harness';
import { basicAuth, nativeItem, segmentMessage, SegmentFact } from './support/segment';
const t = useApp();
function facts(way: string, from: number): SegmentFact[] {
  return Array.from({ length: 100 }, (_, j) => { const i = from + j; const userId = `${way}-p${i}`; const at = new Date();
    return i % 3 === 0 ? { call: 'identify', userId, at, traits: { email: `${userId}@b.test`, name: 'x', plan: 'pro' } } : { call: 'track', userId, at, event: 'Report Built', properties: { n: i } }; });
}
const xacts = async () => Number((await t.db.query(`SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()`))[0].n);
it('timing', async () => {
  const ws = await t.workspace();
  for (const way of ['native', 'segment', 'native', 'segment']) {
    const started = Date.now();
    const x0 = await xacts(); const h0 = t.app.get(HotDoors).answered;
    let k = 0;
    await Promise.all(Array.from({ length: 16 }, async () => {
      while (k < 160) {
        const n = k++;
        const f = facts(way + started, n * 100);
        const ids = f.map((_, j) => `m-${way}-${started}-${n}-${j}`);
        const r = way === 'native'
          ? await t.request('POST', '/api/v1/events', { key: ws.secretKey, body: { events: f.map((x, j) => nativeItem(x, ids[j])) } })
          : await t.request('POST', '/v1/batch', { headers: { authorization: basicAuth(ws.secretKey) }, body: { batch: f.map((x, j) => segmentMessage(x, ids[j])), sentAt: new Date().toISOString() } });
        if (r.status !== 200) throw new Error(JSON.stringify(r.body).slice(0, 300));
      }
    }));
    await new Promise((r) => setTimeout(r, 1000));
    console.log(way, (Date.now() - started - 1000) / 160, 'ms per batch', (await xacts()) - x0, 'xacts', t.app.get(HotDoors).answered - h0, 'hot');
  }
}, 120_000);
