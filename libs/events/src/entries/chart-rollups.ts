// The rollups' fold and rebuild on a plain pg client, for the operator CLI (no Nest or TypeORM).
export { clientTransaction, rebuildRollups } from '../charts/people-rollup';
