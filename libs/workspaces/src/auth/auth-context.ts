import type { MemberRole } from '../workspaces.types';
import { roleAllows } from './roles';

/** Who a request acts as: a member of one workspace (through a secret key), or the operator. */
export interface AuthContext {
  workspaceId: string;
  workspaceSlug: string;
  memberId: string;
  memberEmail: string;
  role: MemberRole;
  keyId: string;
  /**
   * Set when the key was taken as live from this process's memory of it (WorkspacesService.authenticate
   * with recheckedByWrite): whatever writes the request must check the key in the same statement
   * (keyRecheckCte), and a request that writes nothing must call verify(), which refuses as the guard does.
   */
  recheck?: KeyRecheck;
}

export interface SecretKeyOptions {
  /**
   * For a door whose writes check its key in the writing statement (keyRecheckCte) and which calls
   * auth.recheck.verify() when it writes nothing: a key this process has seen live is then taken without
   * looking it up. Only for doors that do not read the member's role.
   */
  recheckedByWrite?: boolean;
}

export interface KeyRecheck {
  keyId: string;
  verify(): Promise<void>;
}

/** Owners and admins (roles.ts). */
export function canManage(auth: AuthContext): boolean {
  return roleAllows(auth.role, 'change');
}
