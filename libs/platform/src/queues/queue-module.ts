// The one registration of a BullMQ queue: its key prefix and connection from the settings,
// so on a Redis Cluster each queue has a hash tag of its own (queuePrefix) and a Cluster client.
import { BullModule } from '@nestjs/bullmq';
import { BeforeApplicationShutdown, DynamicModule, Injectable, OnApplicationShutdown } from '@nestjs/common';
import type { Cluster, RedisOptions } from 'ioredis';
import type { AppConfig } from '../config/config';
import { CONFIG } from '../config/config.token';
import { endsWhenDisconnected, queueConnection, queuePrefix } from '../redis/redis';

/** How long a queue's Cluster client may take to say goodbye at shutdown. */
const QUIT_WAIT_MS = 2_000;
/**
 * How long BullMQ's own shutdown (workers finishing their jobs, then closing) may take on a cluster
 * before the queues' Cluster clients are cut. After a failover a client whose slot map stays stale
 * holds its commands in its offline queue and retries them without end, so a worker's loop waiting on
 * one never ends and neither would the shutdown (a CI run waited past 2 minutes). Cut, the commands
 * fail, the loops end and the workers close; a job cut mid-way is stalled and taken up again.
 */
const CUT_AFTER_MS = 15_000;

/**
 * The Cluster clients of the queues, which BullMQ never closes (it was given them): closed last. Nest
 * shuts the global modules down after the others and, among them, PlatformModule after BullMQ's own
 * (which it imports), so the queues and their workers are closed by then.
 */
@Injectable()
export class QueueConnections implements BeforeApplicationShutdown, OnApplicationShutdown {
  /** The queues' clients and the copies BullMQ makes of them (a worker's blocking client). */
  private readonly clusters: Cluster[] = [];
  private cut?: NodeJS.Timeout;

  open(config: AppConfig): RedisOptions | Cluster {
    const connection = queueConnection(config);
    if (config.redisClusterNodes) this.track(connection as Cluster);
    return connection;
  }

  private track(cluster: Cluster): void {
    this.clusters.push(cluster);
    const duplicate = cluster.duplicate.bind(cluster);
    cluster.duplicate = (...args: Parameters<Cluster['duplicate']>) => {
      const copy = endsWhenDisconnected(duplicate(...args));
      this.track(copy);
      return copy;
    };
  }

  /** Arms the cut: BullMQ closes its workers and queues next (onApplicationShutdown), before this one's. */
  beforeApplicationShutdown(): void {
    if (this.clusters.length === 0) return;
    this.cut = setTimeout(() => this.clusters.forEach((cluster) => cluster.disconnect()), CUT_AFTER_MS);
    this.cut.unref();
  }

  /** QUIT each, but never wait on one past QUIT_WAIT_MS (a node gone mid-failover would hold it): then cut it. */
  async onApplicationShutdown(): Promise<void> {
    clearTimeout(this.cut);
    const waited = () => new Promise<void>((resolve) => setTimeout(resolve, QUIT_WAIT_MS).unref());
    await Promise.all(
      this.clusters.map((cluster) =>
        Promise.race([cluster.quit().catch(() => undefined), waited()]).then(() => cluster.disconnect()),
      ),
    );
  }
}

export function queueModule(name: string): DynamicModule {
  return BullModule.registerQueueAsync({
    name,
    inject: [CONFIG, QueueConnections],
    useFactory: (config: AppConfig, connections: QueueConnections) => ({
      prefix: queuePrefix(config, name),
      connection: connections.open(config),
    }),
  });
}
