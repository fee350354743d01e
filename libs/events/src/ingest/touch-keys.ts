// The first-touch keys the ingest writes on event rows (docs/decisions.md#charts-from-rollups): each
// first touch's key worked out once per process, and which keys this process has seen named in
// event_touches, so a post names a key only the first time this process meets it.
import { keptIn } from '@app/platform';
import { touchKey, touchParts, TouchParts } from '@app/people';

export interface NamedTouch extends TouchParts {
  touch: string;
}

export class TouchKeys {
  private readonly keys = new Map<string, NamedTouch>();
  private readonly named = new Map<string, true>();

  /** The key of a person's first touch ('0' for none), with the fields it names. */
  of(firstTouch: Record<string, unknown> | null | undefined): NamedTouch {
    const parts = touchParts(firstTouch);
    return keptIn(this.keys, `${parts.source}\u001f${parts.medium}\u001f${parts.campaign}`, () => ({
      touch: touchKey(parts),
      ...parts,
    }));
  }

  /** Whether event_touches may lack this key of the workspace, as far as this process knows. */
  mayLack(workspaceId: string, touch: NamedTouch): boolean {
    return touch.touch !== '0' && !this.named.has(`${workspaceId} ${touch.touch}`);
  }

  /** Keys a committed post named (or found named). */
  noteNamed(workspaceId: string, touches: NamedTouch[]): void {
    for (const t of touches) keptIn(this.named, `${workspaceId} ${t.touch}`, () => true as const);
  }
}
