// The limits the operator sets per workspace and what the owners see of them (docs/operations.md#limits). The rate
// limits read a workspace's overrides on every post through this store: from memory, kept at most CACHE_MS, and
// dropped on every write here and, by a Redis message, in every other process
// (docs/decisions.md#limits-the-operator-sets).
import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import {
  type AppConfig,
  CONFIG,
  connectRedis,
  DAY_MS,
  LIMITS,
  type LimitOverrides,
  type LimitPeak,
  type LimitStore,
  RateLimits,
  REDIS,
  type RedisClient,
  Refusal,
  retainedSince,
  SweepRegistry,
  WORKSPACE_LIMIT_NAMES,
  WORKSPACE_LIMITS,
  type WorkspaceLimit,
} from '@app/platform';
import { WorkspacesService } from '../workspaces.service';
import { figureRefusal, limitNamed } from './limit-rules';
import { WorkspaceLimitsRepository } from './workspace-limits.repository';

/** Longest a process keeps a workspace's overrides without reading them again, should a message be lost. */
const CACHE_MS = 10_000;
/** The owners' view reads the last day; peaks are kept two. */
const PEAKS_KEPT_MS = 2 * DAY_MS;

export interface WorkspaceLimitView {
  limit: WorkspaceLimit;
  perTenMinutes: number;
  isDefault: boolean;
}

export interface LimitPeakView {
  limit: WorkspaceLimit;
  key: string;
  used: number;
  bound: number;
  refused: number;
  at: Date;
}

@Injectable()
export class WorkspaceLimitsService implements LimitStore, OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Limits');
  private readonly cache = new Map<string, { overrides: LimitOverrides; until: number }>();
  private readonly reads = new Map<string, Promise<LimitOverrides>>();
  /** Moves on every drop, so a read begun before a write does not keep what it read. */
  private generation = 0;
  private listener: RedisClient | null = null;

  constructor(
    private readonly repository: WorkspaceLimitsRepository,
    private readonly workspaces: WorkspacesService,
    private readonly limits: RateLimits,
    private readonly sweeps: SweepRegistry,
    @Inject(REDIS) private readonly redis: RedisClient,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  private get channel(): string {
    return `${this.config.redisPrefix}:workspace-limits`;
  }

  onModuleInit(): void {
    this.limits.useStore(this);
    this.sweeps.register('limit-peaks', () => this.repository.deletePeaksBefore(retainedSince(PEAKS_KEPT_MS)));
    this.listener = connectRedis(this.config, { lazyConnect: true, maxRetriesPerRequest: null });
    this.listener.on('error', (error: Error) => this.logger.warn(`limits listener: ${error.message}`));
    this.listener.on('message', (_channel: string, workspaceId: string) => this.drop(workspaceId));
    this.listener.on('ready', () => this.drop()); // messages sent while it was away are lost: read everything again
    this.listener
      .subscribe(this.channel)
      .catch((error: Error) => this.logger.warn(`limits read again after ${CACHE_MS} ms: ${error.message}`));
  }

  onModuleDestroy(): void {
    // A subscriber has nothing to flush, and a quit would wait for a Redis that may never answer again.
    this.listener?.disconnect();
  }

  overridesOf(workspaceId: string): LimitOverrides | Promise<LimitOverrides> {
    const cached = this.cache.get(workspaceId);
    if (cached && cached.until > Date.now()) return cached.overrides;
    let read = this.reads.get(workspaceId);
    if (!read) {
      read = this.read(workspaceId, cached?.overrides).finally(() => this.reads.delete(workspaceId));
      this.reads.set(workspaceId, read);
    }
    return read;
  }

  private async read(workspaceId: string, stale: LimitOverrides | undefined): Promise<LimitOverrides> {
    const generation = this.generation;
    try {
      const rows = await this.repository.overrides(workspaceId);
      const overrides: LimitOverrides = new Map(rows.map((r) => [r.limit_name as WorkspaceLimit, r.per_ten_minutes]));
      if (generation === this.generation) this.cache.set(workspaceId, { overrides, until: Date.now() + CACHE_MS });
      return overrides;
    } catch {
      return stale ?? new Map(); // the database away: the last figures known, else the defaults; posts go on
    }
  }

  /** Forgets one workspace's overrides, or every workspace's. */
  private drop(workspaceId?: string): void {
    this.generation++;
    if (workspaceId) this.cache.delete(workspaceId);
    else this.cache.clear();
  }

  savePeaks(peaks: LimitPeak[]): Promise<void> {
    return this.repository.addPeaks(peaks);
  }

  /** Operator: the workspace (id or slug) allows perTenMinutes calls per window of this limit, from its next post. */
  async set(workspace: string, limit: string, perTenMinutes: number): Promise<WorkspaceLimitView[]> {
    const named = limitNamed(limit);
    if (named instanceof Refusal) throw named;
    const refusal = figureRefusal(perTenMinutes);
    if (refusal) throw refusal;
    const workspaceId = await this.workspaceIdOf(workspace);
    await this.repository.set(workspaceId, named, perTenMinutes);
    await this.written(workspaceId);
    return this.list(workspaceId);
  }

  /** Operator: the limit goes back to the deployment's default (the spec's figure unless configured). */
  async reset(workspace: string, limit: string): Promise<WorkspaceLimitView[]> {
    const named = limitNamed(limit);
    if (named instanceof Refusal) throw named;
    const workspaceId = await this.workspaceIdOf(workspace);
    await this.repository.reset(workspaceId, named);
    await this.written(workspaceId);
    return this.list(workspaceId);
  }

  private async written(workspaceId: string): Promise<void> {
    this.drop(workspaceId);
    await this.redis.publish(this.channel, workspaceId).catch((error: Error) => {
      this.logger.warn(`other processes read the new limit within ${CACHE_MS} ms: ${error.message}`);
    });
  }

  private async workspaceIdOf(workspace: string): Promise<string> {
    if (workspace.startsWith('ws_')) return (await this.workspaces.get(workspace)).id;
    return this.workspaces.idOfSlug(workspace);
  }

  /** Every limit of the table with the figure the workspace has now. */
  async list(workspaceId: string): Promise<WorkspaceLimitView[]> {
    const rows = await this.repository.overrides(workspaceId);
    const set = new Map(rows.map((r) => [r.limit_name, r.per_ten_minutes]));
    return WORKSPACE_LIMIT_NAMES.map((limit) => {
      const override = set.get(limit);
      const fallback = this.config.limitDefaults?.[limit] ?? LIMITS[WORKSPACE_LIMITS[limit]];
      return { limit, perTenMinutes: override ?? fallback, isDefault: override === undefined };
    });
  }

  /** For each key and limit, its fullest ten-minute window of the last day. */
  async peaks(workspaceId: string): Promise<LimitPeakView[]> {
    const rows = await this.repository.peaks(workspaceId, new Date(Date.now() - DAY_MS));
    return rows.map((r) => ({
      limit: r.limit_name as WorkspaceLimit,
      key: r.key,
      used: r.used,
      bound: r.bound,
      refused: r.refused,
      at: r.window_start,
    }));
  }
}
