// GraphQL admin API: a bearer secret key (acts as its member) or ADMIN_TOKEN (the operator).
import { CanActivate, createParamDecorator, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { GqlExecutionContext } from '@nestjs/graphql';
import type { AppConfig } from '@app/platform';
import { CONFIG, RateLimits, Refusal, sameSecret } from '@app/platform';
import { WorkspacesService } from '../workspaces.service';
import { SessionsService, SignedIn } from '../sign-in/sessions.service';
import { crossSiteRefusal, sessionCookieOf } from '../sign-in/sign-in-rules';
import type { AuthContext } from './auth-context';
import { forbiddenSentence, Permission, roleAllows } from './roles';
import type { AuthedRequest } from './secret-key.guard';

type GraphqlRequest = AuthedRequest & { operator?: boolean; signedIn?: SignedIn; authenticated?: Promise<void> };

@Injectable()
export class GraphqlAuthGuard implements CanActivate {
  constructor(
    private readonly workspaces: WorkspacesService,
    private readonly sessions: SessionsService,
    private readonly limits: RateLimits,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    await this.admit(GqlExecutionContext.create(context).getContext<{ req: GraphqlRequest }>().req);
    return true;
  }

  /**
   * Lets the request in as a member (key or session) or the operator, or throws the Refusal saying why not;
   * also what introspection in production asks (docs/graphql.md#the-schema), before any field runs.
   */
  async admit(request: GraphqlRequest): Promise<void> {
    if (request.auth || request.operator) return;
    // Fields of one request run at once: they share one authentication and one rate-limit count.
    request.authenticated ??= this.authenticate(request);
    await request.authenticated;
  }

  private async authenticate(request: GraphqlRequest): Promise<void> {
    const session = request.headers.authorization ? undefined : sessionCookieOf(request.headers.cookie);
    if (session) return this.fromSession(request, session);
    const header = request.headers.authorization ?? '';
    const token = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
    if (token && this.config.adminToken && sameSecret(token, this.config.adminToken)) {
      request.operator = true; // the deployment's own token: not rate limited
      return;
    }
    const auth = await this.workspaces.authenticate(header);
    await this.limits.consume('graphql', auth.keyId);
    request.auth = auth;
  }

  /** A person's session cookie, behind the CSRF defence: the member it acts as, or the operator. */
  private async fromSession(request: GraphqlRequest, token: string): Promise<void> {
    const crossSite = crossSiteRefusal(
      { method: request.method, contentType: request.headers['content-type'], origin: request.headers.origin },
      this.config.baseUrl,
    );
    if (crossSite)
      throw new Refusal(
        'forbidden',
        `Refused: ${crossSite}. Programs send a secret key as "Authorization: Bearer sk_live_…" instead.`,
      );
    const signedIn = await this.sessions.current(token);
    if (signedIn) request.signedIn = signedIn;
    if (!signedIn)
      throw new Refusal(
        'invalid_token',
        `Your session has ended (signed out, run out, or its key or membership is gone): sign in again at ` +
          `${this.config.baseUrl}/sign-in.`,
      );
    if (signedIn.operator) {
      request.operator = true;
      return;
    }
    if (!signedIn.auth)
      throw new Refusal('forbidden', `Pick a workspace first at ${this.config.baseUrl}/sign-in/workspace.`);
    await this.limits.consume('graphql', signedIn.auth.keyId);
    request.auth = signedIn.auth;
  }
}

function requestOf(context: ExecutionContext): GraphqlRequest {
  return GqlExecutionContext.create(context).getContext<{ req: GraphqlRequest }>().req;
}

/** Asks roles.ts whether the caller holds the permission; refuses with forbidden otherwise. */
function authorize(context: ExecutionContext, permission: Exclude<Permission, 'create_workspace'>): AuthContext {
  const request = requestOf(context);
  if (!request.auth) {
    const sentence =
      permission === 'change' ? 'a secret key of a workspace owner or admin' : 'a secret key of the workspace';
    throw new Refusal('forbidden', `This needs ${sentence}, not the operator token.`);
  }
  if (!roleAllows(request.auth.role, permission)) throw new Refusal('forbidden', forbiddenSentence(permission));
  return request.auth;
}

/** The member a GraphQL call acts as (permission read); the operator token alone names no workspace. */
export const Member = createParamDecorator((_data: unknown, context: ExecutionContext): AuthContext =>
  authorize(context, 'read'),
);

/** Like Member, with permission change: owners and admins only. */
export const Manager = createParamDecorator((_data: unknown, context: ExecutionContext): AuthContext =>
  authorize(context, 'change'),
);

/** The operator token (permission create_workspace). */
export const Operator = createParamDecorator((_data: unknown, context: ExecutionContext): true => {
  if (!requestOf(context).operator) {
    throw new Refusal('forbidden', forbiddenSentence('create_workspace'));
  }
  return true;
});

/** Who is calling, refusing nobody the guard let in: the member (key or session) or the operator. */
export interface CallerContext {
  auth: AuthContext | null;
  operator: boolean;
  /** The session, when the caller came with a session cookie rather than a key. */
  signedIn: SignedIn | null;
}

/** Any caller the guard let in, as they are (the viewer query); `Caller` in roles.ts names their role. */
export const AnyCaller = createParamDecorator((_data: unknown, context: ExecutionContext): CallerContext => {
  const request = requestOf(context);
  return { auth: request.auth ?? null, operator: !!request.operator, signedIn: request.signedIn ?? null };
});
