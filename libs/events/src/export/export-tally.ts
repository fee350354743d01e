// docs/rest.md#every-event-out-as-a-stream: the lines of an export counted as its chunks pass, and the cursor of
// the last whole line. Chunks are PostgreSQL's, cut anywhere in a line; the stream ends at the end of a line.
import { decodeExportCursor, type ExportPosition } from './export-range';

/** A line is far shorter than this from its cursor to its end. */
const TAIL_BYTES = 300;

export class ExportTally {
  lines = 0;
  private tail: Buffer = Buffer.alloc(0);

  saw(chunk: Buffer): void {
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) this.lines++;
    this.tail = chunk.length >= TAIL_BYTES ? chunk : Buffer.concat([this.tail, chunk]).subarray(-TAIL_BYTES);
  }

  /** The cursor of the last line seen, or null when no line ended yet. */
  cursor(): string | null {
    const text = this.tail.subarray(-TAIL_BYTES).toString('latin1');
    return /"cursor":"([A-Za-z0-9_-]+)"\}\n$/.exec(text)?.[1] ?? null;
  }

  /** The position of the last line seen: the next page starts after it. */
  last(): ExportPosition {
    const cursor = this.cursor();
    const position = cursor ? decodeExportCursor(cursor) : null;
    if (!position) throw new Error('An export page ended without a cursor on its last line.');
    return position;
  }
}
