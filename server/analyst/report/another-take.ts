import type { ChartItem, ContentItem, StructuredResponse } from '@contract/structured-response';
import { finishReport, text } from '../tools/reports';

/**
 * Regenerate with the builtin (ADR 0059): the same figures from another angle, never the same
 * report again. Take n leads with a different chart (the charts rotate by n), draws bar charts
 * the other way round (horizontal for odd takes) and says so in the report's first lines; a
 * module that broke the data down another way (ADR 0064) gives that angle, stated first.
 */

type Axes = { x?: unknown; y?: unknown };

function turned(chart: ChartItem, horizontal: boolean): ChartItem {
  const config = chart.config as { type?: string; options?: Record<string, unknown> };
  if (config.type !== 'bar') return chart;
  const options = { ...(config.options ?? {}) };
  const scales = (options.scales ?? {}) as Axes;
  const wasHorizontal = options.indexAxis === 'y';
  if (wasHorizontal === horizontal) return chart;
  if (horizontal) options.indexAxis = 'y';
  else delete options.indexAxis;
  options.scales = { x: scales.y, y: scales.x };
  return { ...chart, config: { ...chart.config, options } } as ChartItem;
}

export function anotherTake(
  report: StructuredResponse,
  take: number,
  /** The module's other angle on the data, stated first ("This take breaks ... down by ..."). */
  angle: string | null = null,
): StructuredResponse {
  const charts = report.content.filter((c): c is ChartItem => c.type === 'chart');
  const horizontal = take % 2 === 1;
  const shift = charts.length ? take % charts.length : 0;
  const order = [...charts.slice(shift), ...charts.slice(0, shift)].map((c) =>
    turned(c, horizontal),
  );
  let next = 0;
  const content: ContentItem[] = report.content.map((c) =>
    c.type === 'chart' ? order[next++]! : c,
  );
  const lead = order[0];
  const bars = charts.some((c) => (c.config as { type?: string }).type === 'bar');
  const breakdown = angle;
  const drawn = [
    lead && charts.length > 1 ? `leads with the chart "${lead.title}"` : null,
    bars ? `draws the bar charts ${horizontal ? 'horizontally' : 'vertically'}` : null,
  ].filter(Boolean);
  const note = `**Another take (version ${take + 1}):** ${
    breakdown ? `${breakdown} It uses the same files` : 'the same figures from the same files'
  }${
    drawn.length ? `; this version ${drawn.join(' and ')}` : ''
  }. Earlier versions stay readable with the arrows under the reply.`;
  const first = content.findIndex((c) => c.type === 'text');
  // The note goes after the answer's first lines, so the answer still comes first.
  content.splice(first >= 0 ? first + 1 : 0, 0, text(note));
  return finishReport({
    taskName: report.task_name,
    content,
    nextSteps: [...report.next_steps.map((s) => s.step_description)].reverse(),
  });
}
