import { InitialSchema1763856000000 } from './1763856000000-initial-schema';
import { MessageSending1763942400000 } from './1763942400000-message-sending';

/** Every migration, oldest first. Later issues append here. */
export const MIGRATIONS = [InitialSchema1763856000000, MessageSending1763942400000];
