// docs/rest.md#every-event-out-as-a-stream: a keyset page of a workspace's timeline in (occurred_at, id) order,
// read through events_export (docs/decisions.md#the-events-export-reads-its-own-index). PostgreSQL writes the
// page's lines itself, each person's identities joined once per page, and streams them out by COPY: the api
// passes PostgreSQL's bytes on as they come. Each page is a statement of its own, so an erasure or an expiry
// committed while an export runs is seen by the next page, and no transaction stays open for the length of the
// export.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { escapeLiteral } from 'pg';
import type { DataSource } from 'typeorm';
import { copyOut } from '@app/platform';
import { identitiesJsonOf } from '@app/people';
import type { ExportPosition } from './export-range';

const jsonText = (expression: string) => `coalesce(to_json(${expression})::text, 'null')`;
const micros = `(extract(epoch FROM p.occurred_at) * 1000000)::bigint::text`;
const iso = `to_char(p.occurred_at AT TIME ZONE 'UTC',
  CASE WHEN extract(microseconds FROM p.occurred_at)::bigint % 1000 = 0 THEN 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"' ELSE 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"' END)`;
const value = `CASE WHEN p.value IS NULL OR p.value = 'NaN' OR abs(p.value) > 1e308 THEN 'null'
  ELSE p.value::float8::text END`;

/**
 * Up to `size` rows of [from, to) of the workspace after the position (microseconds, id), expired rows not yet
 * swept left out, one line each (ExportedEvent's fields in its order) in (occurred_at, id) order. The cursor is
 * `<microseconds>-<id>`. COPY takes no parameters, so the values are written in as literals. CSV with a quote and
 * a delimiter no JSON text holds raw (control characters are escaped in JSON) writes each line as it is.
 */
const pageLines = (workspace: string, from: string, to: string, atMicros: string, id: string, size: number) =>
  `COPY (WITH page AS MATERIALIZED (
  SELECT id, type, occurred_at, person_id, value, properties, detail, source
    FROM events
   WHERE workspace_id = ${workspace} AND occurred_at >= ${from} AND occurred_at < ${to}
     AND (occurred_at, id) > (timestamptz 'epoch' + ${atMicros}::bigint * interval '1 microsecond', ${id}::text)
     AND (expires_at IS NULL OR expires_at > now())
   ORDER BY occurred_at, id
   LIMIT ${size}
), held AS (
  ${identitiesJsonOf(workspace, 'SELECT person_id FROM page')}
)
SELECT
  '{"id":' || to_json(p.id)::text || ',"type":' || to_json(p.type)::text || ',"occurred_at":"' || ${iso} ||
  '","person_id":' || to_json(p.person_id)::text ||
  ',"identities":' || coalesce(h.identities, '{"email":[],"anon_id":[],"account_id":[]}') ||
  ',"value":' || ${value} || ',"properties":' || coalesce(p.properties::text, 'null') ||
  ',"detail":' || ${jsonText('p.detail')} || ',"source":' || coalesce(p.source::text, 'null') ||
  ',"cursor":"' || ${micros} || '-' || p.id || '"}'
  FROM page p LEFT JOIN held h ON h.person_id = p.person_id
 ORDER BY p.occurred_at, p.id) TO STDOUT WITH (FORMAT csv, QUOTE E'\\x01', DELIMITER E'\\x02')`;

@Injectable()
export class EventsExportRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Up to `size` lines of [from, to) after `after` (or from the start of the range), as PostgreSQL sends them. */
  page(workspaceId: string, from: Date, to: Date, after: ExportPosition | null, size: number): AsyncGenerator<Buffer> {
    // Starting: just before from, with an id below every id, so a row at exactly from is read.
    const atMicros = after ? after.atMicros : String(BigInt(from.getTime()) * 1000n);
    if (!/^\d+$/.test(atMicros) || !Number.isSafeInteger(size)) throw new Error('An export page needs whole numbers.');
    const copy = pageLines(
      escapeLiteral(workspaceId),
      escapeLiteral(from.toISOString()),
      escapeLiteral(to.toISOString()),
      atMicros,
      escapeLiteral(after ? after.id : ''),
      size,
    );
    return copyOut(this.dataSource, copy);
  }
}
