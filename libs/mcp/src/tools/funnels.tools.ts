// funnel and retention: the same service as the GraphQL fields funnel and retention
// (docs/graphql.md#funnels-and-retention).
import { z } from 'zod';
import {
  FunnelsService,
  MAX_FUNNEL_STEPS,
  MAX_RETENTION_PERIODS,
  MAX_WITHIN_DAYS,
  MIN_FUNNEL_STEPS,
  RETENTION_INTERVALS,
} from '@app/events';
import { defineTool } from './tool';

const EVENT = 'A built-in event name (purchase, signup, pageview, ...) or a custom name the workspace has seen.';
const SEGMENT = 'A segment id: only people who are members of it now.';

export function funnelTools(funnels: FunnelsService) {
  const funnel = defineTool({
    name: 'funnel',
    readOnly: true,
    description:
      'How many people did events in order: a person counts at step 1 when they did it between from (inclusive) ' +
      'and to (exclusive), and at step k when after their first step 1 they did steps 2..k in that order, each at ' +
      'or after the one before, all within within_days of step 1 when given. conversion is people / step 1 people. ' +
      'Expired rows are not counted; custom names are accepted once the workspace has seen them.',
    input: {
      steps: z.array(z.string().describe(EVENT)).min(MIN_FUNNEL_STEPS).max(MAX_FUNNEL_STEPS),
      within_days: z.number().int().min(1).max(MAX_WITHIN_DAYS).optional(),
      from: z.string().describe('ISO 8601 start of step 1, inclusive.'),
      to: z.string().describe('ISO 8601 end of step 1, exclusive.'),
      segment: z.string().optional().describe(SEGMENT),
    },
    output: {
      steps: z.array(z.object({ event: z.string(), people: z.number(), conversion: z.number() })),
    },
    run: ({ auth }, { within_days, ...input }) =>
      funnels.funnel(auth.workspaceId, { ...input, withinDays: within_days }),
  });
  const retention = defineTool({
    name: 'retention',
    readOnly: true,
    description:
      'Who comes back: each cohort is the people whose first start event ever fell in one period (day, week from ' +
      'Monday, or month, in UTC) of the last `periods` up to now; shares[i] is the share of them who did back i ' +
      'periods after their cohort’s (shares[0] is 1). Oldest cohort first.',
    input: {
      start: z.string().describe(EVENT),
      back: z.string().describe(EVENT),
      interval: z.enum(RETENTION_INTERVALS).optional().describe('week when absent.'),
      periods: z.number().int().min(1).max(MAX_RETENTION_PERIODS).optional().describe('8 when absent.'),
      segment: z.string().optional().describe(SEGMENT),
    },
    output: {
      cohorts: z.array(z.object({ start: z.string(), people: z.number(), shares: z.array(z.number()) })),
    },
    run: async ({ auth }, input) => {
      const { cohorts } = await funnels.retention(auth.workspaceId, input);
      return { cohorts: cohorts.map((c) => ({ ...c, start: c.start.toISOString() })) };
    },
  });
  return [funnel, retention];
}
