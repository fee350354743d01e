// The migrations of edge's tables, oldest first (platform's migrate merges every lib's by timestamp).
import { EdgeSchema1763856000002 } from './1763856000002-edge-schema';
import { DoorReceiptAnswers1764400000000 } from './1764400000000-door-receipt-answers';

export const EDGE_MIGRATIONS = [EdgeSchema1763856000002, DoorReceiptAnswers1764400000000];
