// Workspaces, members and keys (docs/security.md#keys-secrets-and-tenants). No Nest import: the operator
// CLI runs this class as it is (CoreModule provides it with a factory).
import { createHash } from 'node:crypto';
import { Refusal, newId, randomBase62 } from '@app/platform/plain';
import type { AppConfig } from '@app/platform/plain';
import type { AuthContext, SecretKeyOptions } from './auth/auth-context';
import { KeyOwners } from './auth/key-owners';
import { normalizeOriginPattern } from './origin-rule';
import type { WorkspaceEntity } from './workspaces.types';
import type { WorkspaceSettings, WorkspacesRepository } from './workspaces.repository';

// wk_ + 24 base62 public keys; sk_live_ + 32 secret keys, stored as their SHA-256.
export const PUBLIC_KEY_PREFIX = 'wk_';
export const SECRET_KEY_PREFIX = 'sk_live_';

export function generatePublicKey(): string {
  return PUBLIC_KEY_PREFIX + randomBase62(24);
}

export function generateSecretKey(): string {
  return SECRET_KEY_PREFIX + randomBase62(32);
}

export function hashSecretKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function isPublicKeyShape(key: string): boolean {
  return /^wk_[0-9A-Za-z]{24}$/.test(key);
}

export function isSecretKeyShape(key: string): boolean {
  return /^sk_live_[0-9A-Za-z]{32}$/.test(key);
}

export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;

export interface CreatedWorkspace {
  workspace: { id: string; slug: string };
  publicKey: string;
  secretKey: string;
  publicBaseUrl: string;
}

export interface WorkspaceSettingsInput {
  allowedOrigins?: string[];
  trialStage?: boolean;
  downloaderStage?: boolean;
  activationEvents?: string[];
  historyWindowHours?: number;
  /** The broadcasts' footer; an empty string clears it. */
  postalAddress?: string | null;
}

/** The history window's bounds: an hour to a year (docs/decisions.md#history-starts-no-automation). */
const HISTORY_WINDOW_HOURS = { min: 1, max: 365 * 24 } as const;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// Settings changed here apply at once, in other processes within seconds. A key is never taken as live
// without the database saying so for this request: looked up first, or checked by the statement that
// writes the request (authenticate's recheckedByWrite).
const WORKSPACE_CACHE_MS = 5_000;

export class WorkspacesService {
  /** Who owns each key: looked up for every request, or rechecked by the write (authenticate). */
  private readonly keyOwners: KeyOwners;
  /** The workspace reads in flight: requests that find the cached settings expired share one read. */
  private readonly workspaceReads = new Map<string, Promise<WorkspaceEntity | null>>();
  private readonly workspaceCache = new Map<string, { workspace: WorkspaceEntity; until: number }>();
  /** Public keys never change once made. */
  private readonly publicKeys = new Map<string, string>();

  constructor(
    private readonly repository: WorkspacesRepository,
    private readonly config: Pick<AppConfig, 'baseUrl'>,
  ) {
    this.keyOwners = new KeyOwners(repository);
  }

  publicBaseUrl(publicKey: string): string {
    return `${this.config.baseUrl}/api/in/${publicKey}`;
  }

