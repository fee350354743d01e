// The automation suite again, on a Redis Cluster of three masters and three replicas
// (test/support/redis-cluster.ts).
import { onRedisCluster } from './support/redis-cluster';

onRedisCluster(() => {
  require('./automations.e2e-spec');
});
