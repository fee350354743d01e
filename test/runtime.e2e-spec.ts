// Running it (docs/decisions.md#running-it): embedded fallbacks, the start-up refusal, the CLI, migrations.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Client } from 'pg';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import {
  commandDatabaseUrl,
  ConfigError,
  dataSourceOptions,
  freePort,
  migrate,
  REDIS_FIXES,
  resolveDatabase,
  resolveRedis,
} from '@app/platform';
import { MIGRATIONS } from '@app/schema';
import { dropDatabase, testConfig } from './harness';

const run = promisify(execFile);
const root = resolve(__dirname, '..');
const silent = () => undefined;

/** The operator CLI against a database of the block's own (made by the CLI's migrations, dropped after). */
function useCli(baseUrl: string) {
  let databaseUrl: string;
  let database: string;
  beforeAll(async () => {
    const made = await testConfig();
    databaseUrl = made.config.databaseUrl;
    database = made.database;
  });
  afterAll(() => dropDatabase(database));
  return (args: string[], env: Record<string, string | undefined> = {}, nodeArgs: string[] = []) =>
    run(process.execPath, [...nodeArgs, 'scripts/run.js', 'apps/api/src/cli', ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl, BASE_URL: baseUrl, ...env },
    }).catch((error) => error) as Promise<{ stdout: string; stderr: string; code?: number }>;
}

describe('embedded fallbacks when nothing answers and the URL is unset', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'lifeline-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('runs on embedded PGlite in .data/pg, with the whole schema migrated', async () => {
    const { stdout } = await run(
      process.execPath,
      ['-r', '@swc-node/register', 'test/support/embedded-database.ts', dataDir],
      { cwd: root },
    );
    const seen = JSON.parse(stdout.trim().split('\n').pop()!);
    expect(seen.embedded).toBe(true);
    expect(seen.log.join('\n')).toMatch(/embedded PGlite in .*pg \(one connection\)/);
    expect(seen.tables).toBe(3);
  }, 600_000); // a new PGlite data folder takes minutes to initialise on a busy machine

  it('starts a redis-server from PATH with its data in .data/redis', async () => {
    const lines: string[] = [];
    const redis = await resolveRedis({ PATH: process.env.PATH }, dataDir, (l) => lines.push(l), {
      port: await freePort(),
    });
    try {
      expect(redis.embedded).toBe(true);
      expect(lines.join('\n')).toContain(join(dataDir, 'redis'));
      const client = new Redis(redis.url);
      expect(await client.ping()).toBe('PONG');
      await client.quit();
    } finally {
      await redis.stop();
    }
  });

  it('with no redis-server on PATH, stops with the sentence naming the three fixes', async () => {
    const attempt = resolveRedis({ PATH: dataDir }, dataDir, silent, { port: await freePort() });
    await expect(attempt).rejects.toThrow(ConfigError);
    await expect(resolveRedis({ PATH: dataDir }, dataDir, silent, { port: await freePort() })).rejects.toThrow(
      REDIS_FIXES,
    );
    expect(REDIS_FIXES).toMatch(/install Redis.*REDIS_URL.*docker compose up -d/);
  });

  it('a URL that is set is used as given, never replaced by a fallback', async () => {
    const db = await resolveDatabase({ DATABASE_URL: 'postgres://u@db.example:5432/x' }, dataDir, silent);
    expect(db).toMatchObject({ url: 'postgres://u@db.example:5432/x', embedded: false });
  });
});