  async create(input: {
    slug: string;
    owner: string;
    origins?: string[];
    web?: boolean;
    name?: string;
  }): Promise<CreatedWorkspace> {
    const slug = input.slug.trim().toLowerCase();
    if (!SLUG_PATTERN.test(slug)) {
      throw new Refusal(
        'invalid_field',
        'slug must be 1 to 40 lowercase letters, digits or dashes, starting and ending with a letter or digit.',
      );
    }
    const owner = input.owner.trim().toLowerCase();
    if (!EMAIL.test(owner)) throw new Refusal('invalid_email', 'owner must be an email address, like owner@acme.test.');
    const allowedOrigins = this.parseOrigins(input.origins ?? []);
    const taken = () => new Refusal('conflict', `A workspace with slug "${slug}" already exists: choose another slug.`);
    if (await this.repository.findBySlug(slug)) throw taken();
    const workspaceId = newId('ws');
    const memberId = newId('mem');
    const publicKey = generatePublicKey();
    const secretKey = generateSecretKey();
    await this.repository.transaction(async (tx) => {
      // Made meanwhile by another process (apis started at once on an empty database each make demo).
      const inserted = await this.repository.insertWorkspace(tx, {
        id: workspaceId,
        slug,
        name: input.name ?? slug,
        publicKey,
        kind: input.web ? 'web' : 'app',
        allowedOrigins,
        trialStage: false,
        downloaderStage: !input.web,
        activationEvents: [],
      });
      if (!inserted) throw taken();
      await this.repository.insertMember(tx, { workspaceId, id: memberId, email: owner, role: 'owner' });
      await this.repository.insertKey(tx, {
        workspaceId,
        id: newId('key'),
        memberId,
        keyHash: hashSecretKey(secretKey),
        hint: secretKey.slice(-4),
      });
    });
    return { workspace: { id: workspaceId, slug }, publicKey, secretKey, publicBaseUrl: this.publicBaseUrl(publicKey) };
  }

  /** Every workspace with its public address (operator CLI). */
  async list() {
    const workspaces = await this.repository.listWorkspaces();
    return workspaces.map((w) => ({
      id: w.id,
      slug: w.slug,
      name: w.name,
      kind: w.kind,
      publicKey: w.publicKey,
      publicBaseUrl: this.publicBaseUrl(w.publicKey),
    }));
  }

  /** The id of the workspace with this slug, or not_found naming the slug. */
  async idOfSlug(slug: string): Promise<string> {
    const workspace = await this.repository.findBySlug(slug);
    if (!workspace) throw new Refusal('not_found', `No workspace has slug "${slug}": check the slug.`);
    return workspace.id;
  }

  /** A workspace's keys as hints (the last four characters), never the secrets. */
  async listKeys(slug: string) {
    const keys = await this.repository.listKeys(await this.idOfSlug(slug));
    return keys.map((k) => ({
      keyId: k.id,
      hint: `sk_live_…${k.hint}`,
      member: k.member_email,
      revoked: k.revoked_at !== null,
      createdAt: k.created_at,
      lastUsedAt: k.last_used_at,
    }));
  }

  /**
   * Sets the request's auth from its bearer key, or refuses: what SecretKeyGuard and every key-authenticated door run.
   */
  async authenticateRequest(
    request: { headers: { authorization?: string }; auth?: AuthContext },
    options: SecretKeyOptions = {},
  ): Promise<void> {
    request.auth = await this.authenticate(request.headers.authorization, options);
  }

  /**
   * The secret-key guard's rules (docs/rest.md#key-authenticated-routes). With \`recheckedByWrite\`, a key
   * this process has seen live is not looked up again: the answer carries \`recheck\`, and the caller must
   * have the statement that writes the post check the key (keyRecheckCte), or call recheck.verify() when
   * it writes nothing, so a revoked key or a removed member is still refused at once.
   */
  async authenticate(authorization: string | undefined, options: SecretKeyOptions = {}): Promise<AuthContext> {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    if (!match) {
      throw new Refusal(
        'invalid_key',
        'Send your secret key as "Authorization: Bearer sk_live_…"; find it in the workspace developer settings.',
      );
    }
    const key = match[1];
    if (key.startsWith(PUBLIC_KEY_PREFIX)) {
      throw new Refusal(
        'invalid_key',
        'That is a public key: public keys belong in the website tag; send a secret key (sk_live_…) from your server.',
      );
    }
    const hash = hashSecretKey(key);
    const known = options.recheckedByWrite ? this.keyOwners.live(hash) : undefined;
    const owner = known ?? (await this.keyOwners.lookUp(hash));
    this.keyOwners.noteUse(owner);
    return {
      workspaceId: owner.workspace_id,
      workspaceSlug: owner.workspace_slug,
      memberId: owner.member_id,
      memberEmail: owner.member_email,
      role: owner.role,
      keyId: owner.key_id,
      ...(known
        ? { recheck: { keyId: owner.key_id, verify: () => this.keyOwners.lookUp(hash).then(() => undefined) } }
        : {}),
    };
  }

