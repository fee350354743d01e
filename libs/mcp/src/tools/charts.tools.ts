// chart_events: the same charts service as the GraphQL chart field (docs/graphql.md#activity-and-charts).
import { z } from 'zod';
import { CHART_BREAKDOWNS, CHART_INTERVALS, CHART_MEASURES, ChartsService } from '@app/events';
import { defineTool } from './tool';

export function chartTools(charts: ChartsService) {
  const chartEvents = defineTool({
    name: 'chart_events',
    readOnly: true,
    description:
      'Ask a question of events: how many of one event happened per hour, day, week or month (UTC buckets, ' +
      'empty ones 0) between from and to (ISO 8601, both inclusive). measure count counts rows, sum_value sums ' +
      'their value (money for purchases), people counts distinct people. breakdown splits the answer by the ' +
      'first-touch source, medium or campaign of each person. Expired rows are not counted; a custom event ' +
      'name is accepted once the workspace has seen it. At most 1,000 buckets.',
    input: {
      event: z
        .string()
        .describe('A built-in event name (purchase, signup, pageview, ...) or a custom name the workspace has seen.'),
      measure: z.enum(CHART_MEASURES),
      interval: z.enum(CHART_INTERVALS),
      from: z.string().describe('ISO 8601 start, inclusive.'),
      to: z.string().describe('ISO 8601 end, inclusive.'),
      breakdown: z.enum(CHART_BREAKDOWNS).optional(),
    },
    output: {
      series: z.array(z.object({ key: z.string(), points: z.array(z.object({ at: z.string(), value: z.number() })) })),
    },
    run: async ({ auth }, input) => {
      const { series } = await charts.chart(auth.workspaceId, input);
      return {
        series: series.map((s) => ({
          key: s.key,
          points: s.points.map((p) => ({ at: new Date(p.at).toISOString(), value: p.value })),
        })),
      };
    },
  });
  return [chartEvents];
}
