// Who may do what in the admin API (docs/graphql.md#roles): the one rule every resolver
// asks, through the Member, Manager and Operator decorators in graphql-auth.guard.ts.
import type { MemberRole } from '../workspaces.types';

/** A member acts through a secret key; the operator through ADMIN_TOKEN. */
export type Caller = MemberRole | 'operator';

/**
 * read: any query of the workspace. change: settings, keys, members, lists, templates, doors,
 * automations and webhooks. create_workspace: the operator only.
 */
export type Permission = 'read' | 'change' | 'create_workspace';

const ALLOWED: Record<Permission, readonly Caller[]> = {
  read: ['owner', 'admin', 'member'],
  change: ['owner', 'admin'],
  create_workspace: ['operator'],
};

export const MEMBER_ROLES: readonly MemberRole[] = ['owner', 'admin', 'member'];

export function roleAllows(caller: Caller, permission: Permission): boolean {
  return ALLOWED[permission].includes(caller);
}

/** The sentence of a forbidden refusal, naming who may do it. */
export function forbiddenSentence(permission: Permission): string {
  if (permission === 'create_workspace') return 'Only the operator (ADMIN_TOKEN) may do this.';
  if (permission === 'change') return 'Only workspace owners and admins may do this: ask one of them.';
  return 'This needs a secret key of the workspace.';
}

export type MembershipChange = { kind: 'remove' } | { kind: 'role'; to: MemberRole };

/**
 * Whether an owner or admin may make this change to a member; null when allowed, else the reason.
 * Only an owner grants or takes away ownership, and a workspace always keeps one owner.
 */
export function membershipChangeRefusal(
  actor: MemberRole,
  target: { role: MemberRole },
  change: MembershipChange,
  activeOwners: number,
): { code: 'forbidden' | 'last_owner'; sentence: string } | null {
  if (!roleAllows(actor, 'change')) return { code: 'forbidden', sentence: forbiddenSentence('change') };
  const grantsOwner = change.kind === 'role' && change.to === 'owner' && target.role !== 'owner';
  if ((target.role === 'owner' || grantsOwner) && actor !== 'owner') {
    return { code: 'forbidden', sentence: 'Only an owner may make or unmake owners: ask an owner of the workspace.' };
  }
  const leavesOwnership = target.role === 'owner' && (change.kind === 'remove' || change.to !== 'owner');
  if (leavesOwnership && activeOwners <= 1) {
    return {
      code: 'last_owner',
      sentence: 'This is the last owner of the workspace: make another member an owner first.',
    };
  }
  return null;
}
