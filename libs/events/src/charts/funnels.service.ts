// Funnels and retention (docs/graphql.md#funnels-and-retention) for the admin API and the MCP tools
// funnel and retention.
import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock, Refusal, SYSTEM_CLOCK } from '@app/platform';
import { unseenEvent } from './chart-rule';
import { ChartsRepository } from './charts.repository';
import { AskedEvent, FunnelInput, FunnelStep, funnelSteps, parseFunnelInput } from './funnel-rule';
import { FunnelsRepository } from './funnels.repository';
import { SegmentsService } from '../segments/segments.service';
import { parseRetentionInput, RetentionCohort, retentionCohorts, RetentionInput } from './retention-rule';

@Injectable()
export class FunnelsService {
  constructor(
    private readonly funnels: FunnelsRepository,
    private readonly charts: ChartsRepository,
    private readonly segments: SegmentsService,
    @Inject(CLOCK) private readonly clock: Clock = SYSTEM_CLOCK,
  ) {}

  async funnel(workspaceId: string, input: FunnelInput): Promise<{ steps: FunnelStep[] }> {
    const question = parseFunnelInput(input);
    await this.checkSegment(workspaceId, question.segment);
    const people = await this.funnels.funnel(workspaceId, question);
    const counted = new Set(question.steps.filter((_, i) => people[i] > 0).map((s) => s.event));
    await this.checkSeen(
      workspaceId,
      question.steps.filter((s) => !counted.has(s.event)),
    );
    return { steps: funnelSteps(question, people) };
  }

  async retention(workspaceId: string, input: RetentionInput): Promise<{ cohorts: RetentionCohort[] }> {
    const question = parseRetentionInput(input, new Date(this.clock.now()));
    await this.checkSegment(workspaceId, question.segment);
    const rows = await this.funnels.retention(workspaceId, question);
    const cohorts = rows.filter((r) => r.at === null);
    const returns = rows.filter((r): r is typeof r & { at: Date } => r.at !== null);
    await this.checkSeen(workspaceId, [
      ...(cohorts.length === 0 ? [question.start] : []),
      ...(returns.length === 0 ? [question.back] : []),
    ]);
    return { cohorts: retentionCohorts(question, cohorts, returns) };
  }

  private async checkSegment(workspaceId: string, segment: string | undefined): Promise<void> {
    if (segment === undefined || (await this.segments.find(workspaceId, segment))) return;
    throw new Refusal('invalid_field', `segment "${segment}" is not one of this workspace’s segments (see segments).`, {
      field: 'segment',
    });
  }

  /** Custom names only once seen; a name with people in the answer was seen, so only the others are asked. */
  private async checkSeen(workspaceId: string, asked: AskedEvent[]): Promise<void> {
    const custom = new Map(asked.filter((a) => !a.builtIn).map((a) => [a.event, a]));
    for (const [event, { field }] of custom) {
      if (!(await this.charts.seen(workspaceId, event))) throw unseenEvent(event, field);
    }
  }
}
