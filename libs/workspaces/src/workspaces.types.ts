// The rows of workspaces, members and api_keys as WorkspacesRepository reads and writes them (plain
// data: the repository is SQL, so the CLI runs it without TypeORM). Their columns: workspaces.repository.ts.

export interface WorkspaceEntity {
  id: string;
  slug: string;
  name: string;
  publicKey: string;
  kind: 'app' | 'web';
  allowedOrigins: string[];
  trialStage: boolean;
  downloaderStage: boolean;
  activationEvents: string[];
  /**
   * An event more than this many hours older than its arrival is history
   * (docs/decisions.md#history-starts-no-automation).
   */
  historyWindowHours: number;
  /** The footer of every broadcast (docs/graphql.md#broadcasts); null until an owner or admin sets it. */
  postalAddress: string | null;
  createdAt: Date;
}

export type MemberRole = 'owner' | 'admin' | 'member';

export interface MemberEntity {
  workspaceId: string;
  id: string;
  email: string;
  role: MemberRole;
  removedAt: Date | null;
  createdAt: Date;
}

export interface ApiKeyEntity {
  workspaceId: string;
  id: string;
  memberId: string;
  /** SHA-256 of the whole secret key; the key itself is shown once and never stored. */
  keyHash: string;
  /** The last four characters, to tell keys apart in a list. */
  hint: string;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  createdAt: Date;
}
