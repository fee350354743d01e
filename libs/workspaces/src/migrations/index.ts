// The migrations of workspaces's tables, oldest first (platform's migrate merges every lib's by timestamp).
import { WorkspacesSchema1763856000001 } from './1763856000001-workspaces-schema';
import { KeyLastUse1764300000000 } from './1764300000000-key-last-use';
import { KeyRecheck1765200000000 } from './1765200000000-key-recheck';
import { SignIn1766000000000 } from './1766000000000-sign-in';
import { HistoryWindow1767310000000 } from './1767310000000-history-window';
import { OAuthCodeGrant1767330000000 } from './1767330000000-oauth-code-grant';
import { PostalAddress1767700000000 } from './1767700000000-postal-address';
import { WorkspaceLimits1768023417785 } from './1768023417785-workspace-limits';

export const WORKSPACES_MIGRATIONS = [
  WorkspacesSchema1763856000001,
  KeyLastUse1764300000000,
  KeyRecheck1765200000000,
  SignIn1766000000000,
  HistoryWindow1767310000000,
  OAuthCodeGrant1767330000000,
  PostalAddress1767700000000,
  WorkspaceLimits1768023417785,
];
