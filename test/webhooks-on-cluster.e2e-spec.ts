// The webhook and rate-limit suites again, on a Redis Cluster of three masters and
// three replicas (test/support/redis-cluster.ts). The webhook suite's test of a Redis stopped and
// started names a Redis of its own (a proxy in front of one server) and keeps it.
import { onRedisCluster } from './support/redis-cluster';

onRedisCluster(() => {
  require('./webhooks.e2e-spec');
  require('./medium/rate-limits.spec');
});
