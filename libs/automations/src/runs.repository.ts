// The only code that queries automation_runs. A run's state lives here: its next step, when it is
// due, and a claim (a token with an expiry) taken before a step runs, so a duplicate or early job does
// nothing and a run whose worker died is taken over once the claim expires.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { deleteInBatches } from '@app/platform';
import { type MergeParticipant, personColumnMover, personJoin } from '@app/people';
import type { AutomationStep, AutomationTrigger, LogLine } from './domain';

/** How long a claim holds a run: more than the ten seconds an http_request step may take. */
export const RUN_CLAIM_SECONDS = 60;

export const RUN_STATES = ['running', 'waiting', 'finished', 'failed'] as const;
export type RunState = (typeof RUN_STATES)[number];

export interface NewRun {
  workspaceId: string;
  id: string;
  automationId: string;
  personId: string;
  outboxId: string | null;
  trigger: AutomationTrigger;
  steps: AutomationStep[];
  properties: Record<string, unknown> | null;
  firstLine: string;
}

export interface RunRow {
  workspace_id: string;
  id: string;
  automation_id: string;
  person_id: string | null;
  state: RunState;
  log: LogLine[];
  created_at: Date;
  finished_at: Date | null;
  trigger: AutomationTrigger;
  steps: AutomationStep[];
  properties: Record<string, unknown> | null;
  step: number;
}

/** A run as the log shows it: with its person's email and name as they are now. */
export interface RunLogRow extends RunRow {
  person_email: string | null;
  person_name: string | null;
}

export interface ClaimedRun extends RunRow {
  claim: string;
  /** The previous holder's claim ran out: its worker stopped during a step. */
  tookOver: boolean;
  /** The run was waiting and its wait has passed. */
  resumed: boolean;
}

/** What a step changed: lines to add, and where the run goes next. */
export interface RunChange {
  lines: string[];
  step: number;
  state: RunState;
  /** When a waiting run is due again. */
  dueAt?: Date;
}

export interface RunKey {
  workspaceId: string;
  runId: string;
  step: number;
}

const COLUMNS =
  'workspace_id, id, automation_id, person_id, state, log, created_at, finished_at, trigger, steps, properties, step';

@Injectable()
export class RunsRepository implements MergeParticipant {
  readonly name = 'automation_runs';
  /** A merge: the absorbed people's runs now name the survivor (inside the merge's transaction). */
  readonly movePeople = personColumnMover('UPDATE automation_runs');

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * New runs, due at once. One per automation and happening: a replayed outbox row inserts nothing
   * (and is not returned). The person is stored as the person they became if they were merged away.
   */
  async insert(m: EntityManager | null, runs: NewRun[]): Promise<RunKey[]> {
    if (runs.length === 0) return [];
    const col = <T>(pick: (run: NewRun) => T) => runs.map(pick);
    const rows: Array<{ workspace_id: string; id: string }> = await (m ?? this.dataSource).query(
      `INSERT INTO automation_runs (workspace_id, id, automation_id, person_id, outbox_id, trigger, steps, properties,
        log, state, due_at)
       SELECT r.w, r.id, r.a, coalesce(p.merged_into, r.p), r.o, r.t, r.s, r.props,
              jsonb_build_array(jsonb_build_object('at', now(), 'line', r.line)), 'running', now()
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::jsonb[], $7::jsonb[],
           $8::jsonb[], $9::text[])
              AS r(w, id, a, p, o, t, s, props, line)
         ${personJoin('p', 'r.w', 'r.p', 'LEFT JOIN')}
       ON CONFLICT (workspace_id, automation_id, outbox_id) WHERE outbox_id IS NOT NULL DO NOTHING
       RETURNING workspace_id, id`,
      [
        col((r) => r.workspaceId),
        col((r) => r.id),
        col((r) => r.automationId),
        col((r) => r.personId),
        col((r) => r.outboxId),
        col((r) => JSON.stringify(r.trigger)),
        col((r) => JSON.stringify(r.steps)),
        col((r) => (r.properties ? JSON.stringify(r.properties) : null)),
        col((r) => r.firstLine),
      ],
    );
    return rows.map((row) => ({ workspaceId: row.workspace_id, runId: row.id, step: 0 }));
  }

