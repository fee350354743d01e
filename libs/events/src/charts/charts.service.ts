// Charts (docs/graphql.md#activity-and-charts) for the admin API and the MCP tool chart_events.
import { Injectable } from '@nestjs/common';
import { ChartInput, ChartSeries, chartSeries, parseChartInput, unseenEvent } from './chart-rule';
import { ChartsRepository } from './charts.repository';

@Injectable()
export class ChartsService {
  constructor(private readonly charts: ChartsRepository) {}

  async chart(workspaceId: string, input: ChartInput): Promise<{ series: ChartSeries[] }> {
    const question = parseChartInput(input);
    const rows = await this.charts.chart(workspaceId, question);
    // A custom name with rows was seen; only an empty answer needs asking (custom names count once seen).
    if (!question.builtIn && rows.length === 0 && !(await this.charts.seen(workspaceId, question.event))) {
      throw unseenEvent(question.event);
    }
    return { series: chartSeries(question, rows) };
  }
}
