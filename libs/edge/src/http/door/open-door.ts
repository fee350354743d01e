// A declared door (door.ts), opened at start-up with its services: the steps every post runs, the same
// for the Nest route (serve) and for the hot path (answer, from hot-door.ts). The door authenticates the
// post, spends its rate limit, parses the body and calls the handler, then counts the answer in the
// heartbeat (refusals included, the rate limit's own among them; a key's refusal never) and shapes a
// batch's answer. Everything a post needs is resolved here, when the door is opened.
import { Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { RateLimits, Refusal } from '@app/platform';
import { BatchAnswer, heartbeatAnswer, ItemOutcome } from './door-answers';
import { DoorDeclaration, DoorRequest, DoorResponse, DoorServices, doorWorkspaceId, HeartbeatCounter } from './door';

/**
 * A key refused is not a post of the workspace: authentication refuses it before the door counts
 * anything, and a key refused later (a remembered key found out of use by the write: the events door's
 * recheckedByWrite) is not counted either.
 */
const KEY_REFUSALS = new Set(['invalid_key', 'no_longer_a_member']);

/** What a door answers: the status and the body. */
export interface DoorAnswer {
  status: number;
  body: unknown;
}

export class OpenDoor<S = DoorServices, P = unknown> {
  readonly path: string;
  readonly bodyLimit: number;
  readonly rawBody: boolean;
  readonly hot: boolean;
  private readonly counter: HeartbeatCounter | undefined;

  constructor(
    readonly declaration: DoorDeclaration<S, P>,
    private readonly services: S,
    private readonly limits: RateLimits,
  ) {
    this.path = declaration.path;
    this.bodyLimit = declaration.bodyLimit;
    this.rawBody = declaration.body === 'raw';
    this.hot = declaration.hot === true;
    this.counter = declaration.heartbeat ? (services as DoorServices).heartbeat : undefined;
    if (declaration.heartbeat && !this.counter) throw new Error(`The door ${this.path} counts in the heartbeat: give it services.heartbeat.`);
    if (this.hot && (declaration.writesOwnAnswer || this.rawBody || this.path.includes(':'))) {
      throw new Error(`The hot door ${this.path} must have an exact path and a JSON body, and leave its answer to the door.`);
    }
  }

  /** The door's answer to a post whose body has been read: resolves to the answer, or rejects with the refusal. */
  async answer(req: DoorRequest, res: DoorResponse): Promise<DoorAnswer> {
    const door = this.declaration;
    await door.authenticate(req, this.services, res); // refused before the door counts anything
    let result: unknown;
    try {
      if (door.rateLimit) {
        const { limit, key } = door.rateLimit;
        await this.limits.consume(typeof limit === 'function' ? limit(req) : limit, key(req));
      }
      const parsed = door.parse ? door.parse(req) : (req.body as P);
      if (parsed instanceof Refusal) {
        await req.auth?.recheck?.verify(); // nothing is written: a key gone out of use is refused as such
        throw parsed;
      }
      result = await door.handle(parsed, req, this.services, res);
    } catch (error) {
      if (error instanceof Refusal && !KEY_REFUSALS.has(error.code)) this.count(req, error.code);
      throw error;
    }
    if (result instanceof BatchAnswer) {
      if (this.counter) this.countBatch(req, result);
      return { status: result.status, body: result.body() };
    }
    if (this.counter && isOutcome(result)) this.count(req, heartbeatAnswer(result));
    return { status: door.status, body: result };
  }

  /** The Nest route's handler (with @Res()): answers through Express; a refusal goes on to the exception filter. */
  async serve(req: DoorRequest, res: Response): Promise<void> {
    const { status, body } = await this.answer(req, res);
    if (!this.declaration.writesOwnAnswer) res.status(status).json(body);
  }

  /** One answer of the whole post, under the action the post names. */
  private count(req: DoorRequest, answer: string): void {
    const heartbeat = this.declaration.heartbeat;
    const workspaceId = doorWorkspaceId(req);
    if (!heartbeat || !workspaceId) return;
    this.counter!.count(workspaceId, heartbeat.action(req), answer, heartbeat.origin(req));
  }

  /** Each item of a batch, under its own action. */
  private countBatch(req: DoorRequest, batch: BatchAnswer): void {
    const workspaceId = doorWorkspaceId(req);
    if (!workspaceId) return;
    const origin = this.declaration.heartbeat!.origin(req);
    for (let i = 0; i < batch.outcomes.length; i++) this.counter!.count(workspaceId, batch.actions[i], heartbeatAnswer(batch.outcomes[i]), origin);
  }
}

/** The doors the app serves, each opened once at start-up by the controller whose route serves it. */
@Injectable()
export class Doors {
  private readonly opened = new Map<string, OpenDoor>();

  constructor(private readonly limits: RateLimits) {}

  open<S, P>(declaration: DoorDeclaration<S, P>, services: S): OpenDoor<S, P> {
    if (this.opened.has(declaration.path)) throw new Error(`Two doors declare ${declaration.path}.`);
    const door = new OpenDoor(declaration, services, this.limits);
    this.opened.set(door.path, door as unknown as OpenDoor);
    return door;
  }

  /** Every door opened, in the order their controllers were made. */
  get all(): OpenDoor[] {
    return [...this.opened.values()];
  }

  /** For the metrics: the route of each door whose answers are event items, and its door label. */
  eventItemRoutes(): Map<string, 'server' | 'public'> {
    const routes = new Map<string, 'server' | 'public'>();
    for (const door of this.opened.values()) if (door.declaration.eventItems) routes.set(door.path, door.declaration.eventItems);
    return routes;
  }
}

function isOutcome(value: unknown): value is ItemOutcome {
  return value instanceof Refusal || (typeof value === 'object' && value !== null && typeof (value as { status?: unknown }).status === 'string');
}
