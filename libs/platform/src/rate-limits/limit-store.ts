// What the rate limits ask of the lib that keeps a workspace's limits (docs/operations.md#limits): the operator's
// overrides, and where the peak of each key in each window goes for the owners' view. The platform owns no table;
// the workspaces lib gives the store at start-up (RateLimits.useStore).
import type { WorkspaceLimit } from './limit-settings';

/** A workspace's overrides, by limit; a limit not in it has the deployment's default. */
export type LimitOverrides = ReadonlyMap<WorkspaceLimit, number>;

/** The most one key (or the busiest visitor) had spent of a ten-minute window, and the posts refused in it. */
export interface LimitPeak {
  workspaceId: string;
  limit: WorkspaceLimit;
  /** The key id, the automation id, or `visitors` for the website limits: no address is kept. */
  key: string;
  /** The window's start, to the minute (ISO 8601). */
  window: string;
  used: number;
  bound: number;
  refused: number;
}

export interface LimitStore {
  /** Answered from memory when it can: the rate limits ask it on every post. */
  overridesOf(workspaceId: string): LimitOverrides | Promise<LimitOverrides>;
  /** Saves peaks counted since the last call (kept by the store on a failure, or dropped). */
  savePeaks(peaks: LimitPeak[]): Promise<void>;
}
