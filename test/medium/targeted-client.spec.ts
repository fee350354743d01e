// docs/operations.md#failover: connections to a list of hosts, on a private primary and its streaming standby.
// Each connection tries the hosts in order and keeps the first of the kind target_session_attrs asks for; a
// host that refuses is passed over, a refused database ends the try; none of the kind is a connection failure
// (SQLSTATE 08001). A write that the pool's server refuses as read-only ends that connection.
import { AddressInfo, connect, createServer } from 'node:net';
import { DataSource } from 'typeorm';
import {
  connectionConfig,
  DatabaseUnavailable,
  dataSourceOptions,
  freePort,
  loadConfig,
  migrate,
  Outage,
  TargetedClient,
} from '@app/platform';
import { PrivatePostgres, startPrivatePostgres } from '../support/private-postgres';
import { Replica, startReplica } from '../support/replica';

let primary: PrivatePostgres;
let standby: Replica;
/** A loopback port nothing listens on. */
let closed: number;

beforeAll(async () => {
  primary = await startPrivatePostgres();
  standby = await startReplica(primary);
  closed = await freePort();
}, 120_000);
afterAll(async () => {
  await standby?.remove();
  await primary?.remove();
});

const at = (...ports: number[]) => ports.map((port) => `127.0.0.1:${port}`).join(',');

/** The port of the server a connection to `url` lands on. */
async function landsOn(url: string): Promise<number> {
  const client = new TargetedClient(connectionConfig(url));
  await client.connect();
  try {
    return (await client.query('SELECT inet_server_port() AS port')).rows[0].port;
  } finally {
    await client.end();
  }
}

describe('a connection keeps the first host of the kind asked for', () => {
  it('read-write passes over a standby listed first, and a host that refuses', async () => {
    const url = `postgres://postgres@${at(closed, standby.port, primary.port)}/postgres?target_session_attrs=read-write`;
    expect(await landsOn(url)).toBe(primary.port);
  });

  it('standby and prefer-standby keep the standby wherever it is listed; with no standby up, prefer-standby takes the primary', async () => {
    const hosts = at(primary.port, standby.port);
    expect(await landsOn(`postgres://postgres@${hosts}/postgres?target_session_attrs=standby`)).toBe(standby.port);
    expect(await landsOn(`postgres://postgres@${hosts}/postgres?target_session_attrs=prefer-standby`)).toBe(
      standby.port,
    );
    expect(
      await landsOn(`postgres://postgres@${at(primary.port, closed)}/postgres?target_session_attrs=prefer-standby`),
    ).toBe(primary.port);
  });

  it('any keeps the first host that answers', async () => {
    expect(await landsOn(`postgres://postgres@${at(closed, standby.port, primary.port)}/postgres`)).toBe(standby.port);
  });

  it('no host of the kind is a connection failure naming the hosts, and the client may be dropped', async () => {
    const client = new TargetedClient(
      connectionConfig(`postgres://postgres@${at(closed, standby.port)}/postgres?target_session_attrs=read-write`),
    );
    await expect(client.connect()).rejects.toMatchObject({
      name: 'NoHostFits',
      code: '08001',
      message: `no host of ${at(closed, standby.port).replace(',', ', ')} accepts writes (a primary) just now (a host refused: connect ECONNREFUSED 127.0.0.1:${closed})`,
    });
    await client.end().catch(() => undefined);
  });

  it('a host whose connection ends while it is asked what it is is passed over, with no error left unheard', async () => {
    // in front of the standby: forwards the session until the client asks what the server is, then cuts both ends
    const cutter = createServer((inbound) => {
      const outbound = connect(standby.port, '127.0.0.1');
      outbound.on('error', () => inbound.destroy());
      inbound.on('error', () => outbound.destroy());
      outbound.pipe(inbound);
      inbound.on('data', (chunk: Buffer) => {
        if (chunk.includes('transaction_read_only')) {
          inbound.destroy();
          outbound.destroy();
        } else outbound.write(chunk);
      });
    });
    await new Promise<void>((resolve) => cutter.listen(0, '127.0.0.1', resolve));
    const port = (cutter.address() as AddressInfo).port;
    try {
      const client = new TargetedClient(
        connectionConfig(`postgres://postgres@${at(port, primary.port)}/postgres?target_session_attrs=read-write`),
      );
      const heard: unknown[] = [];
      const emit = client.emit.bind(client);
      client.emit = (name: string | symbol, ...args: unknown[]) => {
        if (name === 'error') heard.push(args[0]);
        return emit(name, ...args);
      };
      await client.connect();
      expect((await client.query('SELECT inet_server_port() AS port')).rows[0].port).toBe(primary.port);
      await client.end();
      expect(heard.map((e) => (e as Error).message)).toEqual(['Connection terminated unexpectedly']);
    } finally {
      cutter.close();
    }
  });

  it('a database that does not exist ends the try at the first host that says so, as libpq does', async () => {
    const client = new TargetedClient(
      connectionConfig(`postgres://postgres@${at(standby.port, primary.port)}/nowhere?target_session_attrs=read-write`),
    );
    await expect(client.connect()).rejects.toMatchObject({ code: '3D000' });
  });
});

describe("the primary's pool on a list", () => {
  let db: DataSource;
  afterEach(() => db?.destroy().catch(() => undefined));

  it('migrates and serves the primary listed second; a connection whose server turns read-only is dropped at its first refused write', async () => {
    const url = `postgres://postgres@${at(standby.port, primary.port)}/listed?target_session_attrs=read-write`;
    const config = loadConfig({ APP_SECRET: 'x'.repeat(40), DATABASE_URL: url, DATABASE_POOL_SIZE: '1' });
    // the standby, tried first, must know the database (a refused database ends the try)
    await primary.tool('psql', ['-d', 'postgres', '-c', 'CREATE DATABASE listed']);
    await standby.caughtUp();
    await migrate(config, []);
    db = await new DataSource(dataSourceOptions(config, new Outage('PostgreSQL listed'))).initialize();
    await db.query('CREATE TABLE marks (n int)');
    expect((await db.query('SELECT inet_server_port() AS port'))[0].port).toBe(primary.port);
    const [{ pid }] = await db.query('SELECT pg_backend_pid() AS pid');

    // the server refuses writes from here on, as a primary being demoted does
    await primary.tool('psql', ['-d', 'listed', '-c', 'ALTER DATABASE listed SET default_transaction_read_only = on']);
    await db.query('SET default_transaction_read_only = on'); // the session's own, as a new session would start
    const refused = await db.query('INSERT INTO marks VALUES (1)').catch((error: unknown) => error);
    expect((refused as { driverError?: unknown }).driverError).toBeInstanceOf(DatabaseUnavailable);

    await primary.tool('psql', ['-d', 'postgres', '-c', 'ALTER DATABASE listed RESET default_transaction_read_only']);
    await db.query('INSERT INTO marks VALUES (2)');
    const [{ pid: next }] = await db.query('SELECT pg_backend_pid() AS pid');
    expect(next).not.toBe(pid);
    expect(await db.query('SELECT n FROM marks')).toEqual([{ n: 2 }]);
  }, 60_000);
});
