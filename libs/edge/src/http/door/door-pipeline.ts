// One pipeline for every door that takes posts (REST events, the public website doors, and the doors
// to come: automation addresses, MCP): `@RateLimit(...)` counts the post against its limit, and
// `@CountHeartbeat(...)` counts its answer in the heartbeat (interface.md rule 8), refusals included,
// the rate limit's own among them. A controller is then parse -> service -> answer. Both decorators
// only mark the handler; the one DoorPipeline does the work, for Nest routes through the DoorInterceptor
// (installed globally by CoreModule) and for the hot doors through HotDoors (hot-door.ts).
import { CallHandler, ExecutionContext, Injectable, NestInterceptor, SetMetadata } from '@nestjs/common';
import { ModuleRef, Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { from, lastValueFrom, Observable } from 'rxjs';
import type { AuthContext } from '@app/workspaces';
import { Refusal, LimitName, RateLimits } from '@app/platform';
import { BatchAnswer, heartbeatAnswer, ItemOutcome } from './door-answers';

/** A request on its way through a door: the key's member, or the workspace a public door named. */
/** (A hot door's request is a plain IncomingMessage with the same fields set: hot-door.ts.) */
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

/**
 * A key refused is not a post of the workspace: the guard refuses it before the door counts anything,
 * and a key refused later (a remembered key found out of use by the write: KeyRecheckedByWrite) is not
 * counted either.
 */
const KEY_REFUSALS = new Set(['invalid_key', 'no_longer_a_member']);

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

/** A handler's door marks (RateLimit, CountHeartbeat), read from its decorators. */
export interface DoorSpec {
  limit?: RateLimitSpec;
  heartbeat?: HeartbeatSpec;
}

/** What a door answers: the body, and a status when it is not the handler's usual one (a batch's 207). */
export interface DoorAnswer {
  status?: number;
  body: unknown;
}

export function doorSpecOf(reflector: Reflector, handler: Function, controller: Function): DoorSpec {
  const targets = [handler, controller];
  return {
    limit: reflector.getAllAndOverride<RateLimitSpec | undefined>(RATE_LIMIT, targets),
    heartbeat: reflector.getAllAndOverride<HeartbeatSpec | undefined>(HEARTBEAT, targets),
  };
}

/**
 * The door's work around a handler: the rate limit first, then the handler, then the heartbeat count
 * of its answer (refusals included), and a batch's answer shaped. The Nest interceptor and the hot
 * doors (hot-door.ts) both run posts through here.
 */
@Injectable()
export class DoorPipeline {
  private counter: HeartbeatCounter | null | undefined;

  constructor(
    private readonly limits: RateLimits,
    private readonly moduleRef: ModuleRef,
  ) {}

  async run(req: DoorRequest, spec: DoorSpec, handle: () => Promise<unknown>): Promise<DoorAnswer> {
    const { limit, heartbeat } = spec;
    let result: unknown;
    try {
      if (limit) await this.limits.consume(typeof limit.limit === 'function' ? limit.limit(req) : limit.limit, limit.key(req));
      result = await handle();
    } catch (error) {
      if (heartbeat && error instanceof Refusal && !KEY_REFUSALS.has(error.code)) this.count(req, heartbeat, [[heartbeat.action(req), error.code]]);
      throw error;
    }
    if (result instanceof BatchAnswer) {
      if (heartbeat) this.count(req, heartbeat, result.outcomes.map((o, i) => [result.actions[i], heartbeatAnswer(o)]));
      return { status: result.status, body: result.body() };
    }
    if (heartbeat && isOutcome(result)) this.count(req, heartbeat, [[heartbeat.action(req), heartbeatAnswer(result)]]);
    return { body: result };
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

/** Runs every marked handler of a Nest route through the DoorPipeline. */
@Injectable()
export class DoorInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly pipeline: DoorPipeline,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const spec = doorSpecOf(this.reflector, context.getHandler(), context.getClass());
    if (!spec.limit && !spec.heartbeat) return next.handle();
    const req = context.switchToHttp().getRequest<DoorRequest>();
    const res = context.switchToHttp().getResponse<Response>();
    const answer = this.pipeline.run(req, spec, () => lastValueFrom(next.handle(), { defaultValue: undefined }));
    return from(
      answer.then(({ status, body }) => {
        if (status) res.status(status);
        return body;
      }),
    );
  }
}

function isOutcome(value: unknown): value is ItemOutcome {
  return value instanceof Refusal || (typeof value === 'object' && value !== null && typeof (value as { status?: unknown }).status === 'string');
}