  /** Cached as briefly as keys are: settings changed here apply at once, elsewhere within seconds. */
  async get(id: string): Promise<WorkspaceEntity> {
    const cached = this.workspaceCache.get(id);
    if (cached && cached.until > Date.now()) return cached.workspace;
    let read = this.workspaceReads.get(id);
    if (!read) {
      read = this.repository.findById(id).finally(() => this.workspaceReads.delete(id));
      this.workspaceReads.set(id, read);
    }
    const workspace = await read;
    if (!workspace) throw new Refusal('not_found', 'No such workspace.');
    this.workspaceCache.set(id, { workspace, until: Date.now() + WORKSPACE_CACHE_MS });
    return workspace;
  }

  async findByPublicKey(publicKey: string): Promise<WorkspaceEntity | null> {
    const id = this.publicKeys.get(publicKey);
    if (id) return this.get(id);
    const workspace = await this.repository.findByPublicKey(publicKey);
    if (workspace) this.publicKeys.set(publicKey, workspace.id);
    return workspace;
  }

  async updateSettings(workspaceId: string, input: WorkspaceSettingsInput): Promise<WorkspaceEntity> {
    const changes: WorkspaceSettings = {};
    if (input.allowedOrigins) changes.allowedOrigins = this.parseOrigins(input.allowedOrigins);
    if (input.trialStage !== undefined) changes.trialStage = input.trialStage;
    if (input.downloaderStage !== undefined) {
      const workspace = await this.get(workspaceId);
      if (workspace.kind === 'web' && input.downloaderStage) {
        throw new Refusal('invalid_field', 'A web-app workspace has no Downloader stage: leave downloaderStage off.');
      }
      changes.downloaderStage = input.downloaderStage;
    }
    if (input.activationEvents) {
      const bad = input.activationEvents.find((name) => !/^[a-z0-9_]{2,40}$/.test(name));
      if (bad !== undefined) {
        throw new Refusal('invalid_field', `activationEvents: "${bad}" is not an event name (2 to 40 of a-z, 0-9, _).`);
      }
      changes.activationEvents = [...new Set(input.activationEvents)];
    }
    if (input.historyWindowHours !== undefined) changes.historyWindowHours = historyWindow(input.historyWindowHours);
    if (input.postalAddress != null) changes.postalAddress = postalAddress(input.postalAddress);
    this.workspaceCache.delete(workspaceId);
    this.workspaceReads.delete(workspaceId);
    return this.repository.updateSettings(workspaceId, changes);
  }

  private parseOrigins(origins: string[]): string[] {
    return origins.map((raw) => {
      const pattern = normalizeOriginPattern(raw);
      if (!pattern) {
        throw new Refusal(
          'invalid_field',
          `"${raw}" is not an origin: use https://acme.test, https://*.acme.test or http://localhost:*.`,
        );
      }
      return pattern;
    });
  }
}

/** A history window in whole hours, an hour to a year; anything else refused with the bounds. */
function historyWindow(hours: number): number {
  const { min, max } = HISTORY_WINDOW_HOURS;
  if (!Number.isInteger(hours) || hours < min || hours > max)
    throw new Refusal(
      'invalid_field',
      `historyWindowHours must be a whole number of hours from ${min} to ${max} (a year), like 24.`,
      { field: 'historyWindowHours' },
    );
  return hours;
}

/** A postal address of 1 to 500 characters, trimmed; an empty one clears the setting. */
function postalAddress(raw: string): string | null {
  const address = raw.trim();
  if (address.length > 500)
    throw new Refusal('invalid_field', 'postalAddress must be at most 500 characters.', { field: 'postalAddress' });
  return address || null;
}
