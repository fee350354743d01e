// A merge moves everything of the absorbed people onto the survivor (docs/architecture.md#merge-participants). Each
// context moves its own rows: it registers a participant here (like the outbox handlers and the sweep
// registry), and every merge calls them all inside its own transaction, so a new context with rows
// that name a person joins by registering, without touching the people repository.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** One merge: the absorbed people's rows now belong to the survivor. */
export interface PersonMerge {
  workspaceId: string;
  survivorId: string;
  absorbedIds: string[];
}

export interface MergeParticipant {
  /** Unique; registering the same name again replaces the earlier participant. */
  readonly name: string;
  /**
   * Re-points this context's rows from the absorbed people to the survivor. Runs inside the merge's
   * transaction (use `manager`, never a pool connection) and writes only tables of its own context.
   */
  movePeople(manager: EntityManager, merge: PersonMerge): Promise<void>;
}

/**
 * A movePeople for rows that name their person in a person_id column beside workspace_id. `update` is
 * the owner's own `UPDATE <table>`, so the table's name stays in its context's SQL (test/table-owners.spec.ts).
 */
export function personColumnMover(update: `UPDATE ${string}`): MergeParticipant['movePeople'] {
  return async (manager, merge) => {
    await manager.query(`${update} SET person_id = $2 WHERE workspace_id = $1 AND person_id = ANY($3::text[])`, [
      merge.workspaceId,
      merge.survivorId,
      merge.absorbedIds,
    ]);
  };
}

@Injectable()
export class MergeParticipants {
  private readonly participants = new Map<string, MergeParticipant>();

  /** Called from the owning module's onModuleInit, e.g. `participants.register(repository)`. */
  register(participant: MergeParticipant): void {
    this.participants.set(participant.name, participant);
  }

  names(): string[] {
    return [...this.participants.keys()];
  }

  /** Every participant, in registration order; a failure fails the merge and its transaction. */
  async moveAll(manager: EntityManager, merge: PersonMerge): Promise<void> {
    for (const participant of this.participants.values()) await participant.movePeople(manager, merge);
  }
}
