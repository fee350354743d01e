// One door is one visible object. A door is a route that takes posts, and each is declared once, with
// door({...}): its path, the status of a success, the most bytes it reads, how it knows who posts, its
// rate limit, what its answers count in the heartbeat (docs/graphql.md#activity-and-charts), how it parses the body and
// what it does with it. Everything that serves the route reads that one object: the Nest route
// (@DoorRoute(DOOR, reference) on a controller method, for the router and the OpenAPI document:
// reference.ts), the body parsers (body-parsers.ts) and, for a hot door, HotDoors (hot-door.ts).
//
// Why a plain object, not decorators and look-ups: a reader finds the whole door in one place, and
// nothing is read back from metadata or fetched while a post is answered. What a declaration cannot
// name where it is written (the services it calls: a repository, the heartbeat) it takes as its
// `services`, given once, at start-up, by the controller that opens it (Doors.open, below); the
// OpenDoor it gets runs the same steps for the Nest route and for the hot path, in this order:
// authenticate, rate limit, parse, handle, then the heartbeat count of the answer.
//
// A declared door, opened at start-up with its services (OpenDoor): the steps every post runs, the same
// for the Nest route (serve) and for the hot path (answer, from hot-door.ts). The door authenticates the
// post, spends its rate limit, parses the body and calls the handler, then counts the answer in the
// heartbeat (refusals included, the rate limit's own among them; a key's refusal never) and shapes a
// batch's answer. Everything a post needs is resolved here, when the door is opened.
//
// The answers of a door that takes items (docs/rest.md#events, docs/rest.md#answers-and-refusals): one
// item answers its result or its refusal; a batch answers 200 when every item went through and 207
// partial_failure otherwise, each result with its index. Shaped here and nowhere else.
import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { ServerResponse } from 'node:http';
import type { AuthContext } from '@app/workspaces';
import { type LimitName, RateLimits, Refusal } from '@app/platform';
import { ActionSuccess, BatchItemResult, PARTIAL_FAILURE } from '@app/wire';

/** A post on its way through a door: the key's member, or the workspace a website endpoint named. */
/** (A hot door's request is a plain IncomingMessage with the same fields set: hot-door.ts.) */
export type DoorRequest = Request & { auth?: AuthContext; doorWorkspaceId?: string };
/** Express's response on the Nest route, Node's own on the hot path. */
export type DoorResponse = ServerResponse;

export interface HeartbeatCounter {
  /** Counts `times` posts (or batch items) with this action and answer; 1 when left out. */
  count(workspaceId: string, action: string, answer: string, origin: string, times?: number): void;
}

/** What a door's services may always hold: the heartbeat, which a door with `heartbeat` must be given. */
export interface DoorServices {
  heartbeat?: HeartbeatCounter;
}

export interface RateLimitSpec {
  limit: LimitName | ((req: DoorRequest) => LimitName);
  /** Whose allowance a post spends (bySecretKey, byVisitor). */
  key: (req: DoorRequest) => string;
}

export interface HeartbeatSpec {
  /** The action a post (or a refusal of the whole post) counts as. */
  action: (req: DoorRequest) => string;
  origin: (req: DoorRequest) => string;
}

/** The label under which the metrics count a door's event items. */
export type EventItemDoor = 'server' | 'public' | 'segment';

export interface DoorDeclaration<S = DoorServices, P = unknown> {
  /** Doors take posts. */
  method: 'POST';
  /** As the router has it ('/api/in/:publicKey/:action'); a hot door's is exact. */
  path: string;
  /** The status of a success (a batch answers its own 200 or 207). */
  status: number;
  /** The most bytes the door reads; more is refused too_large before anything else. */
  bodyLimit: number;
  /** 'json' (the default): parsed, and checked for hostile input; 'raw': the bytes as posted, for a signature. */
  body?: 'json' | 'raw';
  /** Answered before Express, without Nest's per-request machinery (hot-door.ts). */
  hot?: boolean;
  /** Its answers are event items, which the metrics count under this door label. */
  eventItems?: EventItemDoor;
  /** The handler writes the answer itself (the tool door's MCP transport); the door sends nothing on success. */
  writesOwnAnswer?: boolean;
  /**
   * Who posts: sets req.auth (or req.doorWorkspaceId), or refuses by throwing. Its refusals are never
   * counted in the heartbeat, and neither is a key's refusal found later (docs/decisions.md#keys-and-tenancy).
   */
  authenticate(req: DoorRequest, services: S, res: DoorResponse): Promise<void>;
  /** Counted after authentication, before the body is parsed; its own refusal is counted in the heartbeat. */
  rateLimit?: RateLimitSpec;
  /** Every answer counts, refusals included (docs/decisions.md#code-ground-one-owner-per-table-door-pipeline). */
  heartbeat?: HeartbeatSpec;
  /** The body as the handler takes it, or a refusal; without it the handler takes req.body. */
  parse?(req: DoorRequest): P | Refusal;
  /** What the post does: an item's success (ItemOutcome), a BatchAnswer, or any JSON answer. */
  handle(parsed: P, req: DoorRequest, services: S, res: DoorResponse): Promise<unknown>;
}

/** Declares a door (the identity, for its types: `services` and the parsed body are inferred). */
export function door<S, P = unknown>(declaration: DoorDeclaration<S, P>): DoorDeclaration<S, P> {
  return declaration;
}

