// The only code that writes email_standings: opt-outs and undeliverable addresses
// (docs/decisions.md#opt-out-and-undeliverable).
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { newId } from '@app/platform';
import { MergeParticipant, personColumnMover } from '@app/people';
import type { OptOut, OptOutVia, Undeliverable } from './domain';

export interface EmailStandingRows {
  optOuts: OptOut[];
  undeliverable: Undeliverable[];
}

/** One row, as the table keeps it. */
export interface StandingRow {
  person_id: string;
  kind: 'opted_out' | 'undeliverable';
  at: Date;
  via: OptOutVia | null;
  address: string | null;
  message_id: string | null;
}

/** A person's rows, split into their opt-outs and their marked addresses. */
export function standingRows(rows: readonly StandingRow[]): EmailStandingRows {
  return {
    optOuts: rows.filter((r) => r.kind === 'opted_out').map((r) => ({ at: new Date(r.at), via: r.via! })),
    undeliverable: rows
      .filter((r) => r.kind === 'undeliverable')
      .map((r) => ({ at: new Date(r.at), address: r.address!, messageId: r.message_id })),
  };
}

@Injectable()
export class EmailStandingsRepository implements MergeParticipant {
  readonly name = 'email_standings';
  /** A merge's part here: the absorbed people's opt-outs and marks become the survivor's. */
  readonly movePeople = personColumnMover('UPDATE email_standings');

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  transaction<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /** The rows of these people, oldest first. */
  rowsOf(workspaceId: string, personIds: readonly string[]): Promise<StandingRow[]> {
    return this.dataSource.query(
      `SELECT person_id, kind, at, via, address, message_id FROM email_standings
        WHERE workspace_id = $1 AND person_id = ANY($2::text[]) ORDER BY at`,
      [workspaceId, personIds],
    );
  }

  async optOut(
    m: EntityManager | null,
    row: { workspaceId: string; personId: string; via: OptOutVia; at: Date; messageId?: string | null },
  ): Promise<void> {
    await (m ?? this.dataSource).query(
      `INSERT INTO email_standings (workspace_id, id, person_id, kind, at, via, message_id)
       VALUES ($1, $2, $3, 'opted_out', $4, $5, $6)`,
      [row.workspaceId, newId('est'), row.personId, row.at.toISOString(), row.via, row.messageId ?? null],
    );
  }

  async markUndeliverable(
    m: EntityManager,
    row: { workspaceId: string; personId: string; address: string; at: Date; messageId: string },
  ): Promise<void> {
    await m.query(
      `INSERT INTO email_standings (workspace_id, id, person_id, kind, at, address, message_id)
       VALUES ($1, $2, $3, 'undeliverable', $4, $5, $6)`,
      [row.workspaceId, newId('est'), row.personId, row.at.toISOString(), row.address.toLowerCase(), row.messageId],
    );
  }

  /** Removes the person's opt-outs or marks; answers how many there were. */
  async lift(workspaceId: string, personId: string, kind: 'opted_out' | 'undeliverable'): Promise<number> {
    const [, count]: [unknown[], number] = await this.dataSource.query(
      `DELETE FROM email_standings WHERE workspace_id = $1 AND person_id = $2 AND kind = $3`,
      [workspaceId, personId, kind],
    );
    return count;
  }
}
