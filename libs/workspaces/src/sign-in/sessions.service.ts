// People's sessions. A member signs in with a secret key, a one-time email link, or
// the operator's ADMIN_TOKEN; the session is an opaque token in a cookie, stored hashed, read with its
// member and key on every request (sessions.repository.ts), ended by sign-out, 12 hours idle or 7 days.
import { AppConfig, newId, Refusal, sameSecret } from '@app/platform/plain';
import type { AuthContext } from '../auth/auth-context';
import type { WorkspacesService } from '../workspaces.service';
import { Membership, SessionRow, SessionsRepository } from './sessions.repository';
import {
  newToken,
  SESSION_MAX_MS,
  SESSION_SEEN_EVERY_MS,
  sessionRefusal,
  SIGN_IN_LINK_MS,
  tokenHash,
} from './sign-in-rules';

/** The time sessions and tokens are judged by; the e2e tests move it forward ("a test clock"). */
export class SignInClock {
  private offset = 0;

  now(): Date {
    return new Date(Date.now() + this.offset);
  }

  advance(ms: number): void {
    this.offset += ms;
  }
}

/** Who a live session is: a member of a workspace, a person yet to pick one, or the operator. */
export interface SignedIn {
  sessionId: string;
  via: SessionRow['via'];
  email: string | null;
  operator: boolean;
  /** Set once the session acts in a workspace. */
  auth: AuthContext | null;
}

const INVALID_KEY = 'That is not a live secret key: copy it again from the workspace developer settings.';

export class SessionsService {
  constructor(
    private readonly repository: SessionsRepository,
    private readonly workspaces: WorkspacesService,
    private readonly config: AppConfig,
    private readonly clock: SignInClock,
  ) {}

  /** A session acting as the key's member; refused as the key would be. Returns the cookie's token. */
  async withKey(key: string): Promise<string> {
    const auth = await this.workspaces.authenticate(`Bearer ${key.trim()}`).catch((error: unknown) => {
      throw error instanceof Refusal ? new Refusal('invalid_key', INVALID_KEY) : error;
    });
    return this.open({
      via: 'key',
      email: auth.memberEmail,
      workspaceId: auth.workspaceId,
      memberId: auth.memberId,
      keyId: auth.keyId,
    });
  }

  /** The operator's session, when `token` is ADMIN_TOKEN (compared in constant time). */
  async asOperator(token: string): Promise<string> {
    const admin = this.config.adminToken;
    if (!admin || !sameSecret(token.trim(), admin))
      throw new Refusal('invalid_token', 'That is not the operator token (ADMIN_TOKEN) of this deployment.');
    return this.open({
      via: 'operator',
      email: null,
      workspaceId: null,
      memberId: null,
      keyId: null,
      operatorHash: tokenHash(admin),
    });
  }

  /**
   * A one-time link for this address, or null when it is no member's (the page answers the same
   * either way, so the form does not tell who is a member). The caller sends or logs it.
   */
  async linkFor(email: string, next: string): Promise<string | null> {
    const address = email.trim().toLowerCase();
    if ((await this.repository.memberships(address)).length === 0) return null;
    const token = newToken('link');
    const now = this.clock.now();
    await this.repository.insertLink({
      tokenHash: tokenHash(token),
      email: address,
      next,
      now,
      expiresAt: new Date(now.getTime() + SIGN_IN_LINK_MS),
    });
    return token;
  }

  /**
   * Uses a link once: a session for its address (in its only workspace, if it has one: picked), and where the link
   * leads.
   */
  async withLink(token: string): Promise<{ token: string; next: string; picked: boolean }> {
    const link = await this.repository.useLink(tokenHash(token), this.clock.now());
    if (!link)
      throw new Refusal(
        'invalid_token',
        'This sign-in link was used already or has run out (links work once, for 15 minutes): ask for a new one.',
      );
    const memberships = await this.repository.memberships(link.email);
    if (memberships.length === 0)
      throw new Refusal('forbidden', 'This address is no longer a member of any workspace.');
    const only = memberships.length === 1 ? memberships[0] : null;
    const session = await this.open({
      via: 'email',
      email: link.email,
      workspaceId: only?.workspace_id ?? null,
      memberId: only?.member_id ?? null,
      keyId: null,
    });
    return { token: session, next: link.next, picked: only !== null };
  }

  /** The live session of this cookie token, or null (unknown, ended, run out, or what it rests on is gone). */
  async current(token: string | undefined): Promise<SignedIn | null> {
    if (!token) return null;
    const row = await this.repository.byTokenHash(tokenHash(token));
    if (!row) return null;
    const now = this.clock.now();
    const admin = this.config.adminToken ? tokenHash(this.config.adminToken) : null;
    if (sessionRefusal(row, now.getTime(), admin)) {
      await this.repository.end(row.id, now);
      return null;
    }
    if (now.getTime() - new Date(row.seen_at).getTime() >= SESSION_SEEN_EVERY_MS)
      await this.repository.seen(row.id, now);
    return { sessionId: row.id, via: row.via, email: row.email, operator: row.via === 'operator', auth: authOf(row) };
  }

  /** The workspaces an email session may act in (a key session acts in its key's only). */
  memberships(signedIn: SignedIn): Promise<Membership[]> {
    if (signedIn.via !== 'email' || !signedIn.email) return Promise.resolve([]);
    return this.repository.memberships(signedIn.email);
  }

  /** Switches an email session to another workspace where its address is a member. */
  async pick(signedIn: SignedIn, workspaceId: string): Promise<void> {
    const membership = (await this.memberships(signedIn)).find((m) => m.workspace_id === workspaceId);
    if (!membership) throw new Refusal('forbidden', 'You are not a member of that workspace: pick one of the list.');
    await this.repository.pick(signedIn.sessionId, membership.workspace_id, membership.member_id);
  }

  async signOut(signedIn: SignedIn): Promise<void> {
    await this.repository.end(signedIn.sessionId, this.clock.now());
  }

  private async open(s: {
    via: SessionRow['via'];
    email: string | null;
    workspaceId: string | null;
    memberId: string | null;
    keyId: string | null;
    operatorHash?: string;
  }): Promise<string> {
    const token = newToken('session');
    const now = this.clock.now();
    await this.repository.insert({
      id: newId('ses'),
      tokenHash: tokenHash(token),
      ...s,
      operatorHash: s.operatorHash ?? null,
      now,
      endsAt: new Date(now.getTime() + SESSION_MAX_MS),
    });
    return token;
  }
}

/** The member a session acts as; its rate limits count per key (a key session) or per session. */
function authOf(row: SessionRow): AuthContext | null {
  if (!row.workspace_id || !row.member_id || !row.role || !row.member_email || !row.workspace_slug) return null;
  return {
    workspaceId: row.workspace_id,
    workspaceSlug: row.workspace_slug,
    memberId: row.member_id,
    memberEmail: row.member_email,
    role: row.role,
    keyId: row.key_id ?? row.id,
  };
}
