// docs/rest.md#every-event-out-as-a-stream: every timeline row of a range as NDJSON, a keyset page at a time, its
// lines written by PostgreSQL and streamed by COPY. A chunk is read from PostgreSQL only when the reader takes the
// one before, so memory holds a chunk or two of about 64 kB whatever the range's size or the reader's speed.
import { Injectable } from '@nestjs/common';
import { Refusal } from '@app/platform';
import { type AuthContext, canManage } from '@app/workspaces';
import { EventsExportRepository } from './events-export.repository';
import type { ExportPosition, ExportRange } from './export-range';
import { ExportTally } from './export-tally';

/**
 * Rows per page: a page is about 2 MB of text, sorted in PostgreSQL's work_mem and written in a few tens of
 * milliseconds, so the statement's fixed cost is shared by many lines and a page's snapshot is short
 * (docs/decisions.md#the-events-export-reads-its-own-index).
 */
const EXPORT_PAGE_ROWS = 5_000;

@Injectable()
export class EventsExportService {
  constructor(private readonly exports: EventsExportRepository) {}

  /** Owners and admins export; a member's key is refused. */
  allow(auth: AuthContext): void {
    if (!canManage(auth))
      throw new Refusal('forbidden', 'Only workspace owners and admins may export the events: use one of their keys.');
  }

  /** The range's lines as PostgreSQL sends them, oldest first; ends after the last row of the range. */
  async *chunks(workspaceId: string, range: ExportRange): AsyncGenerator<Buffer> {
    let after: ExportPosition | null = range.after ?? null;
    for (;;) {
      const page = new ExportTally();
      for await (const chunk of this.pageWithRetries(workspaceId, range, after)) {
        page.saw(chunk);
        yield chunk;
      }
      if (page.lines < EXPORT_PAGE_ROWS) return;
      after = page.last();
    }
  }

  /**
   * A page that waited too long for a lock (the partitions sweep moving a month out of the default partition holds
   * one while it copies) or lost a deadlock is read again from the same position, when none of it was sent yet: a
   * page reads only, so a second reading answers the same lines, and an export of hours is not cut for a moment's
   * wait.
   */
  private async *pageWithRetries(workspaceId: string, range: ExportRange, after: ExportPosition | null) {
    for (let reading = 1; ; reading++) {
      let sent = false;
      try {
        for await (const chunk of this.exports.page(workspaceId, range.from, range.to, after, EXPORT_PAGE_ROWS)) {
          sent = true;
          yield chunk;
        }
        return;
      } catch (error) {
        if (sent || reading >= PAGE_READINGS || !RETRIED.has((error as { code?: string }).code ?? '')) throw error;
        await new Promise((resolve) => setTimeout(resolve, 250 * reading));
      }
    }
  }
}

/** What a page is read again for: a statement timeout, a lock not granted, a deadlock, a serialization failure. */
const RETRIED = new Set(['57014', '55P03', '40P01', '40001']);
const PAGE_READINGS = 3;
