// One pipeline for every door that takes posts (REST events, the public website doors, and the doors
// to come: automation addresses, MCP): `@RateLimit(...)` counts the post against its limit, and
// `@CountHeartbeat(...)` counts its answer in the heartbeat (interface.md rule 8), refusals included,
// the rate limit's own among them. A controller is then parse -> service -> answer. Both decorators
// only mark the handler; the one DoorInterceptor (installed globally by CoreModule) does the work.
import { CallHandler, ExecutionContext, Injectable, NestInterceptor, SetMetadata } from '@nestjs/common';
import { ModuleRef, Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { from, lastValueFrom, Observable } from 'rxjs';
import type { AuthContext } from '../../auth/auth-context';
import { Refusal } from '../../errors/refusal';
import { LimitName, RateLimits } from '../../rate-limits/rate-limits';
import { BatchAnswer, heartbeatAnswer, ItemOutcome } from './door-answers';

/** A request on its way through a door: the key's member, or the workspace a public door named. */
export type DoorRequest = Request & { auth?: AuthContext; doorWorkspaceId?: string };

export interface HeartbeatCounter {
  count(workspaceId: string, action: string, answer: string, origin: string): void;
}
/** Provided by the lib that keeps the heartbeat (events); a door pipeline without it counts nothing. */
export const HEARTBEAT_COUNTER = Symbol('HEARTBEAT_COUNTER');

export interface RateLimitSpec {
  limit: LimitName | ((req: DoorRequest) => LimitName);
  /** Whose allowance a post spends: the secret key by default. */
  key: (req: DoorRequest) => string;
}

export interface HeartbeatSpec {
  /** The action a post (or a refusal of the whole post) counts as. */
  action: (req: DoorRequest) => string;
  origin: (req: DoorRequest) => string;
}

const RATE_LIMIT = 'door:rate-limit';
const HEARTBEAT = 'door:heartbeat';

export const bySecretKey = (req: DoorRequest): string => req.auth!.keyId;
/** interface.md "Limits": public doors count each visitor IP per workspace. */
export const byVisitor = (req: DoorRequest): string => `${doorWorkspaceId(req)}:${req.ip}`;

export const RateLimit = (limit: RateLimitSpec['limit'], key: RateLimitSpec['key'] = bySecretKey) =>
  SetMetadata(RATE_LIMIT, { limit, key } satisfies RateLimitSpec);

export const CountHeartbeat = (spec: HeartbeatSpec) => SetMetadata(HEARTBEAT, spec);

export function doorWorkspaceId(req: DoorRequest): string | undefined {
  return req.auth?.workspaceId ?? req.doorWorkspaceId;
}

@Injectable()
export class DoorInterceptor implements NestInterceptor {
  private counter: HeartbeatCounter | null | undefined;

  constructor(
    private readonly reflector: Reflector,
    private readonly limits: RateLimits,
    private readonly moduleRef: ModuleRef,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const targets = [context.getHandler(), context.getClass()];
    const limit = this.reflector.getAllAndOverride<RateLimitSpec | undefined>(RATE_LIMIT, targets);
    const heartbeat = this.reflector.getAllAndOverride<HeartbeatSpec | undefined>(HEARTBEAT, targets);
    if (!limit && !heartbeat) return next.handle();
    const req = context.switchToHttp().getRequest<DoorRequest>();
    const res = context.switchToHttp().getResponse<Response>();
    return from(this.run(req, res, next, limit, heartbeat));
  }

  private async run(req: DoorRequest, res: Response, next: CallHandler, limit?: RateLimitSpec, heartbeat?: HeartbeatSpec): Promise<unknown> {
    let result: unknown;
    try {
      if (limit) await this.limits.consume(typeof limit.limit === 'function' ? limit.limit(req) : limit.limit, limit.key(req));
      result = await lastValueFrom(next.handle(), { defaultValue: undefined });
    } catch (error) {
      if (heartbeat && error instanceof Refusal) this.count(req, heartbeat, [[heartbeat.action(req), error.code]]);
      throw error;
    }
    if (result instanceof BatchAnswer) {
      if (heartbeat) this.count(req, heartbeat, result.outcomes.map((o, i) => [result.actions[i], heartbeatAnswer(o)]));
      res.status(result.status);
      return result.body();
    }
    if (heartbeat && isOutcome(result)) this.count(req, heartbeat, [[heartbeat.action(req), heartbeatAnswer(result)]]);
    return result;
  }

  private count(req: DoorRequest, spec: HeartbeatSpec, answers: Array<[string, string]>): void {
    const workspaceId = doorWorkspaceId(req);
    const counter = this.heartbeatCounter();
    if (!workspaceId || !counter) return;
    const origin = spec.origin(req);
    for (const [action, answer] of answers) counter.count(workspaceId, action, answer, origin);
  }

  private heartbeatCounter(): HeartbeatCounter | null {
    if (this.counter === undefined) {
      try {
        this.counter = this.moduleRef.get<HeartbeatCounter>(HEARTBEAT_COUNTER, { strict: false });
      } catch {
        this.counter = null;
      }
    }
    return this.counter;
  }
}

function isOutcome(value: unknown): value is ItemOutcome {
  return value instanceof Refusal || (typeof value === 'object' && value !== null && typeof (value as { status?: unknown }).status === 'string');
}
