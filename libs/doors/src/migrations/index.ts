// The migrations of doors's tables, oldest first (platform's migrate merges every lib's by timestamp).
import { DoorsSchema1763856000009 } from './1763856000009-doors-schema';

export const DOORS_MIGRATIONS = [DoorsSchema1763856000009];
