// The fill of a new or changed segment over the people it already has (docs/graphql.md#segments), in the
// worker: one filling segment at a time, a chunk of people in id order per transaction. Its progress is the
// segment's columns, so a killed worker's fill is resumed by the next; a definition changed meanwhile starts
// it again (fill_started_at back to null).
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { type AppConfig, type Clock, CLOCK, CONFIG } from '@app/platform';
import { countPeople, lockPeopleAfter } from '@app/people';
import { SegmentMembership } from '../membership.service';
import { FillingSegment, FillRepository } from './fill.repository';

/** Between looks for a filling segment while there is none. */
export const FILL_POLL_MS = 1_000;
/** Between looks at whether the writers begun before a fill have ended. */
const WRITERS_POLL_MS = 20;
/** How long one look waits for them before it leaves the segment to the next. */
const WRITERS_WAIT_MS = 5_000;

@Injectable()
export class SegmentFill {
  private readonly logger = new Logger('SegmentFill');
  private stopping: AbortController | null = null;
  private running: Promise<void> | null = null;
  /** A fill's start (segment id and updated_at) → the database time its writers began before. */
  private readonly marks = new Map<string, string>();

  constructor(
    private readonly fills: FillRepository,
    private readonly membership: SegmentMembership,
    @Inject(CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  start(): void {
    this.stopping = new AbortController();
    this.running = this.loop(this.stopping.signal);
  }

  async stop(): Promise<void> {
    this.stopping?.abort();
    await this.running;
  }

  private async loop(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      const worked = await this.fillNext().catch((error: Error) => {
        this.logger.warn(`segment fill: ${error.message}`);
        return false;
      });
      if (!worked) await this.clock.sleep(FILL_POLL_MS, signal);
    }
  }

  /** One chunk of the oldest filling segment; false when there was nothing to do. */
  async fillNext(): Promise<boolean> {
    const next = await this.fills.nextFilling();
    if (!next) return false;
    const start = next.fill_started_at === null ? await this.writersGone(next) : null;
    if (start === false) return false;
    return this.fills.transaction((m) => this.chunk(m, next.id, start));
  }

  /**
   * Before a fill's first chunk: the transactions in progress when it began must have ended (writersEnded), so each
   * writer still running saw the segment and keeps its members itself. Answers the fill's start (its
   * updated_at) once they have, false while they run on (the next look waits again).
   */
  private async writersGone(segment: FillingSegment): Promise<Date | false> {
    const key = `${segment.id}@${new Date(segment.updated_at).toISOString()}`;
    let mark = this.marks.get(key);
    if (!mark) {
      mark = await this.fills.writersMark();
      this.marks.clear();
      this.marks.set(key, mark);
    }
    const until = this.clock.now() + WRITERS_WAIT_MS;
    while (!(await this.fills.writersEnded(mark))) {
      if (this.clock.now() >= until || this.stopping?.signal.aborted) return false;
      await this.clock.sleep(WRITERS_POLL_MS, this.stopping?.signal);
    }
    return segment.updated_at;
  }

  /** One transaction: the chunk's people locked, their membership of the segment recomputed, the progress. */
  private async chunk(m: EntityManager, id: string, start: Date | null): Promise<boolean> {
    const segment = await this.fills.lockFilling(m, id);
    if (!segment) return true;
    const starting = segment.fill_started_at === null;
    // (Re)started since the wait, by a definition changed meanwhile: the next look waits for its writers.
    if (starting && (start === null || +new Date(segment.updated_at) !== +new Date(start))) return true;
    const ws = segment.workspace_id;
    const chunk = this.config.segmentFillChunk;
    const total = starting ? await countPeople(m, ws) : null;
    const after = starting ? null : segment.fill_after;
    const ids = await lockPeopleAfter(m, ws, after, chunk);
    if (ids.length > 0) {
      await this.membership.refresh(m, ws, ids, { locked: true, segmentIds: [id], announce: segment.announce_fill });
    }
    const done = ids.length < chunk;
    const now = new Date(this.clock.now());
    await this.fills.advance(m, id, { last: ids.at(-1) ?? null, people: ids.length, total, done, now });
    if (done) this.marks.clear();
    return true;
  }
}
