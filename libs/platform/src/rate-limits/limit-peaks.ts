// The peaks the owners' view of limits shows (docs/operations.md#limits): for each key, the most it had spent of
// each ten-minute window and the posts refused in it, as Redis's answers told this process. Kept in memory and saved
// every few seconds, as the heartbeat is, so a busy key writes a row per window, not per post.
import type { LimitPeak, LimitStore } from './limit-store';
import { WINDOW_SECONDS, type WorkspaceLimit } from './limit-settings';

const SAVE_MS = 5_000;

/** A post spent this much of the window ending at resetAt (or was refused). */
export interface PeakNote {
  workspaceId: string;
  limit: WorkspaceLimit;
  key: string;
  resetAt: number;
  used: number;
  bound: number;
  refused: boolean;
}

export class LimitPeaks {
  private peaks = new Map<string, LimitPeak>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly store: () => LimitStore | null) {}

  note(note: PeakNote): void {
    // The website limits count per visitor IP; the view keeps no address, only the busiest visitor.
    const key = note.limit.startsWith('website_') ? 'visitors' : note.key;
    const start = Math.floor((note.resetAt - WINDOW_SECONDS * 1000) / 60_000) * 60_000;
    const window = new Date(start).toISOString();
    const id = `${note.workspaceId}|${note.limit}|${key}|${window}`;
    const peak = this.peaks.get(id);
    const used = Math.max(0, Math.min(note.used, note.bound));
    const refused = note.refused ? 1 : 0;
    if (peak) {
      peak.used = Math.max(peak.used, used);
      peak.bound = note.bound;
      peak.refused += refused;
    } else {
      this.peaks.set(id, {
        workspaceId: note.workspaceId,
        limit: note.limit,
        key,
        window,
        used,
        bound: note.bound,
        refused,
      });
    }
    if (!this.timer) {
      this.timer = setInterval(() => void this.save(), SAVE_MS);
      this.timer.unref();
    }
  }

  async save(): Promise<void> {
    const store = this.store();
    if (!store || this.peaks.size === 0) return;
    const batch = [...this.peaks.values()];
    this.peaks = new Map();
    await store.savePeaks(batch).catch(() => undefined); // a lost peak only leaves the view a little low
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.save();
  }
}
