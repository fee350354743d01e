import type { MemberRole } from '../workspaces/workspace.entity';

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

export function canManage(auth: AuthContext): boolean {
  return auth.role === 'owner' || auth.role === 'admin';
}
