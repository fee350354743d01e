import type { MemberRole } from '../workspaces/workspaces.types';
import { roleAllows } from './roles';

/** Who a request acts as: a member of one workspace (through a secret key), or the operator. */
export interface AuthContext {
  workspaceId: string;
  workspaceSlug: string;
  memberId: string;
  memberEmail: string;
  role: MemberRole;
  keyId: string;
}

export interface OperatorContext {
  operator: true;
}

/** Owners and admins (roles.ts). */
export function canManage(auth: AuthContext): boolean {
  return roleAllows(auth.role, 'change');
}
