import { InitialSchema1763856000000 } from './1763856000000-initial-schema';

/** Every migration, oldest first. Later issues append here. */
export const MIGRATIONS = [InitialSchema1763856000000];
