// docs/graphql.md#segments: a definition as one SQL condition over a person row `p` (the people table's
// columns), its values as parameters. The same condition decides a member on every write, in the backfill and
// in the sweep, so the kept membership is the definition's answer wherever it is asked.
import { subscribedNowSql } from '@app/people';
import type { FieldTest, SegmentCondition } from './definition';

/** Parameters of one statement: each value added answers its placeholder, typed. */
export class SqlParams {
  readonly values: unknown[] = [];

  constructor(private readonly offset: number) {}

  add(value: unknown, type: string): string {
    this.values.push(value);
    return `$${this.offset + this.values.length}::${type}`;
  }
}

/** Where the compiled condition finds the workspace and the moment it is asked at (SQL of text and timestamptz). */
export interface CompileScope {
  workspace: string;
  now: string;
  params: SqlParams;
}

/** The columns of `p` a field name reads: email and name are the person's own, the rest identify fields. */
function fieldSql(field: string, scope: CompileScope): { json: string; column: boolean } {
  if (field === 'email' || field === 'name') return { json: `to_jsonb(p.${field})`, column: true };
  return { json: `(p.fields -> ${scope.params.add(field, 'text')})`, column: false };
}

function fieldTestSql(field: string, test: FieldTest, scope: CompileScope): string {
  const { json } = fieldSql(field, scope);
  const { params } = scope;
  if ('exists' in test)
    return test.exists ? `(${json} IS NOT NULL AND ${json} <> 'null')` : `(${json} IS NULL OR ${json} = 'null')`;
  if ('equals' in test) return `(${json} = ${params.add(JSON.stringify(test.equals), 'jsonb')})`;
  if ('in' in test)
    return `(${json} = ANY(${params.add(
      test.in.map((v) => JSON.stringify(v)),
      'jsonb[]',
    )}))`;
  const [op, bound] = 'gt' in test ? ['>', test.gt] : ['<', test.lt];
  // CASE, so the cast runs only on a number (AND does not promise an order).
  const number = `(${json} #>> '{}')::numeric`;
  const bounded = `${number} ${op} ${params.add(bound, 'numeric')}`;
  return `(CASE WHEN jsonb_typeof(${json}) = 'number' THEN ${bounded} ELSE false END)`;
}

/** The person's events of a name (in a window back from now when given), counted up to `upTo`. */
function eventCountSql(event: string, withinDays: number | null, upTo: number, scope: CompileScope): string {
  const { params } = scope;
  const window =
    withinDays === null
      ? ''
      : ` AND e.occurred_at > ${scope.now} - ${params.add(withinDays, 'int')} * interval '24 hours'`;
  return `(SELECT count(*) FROM (SELECT 1 FROM events e WHERE e.workspace_id = ${scope.workspace} AND e.person_id = p.id
    AND e.type = ${params.add(event, 'text')}${window} LIMIT ${upTo}) x)`;
}

export function compileCondition(c: SegmentCondition, scope: CompileScope): string {
  const { params } = scope;
  switch (c.kind) {
    case 'stage':
      return `(p.stage = ANY(${params.add(c.stages, 'text[]')}))`;
    case 'list':
      return subscribedNowSql(scope.workspace, 'p.id', params.add(c.list, 'text'));
    case 'field':
      return fieldTestSql(c.field, c.test, scope);
    case 'event':
      if (c.never) return `(${eventCountSql(c.event, c.withinDays, 1, scope)} = 0)`;
      return `(${eventCountSql(c.event, c.withinDays, c.atLeast, scope)} >= ${c.atLeast})`;
    case 'engaged':
      return c.engaged ? '(p.engaged_at IS NOT NULL)' : '(p.engaged_at IS NULL)';
    case 'firstTouch':
      return `(p.first_touch ->> '${c.part}' IS NOT DISTINCT FROM ${params.add(c.equals, 'text')})`;
    case 'not':
      return `(NOT coalesce(${compileCondition(c.of, scope)}, false))`;
    default:
      const parts = c.of.map((o) => `coalesce(${compileCondition(o, scope)}, false)`);
      return `(${parts.join(c.kind === 'all' ? ' AND ' : ' OR ')})`;
  }
}
