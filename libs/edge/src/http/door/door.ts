// One door is one visible object. A door is a route that takes posts, and each is declared once, with
// door({...}): its path, the status of a success, the most bytes it reads, how it knows who posts, its
// rate limit, what its answers count in the heartbeat (interface.md rule 8), how it parses the body and
// what it does with it. Everything that serves the route reads that one object: the Nest route
// (@DoorRoute(DOOR) on a controller method, for the router and the OpenAPI document), the body parsers
// (body-parsers.ts) and, for a hot door, HotDoors (hot-door.ts).
//
// Why a plain object, not decorators and look-ups: a reader finds the whole door in one place, and
// nothing is read back from metadata or fetched while a post is answered. What a declaration cannot
// name where it is written (the services it calls: a repository, the heartbeat) it takes as its
// `services`, given once, at start-up, by the controller that opens it (Doors.open, open-door.ts); the
// OpenDoor it gets runs the same steps for the Nest route and for the hot path, in this order:
// authenticate, rate limit, parse, handle, then the heartbeat count of the answer.
import { applyDecorators, HttpCode, Post } from '@nestjs/common';
import type { Request } from 'express';
import type { ServerResponse } from 'node:http';
import type { AuthContext } from '@app/workspaces';
import type { LimitName, Refusal } from '@app/platform';

/** A post on its way through a door: the key's member, or the workspace a website endpoint named. */
/** (A hot door's request is a plain IncomingMessage with the same fields set: hot-door.ts.) */
export type DoorRequest = Request & { auth?: AuthContext; doorWorkspaceId?: string };
/** Express's response on the Nest route, Node's own on the hot path. */
export type DoorResponse = ServerResponse;

export interface HeartbeatCounter {
  count(workspaceId: string, action: string, answer: string, origin: string): void;
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
  /** issue 18: answered before Express, without Nest's per-request machinery (hot-door.ts). */
  hot?: boolean;
  /** Its answers are event items, which the metrics count under this door label. */
  eventItems?: 'server' | 'public';
  /** The handler writes the answer itself (the tool door's MCP transport); the door sends nothing on success. */
  writesOwnAnswer?: boolean;
  /**
   * Who posts: sets req.auth (or req.doorWorkspaceId), or refuses by throwing. Its refusals are never
   * counted in the heartbeat, and neither is a key's refusal found later (decisions.md "Keys and tenancy").
   */
  authenticate(req: DoorRequest, services: S, res: DoorResponse): Promise<void>;
  /** Counted after authentication, before the body is parsed; its own refusal is counted in the heartbeat. */
  rateLimit?: RateLimitSpec;
  /** Every answer counts, refusals included (decisions.md "Code ground"). */
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

/** The Nest route of a door: its method, path and status, for the router and the OpenAPI document. */
export const DoorRoute = (declaration: Pick<DoorDeclaration, 'method' | 'path' | 'status'>) =>
  applyDecorators(Post(declaration.path), HttpCode(declaration.status));

export function doorWorkspaceId(req: DoorRequest): string | undefined {
  return req.auth?.workspaceId ?? req.doorWorkspaceId;
}

/** A post spends its secret key's allowance. */
export const bySecretKey = (req: DoorRequest): string => req.auth!.keyId;
/** interface.md "Limits": website endpoints count each visitor IP per workspace. */
export const byVisitor = (req: DoorRequest): string => `${doorWorkspaceId(req)}:${req.ip}`;
