// docs/graphql.md#segments: live membership. Every write that can change what a segment asks of a person (an
// event, a field, a subscription, a stage, an engagement, a merge, an expiry) calls refresh in its own
// transaction, after its write, so a person enters or leaves a segment in the transaction that moved them.
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { CLOCK, type Clock, SYSTEM_CLOCK } from '@app/platform';
import {
  lockPeople,
  type MemberPairs,
  type Moves,
  readPlan,
  refreshMembers,
  type SegmentPlan,
} from './membership.repository';
import { mayMove, type PersonChange } from './domain/inputs';
import { evaluate } from './domain/evaluate';

export interface RefreshOptions {
  /** The caller holds the people's row locks already (the ingest load, the backfill's chunk). */
  locked?: boolean;
  /** Only these segments (the backfill of one); all of the workspace's when absent. */
  segmentIds?: string[];
  /** Announce the moves of a segment still filling too (a backfill asked to). */
  announce?: boolean;
  /** What the write changed of each person: only the segments reading some of it are recomputed (all when absent). */
  changes?: ReadonlyMap<string, PersonChange>;
}

/** Workspaces whose plans a process keeps; past it the oldest is dropped and read again when needed. */
const KEPT_PLANS = 5_000;

@Injectable()
export class SegmentMembership {
  private readonly plans = new Map<string, Promise<SegmentPlan>>();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(CLOCK) private readonly clock: Clock = SYSTEM_CLOCK,
  ) {}

  /**
   * The workspace's segments as this process last read them, for the ingest write: it checks the revision
   * (segmentsCheckCte) and, when it changed, forgets the plan and runs again (isSegmentsChanged).
   */
  planFor(workspaceId: string): Promise<SegmentPlan> {
    let plan = this.plans.get(workspaceId);
    if (!plan) {
      if (this.plans.size >= KEPT_PLANS) this.plans.delete(this.plans.keys().next().value as string);
      plan = readPlan(this.dataSource, workspaceId);
      plan.catch(() => this.plans.delete(workspaceId));
      this.plans.set(workspaceId, plan);
    }
    return plan;
  }

  forget(workspaceId: string): void {
    this.plans.delete(workspaceId);
  }

  /**
   * Recomputes these people's memberships inside the caller's transaction, reading the workspace's segments in
   * it (so a segment committed before is always included), after taking the people's row locks unless held.
   */
  async refresh(
    m: EntityManager,
    workspaceId: string,
    personIds: string[],
    options: RefreshOptions = {},
  ): Promise<Moves> {
    const ids = [...new Set(personIds)].sort();
    if (ids.length === 0) return { entered: 0, left: 0 };
    const plan = await readPlan(m, workspaceId, true);
    return this.refreshWith(m, workspaceId, plan, ids, options);
  }

  /** refresh with a plan already read. */
  async refreshWith(
    m: EntityManager,
    workspaceId: string,
    plan: SegmentPlan,
    personIds: string[],
    options: RefreshOptions = {},
  ): Promise<Moves> {
    const at = this.now();
    const pairs = this.pairsFor(plan, personIds, options, at);
    if (pairs.personIds.length === 0) return { entered: 0, left: 0 };
    if (!options.locked) await lockPeople(m, workspaceId, personIds);
    return this.refreshPairs(m, workspaceId, plan, pairs, options, at);
  }

  /**
   * The (segment, person) pairs a refresh recomputes: every segment the person's change may move them in or out of;
   * for a person whose facts the change holds, only the segments they are in, answered here (`at` the moment asked).
   */
  pairsFor(plan: SegmentPlan, personIds: string[], options: RefreshOptions = {}, at = this.now()): MemberPairs {
    const only = options.segmentIds && new Set(options.segmentIds);
    const segments = only ? plan.segments.filter((s) => only.has(s.id)) : plan.segments;
    const pairs: MemberPairs = { segmentIds: [], personIds: [], decided: [] };
    const add = (segmentId: string, personId: string, decided: true | null) => {
      pairs.segmentIds.push(segmentId);
      pairs.personIds.push(personId);
      pairs.decided.push(decided);
    };
    for (const personId of personIds) {
      const change = options.changes?.get(personId);
      for (const s of segments) {
        if (change?.facts) {
          if (evaluate(s.condition, change.facts, at)) add(s.id, personId, true);
        } else if (!change || mayMove(s.inputs, change)) add(s.id, personId, null);
      }
    }
    return pairs;
  }

  /** The moment a refresh asks its conditions at (the CLOCK's). */
  now(): Date {
    return new Date(this.clock.now());
  }

  /** Recomputes the pairs, their people locked by the caller (the ingest load; refreshWith). */
  async refreshPairs(
    m: EntityManager,
    workspaceId: string,
    plan: SegmentPlan,
    pairs: MemberPairs,
    options: Pick<RefreshOptions, 'announce'> = {},
    at = this.now(),
  ): Promise<Moves> {
    const { entered, left } = await refreshMembers(m, workspaceId, plan.segments, pairs, at, !!options.announce);
    return { entered, left };
  }
}