describe('configuration is validated at start', () => {
  it('a wrong setting stops start-up with one sentence naming it', async () => {
    const attempt = run(process.execPath, ['-r', '@swc-node/register', 'apps/api/src/main.ts'], {
      cwd: root,
      env: { ...process.env, PORT: 'eighty', APP_SECRET: 'x'.repeat(40) },
    });
    await expect(attempt).rejects.toMatchObject({
      code: 78,
      stderr: expect.stringContaining('PORT must be a whole number from 0 to 65535, not "eighty".'),
    });
  }, 120_000);

  it('production without APP_SECRET refuses to start', async () => {
    const attempt = run(process.execPath, ['-r', '@swc-node/register', 'apps/worker/src/main.ts'], {
      cwd: root,
      env: { ...process.env, NODE_ENV: 'production', APP_SECRET: '' },
    });
    await expect(attempt).rejects.toMatchObject({
      code: 78,
      stderr: expect.stringContaining('APP_SECRET is required when NODE_ENV=production'),
    });
  }, 120_000);

  it.each(['api', 'worker'])(
    'the %s warns at start while UNSAFE_ALLOW_PRIVATE_TARGETS is on',
    async (app) => {
      const child = spawn(process.execPath, ['-r', '@swc-node/register', `apps/${app}/src/main.ts`], {
        cwd: root,
        env: {
          ...process.env,
          UNSAFE_ALLOW_PRIVATE_TARGETS: 'true',
          NODE_ENV: 'development',
          APP_SECRET: 'x'.repeat(40),
        },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      try {
        await new Promise<void>((resolve, reject) => {
          child.stderr!.on('data', (chunk) => {
            stderr += chunk;
            if (stderr.includes('UNSAFE_ALLOW_PRIVATE_TARGETS is on')) resolve();
          });
          child.on('exit', () => reject(new Error(`exited without the warning: ${stderr}`)));
        });
      } finally {
        child.kill('SIGKILL');
      }
      expect(stderr).toContain('outgoing posts may reach private addresses and plain http. For tests only.');
    },
    120_000,
  );
});

describe('operator CLI prints exactly one JSON line', () => {
  const raw = useCli('https://lifeline.example');
  const cli = async (...args: string[]) => {
    const { stdout } = await raw(args);
    const lines = stdout.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    return JSON.parse(lines[0]);
  };

  it('workspace create, key create and member remove', async () => {
    const created = await cli(
      'workspace',
      'create',
      '--slug',
      'acme',
      '--owner',
      'a@acme.test',
      '--origin',
      'https://acme.test',
      '--web',
    );
    expect(Object.keys(created).sort()).toEqual(['publicBaseUrl', 'publicKey', 'secretKey', 'workspace']);
    expect(created.workspace).toEqual({ id: expect.stringMatching(/^ws_/), slug: 'acme' });
    expect(created.publicKey).toMatch(/^wk_[0-9A-Za-z]{24}$/);
    expect(created.secretKey).toMatch(/^sk_live_[0-9A-Za-z]{32}$/);
    expect(created.publicBaseUrl).toBe(`https://lifeline.example/api/in/${created.publicKey}`);

    const key = await cli('key', 'create', '--workspace', 'acme', '--member', 'dev@acme.test');
    expect(key.secretKey).toMatch(/^sk_live_/);
    expect(key.member).toMatchObject({ email: 'dev@acme.test', role: 'member' });

    const removed = await cli('member', 'remove', '--workspace', 'acme', '--member', 'dev@acme.test');
    expect(removed.member).toMatchObject({ email: 'dev@acme.test', removed: true });
    const lastOwner = await cli('member', 'remove', '--workspace', 'acme', '--member', 'a@acme.test');
    expect(lastOwner).toMatchObject({ ok: false, error: 'last_owner' });

    const again = await cli('workspace', 'create', '--slug', 'acme', '--owner', 'a@acme.test');
    expect(again).toMatchObject({ ok: false, error: 'conflict' });
  }, 240_000);
});

describe('CLI help, lists and addresses', () => {
  const raw = useCli('');

  it('--help and help COMMAND print usage and exit 0; a wrong option is a refusal naming the usage', async () => {
    const help = await raw(['--help']);
    expect(help.code).toBeUndefined();
    for (const command of ['workspace create', 'workspace list', 'key create', 'key list', 'member remove'])
      expect(help.stdout).toContain(command);
    const one = await raw(['help', 'key', 'list']);
    expect(one.stdout).toMatch(/^Usage: npm run -s cli -- key list --workspace SLUG\n/);
    const wrong = await raw(['key', 'list', '--workspace', 'x', '--colour', 'red']);
    expect(wrong.code).toBe(1);
    expect(JSON.parse(wrong.stdout)).toMatchObject({
      ok: false,
      error: 'invalid_field',
      message: expect.stringContaining('usage is key list --workspace SLUG'),
    });
  }, 240_000);

  it('workspace list and key list show hints, never secrets; publicBaseUrl follows PORT when BASE_URL is unset', async () => {
    const created = JSON.parse(
      (await raw(['workspace', 'create', '--slug', 'listed', '--owner', 'o@listed.test'], { PORT: '4321' })).stdout,
    );
    expect(created.publicBaseUrl).toBe(`http://localhost:4321/api/in/${created.publicKey}`);
    const list = JSON.parse((await raw(['workspace', 'list'], { BASE_URL: 'https://x.example' })).stdout);
    expect(list.workspaces).toEqual([
      expect.objectContaining({
        slug: 'listed',
        publicKey: created.publicKey,
        publicBaseUrl: `https://x.example/api/in/${created.publicKey}`,
      }),
    ]);
    const keys = (await raw(['key', 'list', '--workspace', 'listed'])).stdout;
    expect(JSON.parse(keys).keys).toEqual([
      expect.objectContaining({
        member: 'o@listed.test',
        hint: `sk_live_…${created.secretKey.slice(-4)}`,
        revoked: false,
      }),
    ]);
    expect(keys).not.toContain(created.secretKey);
  }, 240_000);

  it('a call loads pg and the operator entry of workspaces, not Nest, TypeORM, GraphQL, Redis or swc (dist/ fresh)', async () => {
    require('../scripts/build').build({ changed: true });
    const answer = await raw(['key', 'list', '--workspace', 'listed'], {}, ['-r', './test/support/loaded-packages.js']);
    expect(JSON.parse(answer.stdout).keys).toHaveLength(1); // after the test above made the workspace
    const loaded = JSON.parse(answer.stderr.trim().split('\n').pop()!) as { modules: number; packages: string[] };
    expect(
      loaded.packages.filter((p) => /^(@nestjs\/|typeorm$|graphql|ioredis$|bullmq$|rxjs$|@swc\/)/.test(p)),
    ).toEqual([]);
    expect(loaded.packages).toContain('pg');
    expect(loaded.modules).toBeLessThan(200); // through a lib's index a call loaded ~2,000
  }, 240_000);

  it('a stale .data/pg.url from an ended embedded run is removed and explained', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lifeline-stale-'));
    try {
      writeFileSync(join(dir, 'pg.url'), `postgres://postgres@127.0.0.1:${await freePort()}/postgres`);
      const attempt = commandDatabaseUrl({}, dir, { port: await freePort() });
      await expect(attempt).rejects.toThrow(
        /no longer runs and nothing answers on 127\.0\.0\.1:\d+: start the service with `npm start` first/,
      );
      expect(existsSync(join(dir, 'pg.url'))).toBe(false);
      writeFileSync(join(dir, 'pg.url'), `postgres://postgres@127.0.0.1:${await freePort()}/postgres`);
      expect(await commandDatabaseUrl({}, dir, { port: 5432 })).toBeUndefined(); // a PostgreSQL answers: the default is used
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an unreachable database is one sentence naming DATABASE_URL', async () => {
    const answer = await raw(['workspace', 'list'], {
      DATABASE_URL: `postgres://postgres@127.0.0.1:${await freePort()}/x`,
    });
    expect(answer.code).toBe(1);
    expect(JSON.parse(answer.stdout)).toEqual({
      ok: false,
      error: 'invalid_config',
      message: expect.stringMatching(
        /^PostgreSQL at 127\.0\.0\.1:\d+ cannot be reached \(nothing accepts connections there\): start PostgreSQL, or set DATABASE_URL/,
      ),
    });
  }, 240_000);
});

describe('migrations under the advisory lock', () => {
  it('ten processes migrating one empty database at once: it is migrated exactly once and all succeed', async () => {
    const { config, database } = await testConfig();
    try {
      require('../scripts/build').build({ changed: true });
      const runs = await Promise.all(
        Array.from({ length: 10 }, () =>
          run(process.execPath, ['dist/apps/api/src/migrate.js'], {
            cwd: root,
            env: { ...process.env, DATABASE_URL: config.databaseUrl },
          }),
        ),
      );
      const outputs = runs.map((r) => r.stdout);
      expect(outputs.filter((o) => /Ran \d+ migration\(s\)/.test(o))).toHaveLength(1);
      expect(outputs.filter((o) => o.includes('The database is up to date.'))).toHaveLength(9);
      const client = new Client({ connectionString: config.databaseUrl });
      await client.connect();
      const rows = (await client.query('SELECT name FROM migrations')).rows.map((r) => r.name);
      await client.end();
      expect(rows.sort()).toEqual(MIGRATIONS.map((m) => m.name).sort());
    } finally {
      await dropDatabase(database);
    }
  }, 180_000);

  it('npm run migrate -- --show and -- --revert', async () => {
    const { config, database } = await testConfig();
    const migrateCmd = (...args: string[]) =>
      run(process.execPath, ['scripts/run.js', 'apps/api/src/migrate', ...args], {
        cwd: root,
        env: { ...process.env, DATABASE_URL: config.databaseUrl },
      });
    try {
      await migrate(config, MIGRATIONS);
      const newest = MIGRATIONS[MIGRATIONS.length - 1].name;
      expect((await migrateCmd('--revert')).stdout).toBe(`Reverted ${newest}.\n`);
      const shown = (await migrateCmd('--show')).stdout.trim().split('\n');
      expect(shown).toEqual(MIGRATIONS.map((m) => `[${m.name === newest ? ' ' : 'x'}] ${m.name}`));
      expect((await migrateCmd()).stdout).toBe(`Ran 1 migration(s): ${newest}.\n`);
    } finally {
      await dropDatabase(database);
    }
  }, 120_000);
});

describe('migrations', () => {
  it('round trip: up on an empty database, down, up again', async () => {
    const { config, database } = await testConfig();
    try {
      const all = MIGRATIONS.map((m) => m.name);
      expect(await migrate(config, MIGRATIONS)).toEqual(all);
      expect(await migrate(config, MIGRATIONS)).toEqual([]);
      const ds = new DataSource({ ...dataSourceOptions(config), migrations: MIGRATIONS, extra: { max: 1 } });
      await ds.initialize();
      const tables = async () =>
        (
          await ds.query(
            `SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public' AND table_name <> 'migrations'`,
          )
        )[0].n;
      expect(await tables()).toBeGreaterThanOrEqual(20);
      for (let i = 0; i < all.length; i++) await ds.undoLastMigration();
      expect(await tables()).toBe(0);
      await ds.destroy();
      expect(await migrate(config, MIGRATIONS)).toEqual(all);
    } finally {
      await dropDatabase(database);
    }
  });

  it('a database migrated before the core split migrates on with no change: the split pieces count as run', async () => {
    const { config, database } = await testConfig();
    const client = new Client({ connectionString: config.databaseUrl });
    try {
      await migrate(config, MIGRATIONS);
      await client.connect();
      const schema = async () =>
        (
          await client.query(
            `SELECT table_name, column_name, data_type, is_nullable, column_default FROM information_schema.columns WHERE table_schema = 'public' ORDER BY 1, 2`,
          )
        ).rows
          .concat((await client.query(`SELECT indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1`)).rows)
          .concat(
            (
              await client.query(
                `SELECT relname, reloptions FROM pg_class WHERE relnamespace = 'public'::regnamespace AND reloptions IS NOT NULL ORDER BY 1`,
              )
            ).rows,
          );
      const before = await schema();
      // The migrations table as the code before the split left it: one InitialSchema, one EventsPersonKey.
      const split = MIGRATIONS.filter((m) => (m as { splitFrom?: string }).splitFrom);
      await client.query(`DELETE FROM migrations WHERE name = ANY($1)`, [split.map((m) => m.name)]);
      await client.query(
        `INSERT INTO migrations (timestamp, name) VALUES (1763856000000, 'InitialSchema1763856000000'), (1765300000000, 'EventsPersonKey1765300000000')`,
      );
      expect(await migrate(config, MIGRATIONS)).toEqual([]);
      const names = (await client.query('SELECT name FROM migrations')).rows.map((r) => r.name);
      expect(names.sort()).toEqual(MIGRATIONS.map((m) => m.name).sort());
      expect(await schema()).toEqual(before);
    } finally {
      await client.end().catch(() => undefined);
      await dropDatabase(database);
    }
  });
});
