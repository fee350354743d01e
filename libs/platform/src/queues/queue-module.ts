// The one registration of a BullMQ queue (issue 30): its key prefix and connection from the settings,
// so on a Redis Cluster each queue has a hash tag of its own (queuePrefix) and a Cluster client.
import { BullModule } from '@nestjs/bullmq';
import { DynamicModule, Injectable, OnApplicationShutdown } from '@nestjs/common';
import type { Cluster, RedisOptions } from 'ioredis';
import type { AppConfig } from '../config/config';
import { CONFIG } from '../config/config.token';
import { queueConnection, queuePrefix } from '../redis/redis';

/** How long a queue's Cluster client may take to say goodbye at shutdown. */
const QUIT_WAIT_MS = 2_000;

/**
 * The Cluster clients of the queues, which BullMQ never closes (it was given them): closed last. Nest
 * shuts the global modules down after the others and, among them, PlatformModule after BullMQ's own
 * (which it imports), so the queues and their workers are closed by then.
 */
@Injectable()
export class QueueConnections implements OnApplicationShutdown {
  private readonly clusters: Cluster[] = [];

  open(config: AppConfig): RedisOptions | Cluster {
    const connection = queueConnection(config);
    if (config.redisClusterNodes) this.clusters.push(connection as Cluster);
    return connection;
  }

  /** QUIT each, but never wait on one past QUIT_WAIT_MS (a node gone mid-failover would hold it): then cut it. */
  async onApplicationShutdown(): Promise<void> {
    const waited = () => new Promise<void>((resolve) => setTimeout(resolve, QUIT_WAIT_MS).unref());
    await Promise.all(this.clusters.map((cluster) => Promise.race([cluster.quit().catch(() => undefined), waited()]).then(() => cluster.disconnect())));
  }
}

export function queueModule(name: string): DynamicModule {
  return BullModule.registerQueueAsync({
    name,
    inject: [CONFIG, QueueConnections],
    useFactory: (config: AppConfig, connections: QueueConnections) => ({ prefix: queuePrefix(config, name), connection: connections.open(config) }),
  });
}