export function doorWorkspaceId(req: DoorRequest): string | undefined {
  return req.auth?.workspaceId ?? req.doorWorkspaceId;
}

/** A post spends its secret key's allowance. */
export const bySecretKey = (req: DoorRequest): string => req.auth!.keyId;
/** Website endpoints count each visitor IP per workspace (docs/rest.md#website-endpoints). */
export const byVisitor = (req: DoorRequest): string => `${doorWorkspaceId(req)}:${req.ip}`;

/** An item's success, as the wire module (shared with the client package) shapes it. */
export type ItemSuccess = ActionSuccess;
export type ItemOutcome = ItemSuccess | Refusal;

/**
 * The heartbeat answer of a success when it is not its status (a honeypot post is told the usual
 * status and counted as honeypot). A symbol, so it never reaches the JSON answer.
 */
export const HEARTBEAT_ANSWER = Symbol('heartbeat answer');

/** What the heartbeat counts for one outcome: its status, or its refusal's code. */
export function heartbeatAnswer(outcome: ItemOutcome): string {
  if (outcome instanceof Refusal) return outcome.code;
  return (outcome as ItemSuccess & { [HEARTBEAT_ANSWER]?: string })[HEARTBEAT_ANSWER] ?? outcome.status;
}

/** A handler returns this for a batch; the door (OpenDoor) counts each item and shapes the answer. */
export class BatchAnswer {
  constructor(
    readonly outcomes: ItemOutcome[],
    /** The action of each item, for the heartbeat. */
    readonly actions: string[],
  ) {}

  get status(): 200 | 207 {
    return this.outcomes.every((o) => !(o instanceof Refusal)) ? 200 : 207;
  }

  /** A door that speaks another protocol's answers (Segment's) shapes its own body in a subclass. */
  body(): object {
    const results: BatchItemResult[] = this.outcomes.map((o, index) =>
      o instanceof Refusal ? { index, ...o.toBody() } : { index, ...o },
    );
    if (this.status === 200) return { ok: true, results };
    return {
      ok: false,
      error: PARTIAL_FAILURE,
      message: 'Some items were refused; each result says why. The others were recorded.',
      results,
    };
  }
}

/** One item: its success is the answer, its refusal is thrown (and answered by the filter). */
export function itemAnswer(outcome: ItemOutcome): ItemSuccess {
  if (outcome instanceof Refusal) throw outcome;
  return outcome;
}

/** One item answered with ok and status only (website endpoints never tell ids); its heartbeat answer stays. */
export function statusAnswer(outcome: ItemOutcome): ItemSuccess {
  const success = itemAnswer(outcome) as ItemSuccess & { [HEARTBEAT_ANSWER]?: string };
  return {
    ok: true,
    status: success.status,
    ...(success[HEARTBEAT_ANSWER] ? { [HEARTBEAT_ANSWER]: success[HEARTBEAT_ANSWER] } : {}),
  };
}

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
    if (declaration.heartbeat && !this.counter)
      throw new Error(`The door ${this.path} counts in the heartbeat: give it services.heartbeat.`);
    if (this.hot && (declaration.writesOwnAnswer || this.rawBody || this.path.includes(':'))) {
      throw new Error(
        `The hot door ${this.path} must have an exact path and a JSON body, and leave its answer to the door.`,
      );
    }
  }

  /** The door's answer to a post whose body has been read: resolves to the answer, or rejects with the refusal. */
  async answer(req: DoorRequest, res: DoorResponse): Promise<DoorAnswer> {
    const door = this.declaration;
    await door.authenticate(req, this.services, res); // refused before the door counts anything
    let result: unknown;
    try {
      if (door.rateLimit) {
        const name = typeof door.rateLimit.limit === 'function' ? door.rateLimit.limit(req) : door.rateLimit.limit;
        await this.limits.consume(name, door.rateLimit.key(req), 1, 0, doorWorkspaceId(req)); // its workspace's figure
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

  /** Each item of a batch, under its own action: a run of items alike is counted at once. */
  private countBatch(req: DoorRequest, batch: BatchAnswer): void {
    const workspaceId = doorWorkspaceId(req);
    if (!workspaceId) return;
    const origin = this.declaration.heartbeat!.origin(req);
    let [action, answer, items] = ['', '', 0];
    for (let i = 0; i < batch.outcomes.length; i++) {
      const [itemAction, itemAnswer] = [batch.actions[i], heartbeatAnswer(batch.outcomes[i])];
      if (items > 0 && (itemAction !== action || itemAnswer !== answer)) {
        this.counter!.count(workspaceId, action, answer, origin, items);
        items = 0;
      }
      [action, answer] = [itemAction, itemAnswer];
      items++;
    }
    if (items > 0) this.counter!.count(workspaceId, action, answer, origin, items);
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
  eventItemRoutes(): Map<string, EventItemDoor> {
    const routes = new Map<string, EventItemDoor>();
    for (const door of this.opened.values())
      if (door.declaration.eventItems) routes.set(door.path, door.declaration.eventItems);
    return routes;
  }
}

function isOutcome(value: unknown): value is ItemOutcome {
  return (
    value instanceof Refusal ||
    (typeof value === 'object' && value !== null && typeof (value as { status?: unknown }).status === 'string')
  );
}
