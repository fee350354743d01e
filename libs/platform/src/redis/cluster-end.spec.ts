// A Cluster client disconnected while it waits to reconnect ends (endsWhenDisconnected): BullMQ waits
// for that 'end' to close a worker, and ioredis alone never sends it then.
import { Cluster } from 'ioredis';
import { freePort } from '../runtime/embedded';
import { endsWhenDisconnected } from './redis';

/** A Cluster client of a node that is not there: it fails to connect and waits to try again. */
async function waitingCluster(): Promise<Cluster> {
  const cluster = new Cluster([{ host: '127.0.0.1', port: await freePort() }], { lazyConnect: true });
  cluster.on('error', () => undefined);
  const reconnecting = new Promise((resolve) => cluster.once('reconnecting', resolve));
  cluster.connect().catch(() => undefined);
  await reconnecting;
  return cluster;
}

const ended = (cluster: Cluster, ms: number) =>
  Promise.race([
    new Promise<boolean>((resolve) => cluster.once('end', () => resolve(true))),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms).unref()),
  ]);

it('ioredis alone leaves a Cluster disconnected while it waits to reconnect without an end', async () => {
  const cluster = await waitingCluster();
  const end = ended(cluster, 1_000);
  cluster.disconnect();
  expect(await end).toBe(false);
  expect(cluster.status).toBe('disconnecting');
});

it('endsWhenDisconnected ends it, and fails what it held', async () => {
  const cluster = endsWhenDisconnected(await waitingCluster());
  const held = cluster.get('key').then(
    () => 'answered',
    (error: Error) => error.message,
  );
  const end = ended(cluster, 1_000);
  cluster.disconnect();
  expect(await end).toBe(true);
  expect(cluster.status).toBe('end');
  expect(await held).toMatch(/None of startup nodes is available/);
});
