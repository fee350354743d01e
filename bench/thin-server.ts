// The thin service: the least a service can do for POST /api/v1/events — node:http and pg, no
// framework, no people, no outbox, no rate limit, no key lookup. Each posted event is one row of a
// minimal events table, written with one prepared INSERT (a batch of 100 with one statement).
// Started by bench/thin.ts as its own process: DATABASE_URL, PORT.
import { randomUUID } from 'node:crypto';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { Pool } from 'pg';

export const THIN_TABLE = `CREATE TABLE thin_events (
  workspace_id text NOT NULL,
  id text NOT NULL,
  occurred_at timestamptz NOT NULL,
  person_id text NOT NULL,
  type text NOT NULL,
  properties jsonb,
  source jsonb,
  received_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, id)
)`;

const COLUMNS = 'workspace_id, id, occurred_at, person_id, type, properties, source';
const ONE = { name: 'thin_one', text: `INSERT INTO thin_events (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)` };
const MANY = {
  name: 'thin_many',
  text: `INSERT INTO thin_events (${COLUMNS})
         SELECT * FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::text[], $5::text[], $6::jsonb[], $7::jsonb[])`,
};

interface Posted {
  type?: string;
  email?: string;
  occurred_at?: string;
  properties?: unknown;
  source?: unknown;
}

function row(workspace: string, event: Posted, now: string): unknown[] {
  return [
    workspace,
    randomUUID(),
    event.occurred_at ?? now,
    event.email ?? 'anonymous',
    event.type ?? 'event',
    JSON.stringify(event.properties ?? null),
    JSON.stringify(event.source ?? null),
  ];
}

function answer(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
}

async function handle(pool: Pool, req: IncomingMessage, res: ServerResponse, text: string): Promise<void> {
  if (req.method === 'GET' && req.url === '/health') return answer(res, 200, { ok: true });
  if (req.method !== 'POST' || req.url !== '/api/v1/events') return answer(res, 404, { ok: false, code: 'not_found' });
  if (!req.headers.authorization) return answer(res, 401, { ok: false, code: 'unauthorized' });
  // One workspace; the key is not looked up (a lookup would be cached anyway).
  const workspace = 'ws_thin';
  const body = JSON.parse(text) as Posted & { events?: Posted[] };
  const now = new Date().toISOString();
  if (!Array.isArray(body.events)) {
    const values = row(workspace, body, now);
    await pool.query({ ...ONE, values });
    return answer(res, 200, { ok: true, status: 'created', id: values[1] });
  }
  const rows = body.events.map((e) => row(workspace, e, now));
  await pool.query({ ...MANY, values: rows[0].map((_, column) => rows.map((r) => r[column])) });
  return answer(res, 200, { ok: true, results: rows.map((r) => ({ ok: true, status: 'created', id: r[1] })) });
}

function main(): void {
  const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      handle(pool, req, res, Buffer.concat(chunks).toString('utf8')).catch((error: Error) =>
        answer(res, 500, { ok: false, code: 'failed', message: error.message }),
      );
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(Number(process.env.PORT), '127.0.0.1');
  const stop = () => {
    server.close(() => void pool.end().then(() => process.exit(0)));
    server.closeAllConnections();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

if (require.main === module) main();
