// The sweep of segments' day windows (docs/graphql.md#segments): as time passes, an event leaves a
// `withinDays` window without a write, and a person's count in it drops (or a `never` comes true). Every
// SEGMENT_SWEEP_MS the worker recomputes, for each segment with a window, the people whose event of it
// occurred in [swept_to − days, now − days), then moves swept_to to now.
import { Inject, Injectable, Logger } from '@nestjs/common';
import { type AppConfig, type Clock, CLOCK, type ClockTimer, CONFIG, DAY_MS, Refusal } from '@app/platform';
import { parseDefinition, windowsOf } from '../domain/definition';
import { SegmentMembership } from '../membership.service';
import { FillRepository, SweptSegment } from './fill.repository';

@Injectable()
export class WindowSweep {
  private readonly logger = new Logger('WindowSweep');
  private timer: ClockTimer | null = null;
  private running: Promise<number> | null = null;

  constructor(
    private readonly fills: FillRepository,
    private readonly membership: SegmentMembership,
    @Inject(CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  start(): void {
    this.timer = this.clock
      .setInterval(
        () => void this.run().catch((error: Error) => this.logger.warn(`window sweep: ${error.message}`)),
        this.config.segmentSweepMs,
      )
      .unref();
  }

  async stop(): Promise<void> {
    this.timer?.cancel();
    await this.running?.catch(() => undefined);
  }

  /** One pass over every segment with a window (a call during a pass shares it); answers the people recomputed. */
  run(): Promise<number> {
    this.running ??= this.pass().finally(() => (this.running = null));
    return this.running;
  }

  private async pass(): Promise<number> {
    let people = 0;
    for (const segment of await this.fills.windowed()) {
      const definition = parseDefinition(segment.definition);
      if (definition instanceof Refusal) continue;
      const windows = windowsOf(definition);
      if (windows.length > 0) people += await this.sweep(segment, windows);
    }
    return people;
  }

  /** One segment, in a transaction of its own; skipped while another worker fills or sweeps it. */
  private async sweep(segment: SweptSegment, windows: Array<{ event: string; days: number }>): Promise<number> {
    // Read before the transaction begins, so the database's now() in it is not earlier.
    const now = new Date(this.clock.now());
    return this.fills.transaction(async (m) => {
      const from = await this.fills.lockSweep(m, segment.id);
      if (!from) return 0;
      const ids = new Set<string>();
      for (const { event, days } of windows) {
        const [start, end] = [new Date(+from - days * DAY_MS), new Date(+now - days * DAY_MS)];
        for (const id of await this.fills.peopleWithEventsIn(m, segment.workspace_id, event, start, end)) ids.add(id);
      }
      const people = [...ids].sort();
      for (let i = 0; i < people.length; i += this.config.segmentFillChunk) {
        const chunk = people.slice(i, i + this.config.segmentFillChunk);
        await this.membership.refresh(m, segment.workspace_id, chunk, { segmentIds: [segment.id] });
      }
      await this.fills.sweptTo(m, segment.id, now);
      return people.length;
    });
  }
}
