// A person's timeline as pages, and notes, for the admin API and the MCP tools; the console's live feed.
import { Injectable } from '@nestjs/common';
import { decodeCursor, pageOf, pageSize } from '@app/edge';
import { newId, Refusal } from '@app/platform';
import { PeopleQueryService } from '@app/people';
import { LIVE_WINDOW_MS, liveCursor, liveSince } from './domain/live-feed';
import { KindCountRow, LiveEventRow, TimelinePageRow, TimelineReadRepository } from './timeline-read.repository';
import { TimelineRepository, TimelineRow } from './timeline.repository';

export interface TimelinePageInput {
  /** 1 to 100, default 50. */
  first?: number | null;
  after?: string | null;
  /** Only these kinds (event names, note, stage_changed...). */
  types?: string[] | null;
}

export const NOTE_MAX_CHARS = 10_000;

export interface LiveEventsInput {
  /** 1 to 100, default 50. */
  first?: number | null;
  /** The cursor of the previous answer. */
  after?: string | null;
}

@Injectable()
export class TimelineService {
  constructor(
    private readonly read: TimelineReadRepository,
    private readonly timeline: TimelineRepository,
    private readonly people: PeopleQueryService,
  ) {}

  /** The rows of many people's pages (first + 1 each), newest first, in one statement; shape each with page(). */
  rowsOf(workspaceId: string, personIds: readonly string[], input: TimelinePageInput): Promise<TimelinePageRow[]> {
    return this.read.pages(workspaceId, personIds, {
      limit: pageSize(input.first) + 1,
      types: input.types ?? undefined,
      after: decodeCursor(input.after),
    });
  }

  /** The kinds on many people's timelines with how many of each, the most frequent first, in one statement. */
  kindsOf(workspaceId: string, personIds: readonly string[]): Promise<KindCountRow[]> {
    return this.read.kindCounts(workspaceId, personIds);
  }

  /** One person's rows (from rowsOf) as a connection page. */
  page(rows: TimelinePageRow[], input: TimelinePageInput) {
    return pageOf(rows, pageSize(input.first), (row) => ({ atMicros: row.at_micros, id: row.id }));
  }

  /** The live feed: the newest rows recorded since the cursor's read (less the overlap), or in the last 15 minutes. */
  async live(workspaceId: string, input: LiveEventsInput): Promise<{ rows: LiveEventRow[]; cursor: string }> {
    const since = liveSince(input.after);
    const { readMicros, rows } = await this.read.recordedSince(workspaceId, {
      sinceMicros: since,
      windowMs: LIVE_WINDOW_MS,
      limit: pageSize(input.first),
    });
    return { rows, cursor: liveCursor(readMicros) };
  }

  /** A note on the timeline: never an event, so it moves no stage, engages nobody and fires nothing. */
  async addNote(workspaceId: string, author: string, person: string, text: string): Promise<TimelineRow> {
    const words = text.trim();
    if (!words || [...words].length > NOTE_MAX_CHARS)
      throw new Refusal('invalid_field', `text must be 1 to ${NOTE_MAX_CHARS} characters.`);
    const found = await this.people.byWho(workspaceId, person);
    if (!found) throw new Refusal('no_such_person', `No record has the address or id "${person}": check it.`);
    return this.timeline.insertNote({ workspaceId, id: newId('evt'), personId: found.id, text: words, author });
  }
}
