// Members and their keys (docs/security.md#keys-secrets-and-tenants): who may change whom is roles.ts.
// No Nest import: the operator CLI runs this class as it is (CoreModule provides it with a factory).
import type { Sql } from '@app/platform/plain';
import { membershipChangeRefusal, MembershipChange, MEMBER_ROLES } from './auth/roles';
import { Refusal, newId } from '@app/platform/plain';
import { generateSecretKey, hashSecretKey } from './workspaces.service';
import type { MemberEntity, MemberRole, WorkspaceEntity } from './workspaces.types';
import type { KeyListRow, WorkspacesRepository } from './workspaces.repository';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The operator at the shell (CLI) acts with an owner's rights. */
export const SHELL_ACTOR: MemberRole = 'owner';

export interface CreatedKey {
  workspace: { id: string; slug: string };
  member: { id: string; email: string; role: MemberRole };
  keyId: string;
  secretKey: string;
}

function parseEmail(raw: string, example: string): string {
  const email = raw.trim().toLowerCase();
  if (!EMAIL.test(email)) throw new Refusal('invalid_email', `member must be an email address, like ${example}.`);
  return email;
}

function parseRole(raw: string): MemberRole {
  if (!(MEMBER_ROLES as readonly string[]).includes(raw))
    throw new Refusal('invalid_field', 'role must be owner, admin or member.');
  return raw as MemberRole;
}

export class MembersService {
  constructor(private readonly repository: WorkspacesRepository) {}

  /** Members still in the workspace, oldest first. */
  async list(workspaceId: string): Promise<MemberEntity[]> {
    return (await this.repository.listMembers(workspaceId)).filter((m) => !m.removedAt);
  }

  keys(workspaceId: string): Promise<KeyListRow[]> {
    return this.repository.listKeys(workspaceId);
  }

  /** A new secret key for a member; the member is added (role member) when not yet in the workspace. */
  async createKey(slug: string, memberEmail: string): Promise<CreatedKey> {
    const workspace = await this.requireWorkspace(slug);
    const email = parseEmail(memberEmail, 'dev@acme.test');
    const secretKey = generateSecretKey();
    const keyId = newId('key');
    const member = await this.repository.transaction(async (tx) => {
      let found = await this.repository.findMember(workspace.id, email, tx);
      if (found?.removedAt) {
        throw new Refusal(
          'no_longer_a_member',
          `${email} was removed from ${slug}: add them back before making a key.`,
        );
      }
      if (!found) {
        await this.repository.insertMember(tx, { workspaceId: workspace.id, id: newId('mem'), email, role: 'member' });
        found = await this.repository.findMember(workspace.id, email, tx);
      }
      await this.repository.insertKey(tx, {
        workspaceId: workspace.id,
        id: keyId,
        memberId: found!.id,
        keyHash: hashSecretKey(secretKey),
        hint: secretKey.slice(-4),
      });
      return found!;
    });
    return {
      workspace: { id: workspace.id, slug },
      member: { id: member.id, email, role: member.role },
      keyId,
      secretKey,
    };
  }

  async revokeKey(workspaceId: string, keyId: string): Promise<void> {
    if (await this.repository.revokeKey(workspaceId, keyId)) return;
    if (!(await this.repository.keyExists(workspaceId, keyId)))
      throw new Refusal('not_found', `No key has id "${keyId}" in this workspace: list them with keys.`);
  }

  /** Adds a member, or brings a removed one back (their old keys stay revoked). */
  async add(actor: MemberRole, slug: string, memberEmail: string, rawRole: string): Promise<MemberEntity> {
    const workspace = await this.requireWorkspace(slug);
    const email = parseEmail(memberEmail, 'dev@acme.test');
    const role = parseRole(rawRole);
    return this.repository.transaction(async (tx) => {
      const found = await this.repository.findMember(workspace.id, email, tx);
      if (found && !found.removedAt)
        throw new Refusal('conflict', `${email} is already a member: use changeRole to change their role.`);
      this.check(actor, { role: 'member' }, { kind: 'role', to: role }, Infinity);
      if (found) await this.repository.restoreMember(tx, workspace.id, found.id, role);
      else await this.repository.insertMember(tx, { workspaceId: workspace.id, id: newId('mem'), email, role });
      return (await this.repository.findMember(workspace.id, email, tx))!;
    });
  }

  async changeRole(actor: MemberRole, slug: string, memberEmail: string, rawRole: string): Promise<MemberEntity> {
    const role = parseRole(rawRole);
    return this.change(actor, slug, memberEmail, { kind: 'role', to: role }, async (tx, workspace, member) => {
      await this.repository.setRole(tx, workspace.id, member.id, role);
      return { ...member, role };
    });
  }

  /** Removes a member and revokes their keys: from the next request on, they answer no_longer_a_member. */
  async remove(actor: MemberRole, slug: string, memberEmail: string) {
    const member = await this.change(actor, slug, memberEmail, { kind: 'remove' }, async (tx, workspace, found) => {
      await this.repository.markMemberRemoved(tx, workspace.id, found.id);
      return found;
    });
    return {
      workspace: { id: member.workspaceId, slug },
      member: { id: member.id, email: member.email, removed: true },
    };
  }

  private async change(
    actor: MemberRole,
    slug: string,
    memberEmail: string,
    change: MembershipChange,
    apply: (tx: Sql, workspace: WorkspaceEntity, member: MemberEntity) => Promise<MemberEntity>,
  ): Promise<MemberEntity> {
    const workspace = await this.requireWorkspace(slug);
    const email = memberEmail.trim().toLowerCase();
    return this.repository.transaction(async (tx) => {
      const owners = await this.repository.lockActiveOwners(tx, workspace.id);
      const member = await this.repository.findMember(workspace.id, email, tx);
      if (!member || member.removedAt)
        throw new Refusal('not_found', `${email} is not a member of ${slug}: check the address.`);
      this.check(actor, member, change, owners.length);
      return apply(tx, workspace, member);
    });
  }

  private check(actor: MemberRole, target: { role: MemberRole }, change: MembershipChange, owners: number): void {
    const refusal = membershipChangeRefusal(actor, target, change, owners);
    if (refusal) throw new Refusal(refusal.code, refusal.sentence);
  }

  private async requireWorkspace(slug: string): Promise<WorkspaceEntity> {
    const workspace = await this.repository.findBySlug(slug);
    if (!workspace) throw new Refusal('not_found', `No workspace has slug "${slug}": check the slug.`);
    return workspace;
  }
}