  /** Takes the run for its next step when it is due and nobody holds it; null otherwise. */
  async claim(workspaceId: string, runId: string): Promise<ClaimedRun | null> {
    const claim = randomUUID();
    // An UPDATE answers [rows, count] through TypeORM.
    const [[row]] = await this.dataSource.query(
      `WITH before AS (
         SELECT workspace_id, id, claimed_until, state FROM automation_runs
          WHERE workspace_id = $1 AND id = $2 AND state IN ('running', 'waiting') AND due_at <= now()
            AND (claimed_until IS NULL OR claimed_until < now())
          FOR UPDATE SKIP LOCKED)
       UPDATE automation_runs r SET claim = $3, claimed_until = now() + make_interval(secs => $4), state = 'running'
         FROM before WHERE r.workspace_id = before.workspace_id AND r.id = before.id
       RETURNING ${COLUMNS.split(', ')
         .map((c) => `r.${c}`)
         .join(', ')},
                 before.claimed_until IS NOT NULL AS "tookOver", before.state = 'waiting' AS resumed`,
      [workspaceId, runId, claim, RUN_CLAIM_SECONDS],
    );
    return row ? { ...row, claim } : null;
  }

  /** Records a step under the claim; false when the claim was lost (another worker took the run over). */
  async record(workspaceId: string, runId: string, claim: string, change: RunChange): Promise<boolean> {
    const ended = change.state === 'finished' || change.state === 'failed';
    const waiting = change.state === 'waiting';
    const [, count]: [unknown, number] = await this.dataSource.query(
      `UPDATE automation_runs
          SET log = log || (SELECT coalesce(jsonb_agg(jsonb_build_object('at', clock_timestamp(), 'line', l)), '[]')
            FROM unnest($4::text[]) l),
              step = $5, state = $6,
              due_at = CASE WHEN $7 THEN NULL WHEN $8 THEN $9::timestamptz ELSE due_at END,
              finished_at = CASE WHEN $7 THEN now() ELSE NULL END,
              claim = CASE WHEN $7 OR $8 THEN NULL ELSE claim END,
              claimed_until = CASE WHEN $7 OR $8 THEN NULL ELSE now() + make_interval(secs => $10) END
        WHERE workspace_id = $1 AND id = $2 AND claim = $3`,
      [
        workspaceId,
        runId,
        claim,
        change.lines,
        change.step,
        change.state,
        ended,
        waiting,
        change.dueAt ?? null,
        RUN_CLAIM_SECONDS,
      ],
    );
    return count === 1;
  }

  /** Runs that are due and held by nobody (a lost job, Redis down, a worker that died): for the poll. */
  async due(graceMs: number, limit: number): Promise<RunKey[]> {
    const rows: Array<{ workspace_id: string; id: string; step: number }> = await this.dataSource.query(
      `SELECT workspace_id, id, step FROM automation_runs
        WHERE state IN ('running', 'waiting') AND due_at <= now() - make_interval(secs => $1)
          AND (claimed_until IS NULL OR claimed_until < now())
        ORDER BY due_at LIMIT $2`,
      [graceMs / 1000, limit],
    );
    return rows.map((row) => ({ workspaceId: row.workspace_id, runId: row.id, step: row.step }));
  }

  /** Newest first, at most `first` per automation. */
  latestOf(
    workspaceId: string,
    automationIds: readonly string[],
    first: number,
    state: RunState | null = null,
  ): Promise<RunLogRow[]> {
    const columns = COLUMNS.split(', ').map((c) => `r.${c}`);
    return this.dataSource.query(
      `SELECT ${columns.join(', ')}, p.email AS person_email, p.name AS person_name FROM (
         SELECT *, row_number() OVER (PARTITION BY automation_id ORDER BY created_at DESC, id DESC) AS n
           FROM automation_runs WHERE workspace_id = $1 AND automation_id = ANY($2::text[])
            AND ($4::text IS NULL OR state = $4)) r
         ${personJoin('p', 'r.workspace_id', 'r.person_id', 'LEFT JOIN')}
        WHERE r.n <= $3 ORDER BY r.created_at DESC, r.id DESC`,
      [workspaceId, automationIds, first, state],
    );
  }

  /** Retention: runs that ended before `before`; a run still running or waiting is kept. */
  deleteEndedBefore(before: Date): Promise<number> {
    return deleteInBatches(this.dataSource, 'automation_runs', 'finished_at < $2', [before]);
  }
}
