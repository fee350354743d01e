// GraphQL: the heartbeat and the event names a workspace can chart or trigger on
// (docs/graphql.md#activity-and-charts).
import { UseGuards } from '@nestjs/common';
import { Args, Query, Resolver } from '@nestjs/graphql';
import { AuthContext, GraphqlAuthGuard, Member } from '@app/workspaces';
import { BUILT_IN_EVENTS } from '../domain';
import { HeartbeatService } from '../heartbeat.service';
import { TimelineRepository } from '../timeline.repository';
import { EventNameType, HeartbeatRowType } from './people.types';

const WEEK_MS = 7 * 24 * 3600 * 1000;

@Resolver()
@UseGuards(GraphqlAuthGuard)
export class ActivityResolver {
  constructor(
    private readonly timelineRepository: TimelineRepository,
    private readonly heartbeatService: HeartbeatService,
  ) {}

  @Query(() => [EventNameType], { description: 'Built-in names and the custom names this workspace has seen.' })
  async eventNames(@Member() auth: AuthContext) {
    const seen = await this.timelineRepository.seenNames(auth.workspaceId);
    return [
      ...BUILT_IN_EVENTS.map((name) => ({ name, builtIn: true })),
      ...seen.map((s) => ({ name: s.name, builtIn: false })),
    ];
  }

  @Query(() => [HeartbeatRowType], {
    description:
      'Posts per minute, action, answer and origin from the website and servers; at most the last week, newest first.',
  })
  async heartbeat(@Member() auth: AuthContext, @Args('since', { nullable: true }) since?: Date) {
    await this.heartbeatService.flush();
    const floor = new Date(Date.now() - WEEK_MS);
    const from = since && since > floor ? since : floor;
    const rows = await this.heartbeatService.read(auth.workspaceId, from);
    return rows.map((r) => ({
      minute: new Date(r.minute),
      action: r.action,
      answer: r.answer,
      origin: r.origin,
      count: r.count,
    }));
  }
}
