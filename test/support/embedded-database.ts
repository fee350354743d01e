// Run as a child process by runtime.e2e-spec.ts (PGlite needs real dynamic import(), which jest's VM lacks):
// resolves the database with nothing answering on the probe port, migrates it, and prints what it saw.
import { Client } from 'pg';
import { freePort, migrate, resolveDatabase } from '@app/platform';
import { MIGRATIONS } from '@app/schema';

async function main() {
  const lines: string[] = [];
  const db = await resolveDatabase({}, process.argv[2], (l) => lines.push(l), { port: await freePort() });
  try {
    await migrate({ databaseUrl: db.url, databasePoolSize: 1 }, MIGRATIONS);
    const client = new Client({ connectionString: db.url });
    await client.connect();
    const tables = await client.query(
      `SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name IN ('people', 'events', 'outbox')`,
    );
    await client.end();
    console.log(JSON.stringify({ embedded: db.embedded, log: lines, tables: tables.rows[0].n }));
  } finally {
    await db.stop();
  }
}

void main();
