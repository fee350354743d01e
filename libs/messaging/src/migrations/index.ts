// The migrations of messaging's tables, oldest first (platform's migrate merges every lib's by timestamp).
import { MessagingSchema1763856000006 } from './1763856000006-messaging-schema';
import { MessageSending1763942400000 } from './1763942400000-message-sending';
import { EmailStanding1767500000000 } from './1767500000000-email-standing';
import { Broadcasts1767700000001 } from './1767700000001-broadcasts';

export const MESSAGING_MIGRATIONS = [
  MessagingSchema1763856000006,
  MessageSending1763942400000,
  EmailStanding1767500000000,
  Broadcasts1767700000001,
];
