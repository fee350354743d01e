import { Client } from 'pg';
async function main() {
  const c = new Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
  await c.connect();
  const rows = Array.from({ length: 1000 }, (_, n) => ({ id: `evt_${n}`, person_id: `per_${n}`, type: 'signup', occurred_at: '2026-11-26T10:00:00Z', properties: { plan: 'pro', n, ref: 'abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz' }, detail: 'some detail text here', source: { utm_source: 'google', utm_medium: 'cpc' } }));
  const doc = JSON.stringify({ rows, other: [1, 2, 3] });
  const one = `SELECT (SELECT count(*) FROM jsonb_to_recordset($1::jsonb -> 'rows') x(id text)) AS c`;
  const many = `SELECT (SELECT count(*) FROM jsonb_to_recordset($1::jsonb -> 'rows') x(id text)) + jsonb_array_length($1::jsonb -> 'other') + jsonb_array_length($1::jsonb -> 'other') + jsonb_array_length($1::jsonb -> 'other') + jsonb_array_length($1::jsonb -> 'other') + jsonb_array_length($1::jsonb -> 'other') AS c`;
  const once = `WITH d AS MATERIALIZED (SELECT $1::jsonb AS d) SELECT (SELECT count(*) FROM jsonb_to_recordset((SELECT d FROM d) -> 'rows') x(id text)) + jsonb_array_length((SELECT d FROM d) -> 'other') + jsonb_array_length((SELECT d FROM d) -> 'other') + jsonb_array_length((SELECT d FROM d) -> 'other') + jsonb_array_length((SELECT d FROM d) -> 'other') + jsonb_array_length((SELECT d FROM d) -> 'other') AS c`;
  for (const [name, sql] of [['one', one], ['many', many], ['once', once], ['one', one], ['many', many], ['once', once]] as const) {
    const times: number[] = [];
    for (let i = 0; i < 15; i++) {
      const t = process.hrtime.bigint();
      await c.query({ name: name, text: sql, values: [doc] });
      times.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    times.sort((a, b) => a - b);
    console.log(name, doc.length, 'median ms', times[7].toFixed(2));
  }
  await c.end();
}
main();
