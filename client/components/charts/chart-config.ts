import type { ChartObject } from '@contract/chart';
import { SUPPORTED_CHART_TYPES } from '@contract/constants';

/** Chart.js names for the spec's lower-case type list. */
const CHART_JS_TYPES: Record<(typeof SUPPORTED_CHART_TYPES)[number], string> = {
  bar: 'bar',
  line: 'line',
  pie: 'pie',
  doughnut: 'doughnut',
  polararea: 'polarArea',
  radar: 'radar',
  bubble: 'bubble',
  scatter: 'scatter',
};

export type ChartValidation =
  | { ok: true; type: string; data: unknown; options: Record<string, unknown> }
  | { ok: false; error: string };

/** config.type, when present, takes precedence over chart_type (spec section 3). */
export function chartTypeOf(chart: Pick<ChartObject, 'chart_type' | 'config'>): string | undefined {
  return chart.config?.type ?? chart.chart_type;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Tooltip callbacks written as strings ("function (ctx) {...}") cannot run and would make
 * Chart.js throw: they are removed (spec section 5). Handles both the v3+ place
 * (options.plugins.tooltip.callbacks) and the v2 one (options.tooltips.callbacks).
 */
export function removeStringTooltipCallbacks(
  options: Record<string, unknown>,
): Record<string, unknown> {
  // Copy only along the two paths we change: the rest is shared, and may hold real functions.
  const withoutStrings = (holder: unknown): unknown => {
    if (!isRecord(holder) || !isRecord(holder.callbacks)) return holder;
    const callbacks = Object.fromEntries(
      Object.entries(holder.callbacks).filter(([, value]) => typeof value !== 'string'),
    );
    return { ...holder, callbacks };
  };
  const copy: Record<string, unknown> = { ...options };
  if (isRecord(copy.plugins) && isRecord(copy.plugins.tooltip)) {
    copy.plugins = { ...copy.plugins, tooltip: withoutStrings(copy.plugins.tooltip) };
  }
  if (isRecord(copy.tooltips)) copy.tooltips = withoutStrings(copy.tooltips);
  return copy;
}

/** Spec section 5: data is required; the type must be one of the supported ones (any case). */
export function validateChart(chart: Pick<ChartObject, 'chart_type' | 'config'>): ChartValidation {
  const data = chart.config?.data;
  if (data === undefined || data === null) {
    return { ok: false, error: 'Invalid chart configuration: Missing data' };
  }
  const raw = chartTypeOf(chart);
  const key = raw?.toLowerCase() as (typeof SUPPORTED_CHART_TYPES)[number] | undefined;
  if (!key || !(SUPPORTED_CHART_TYPES as readonly string[]).includes(key)) {
    return { ok: false, error: `Unsupported chart type: ${raw}` };
  }
  const options = isRecord(chart.config.options)
    ? removeStringTooltipCallbacks(chart.config.options)
    : {};
  return { ok: true, type: CHART_JS_TYPES[key], data, options };
}

/** Chart.js types whose slices are told apart only by the legend. */
const SLICED = new Set(['pie', 'doughnut', 'polarArea']);

/**
 * The legend of the small drawing in a chart's card: shown when the chart cannot be read without
 * it (several series, such as women and men side by side, or slices), compact at the bottom;
 * hidden for a single series, whose title says what it is.
 */
export function inlineLegend(validation: Extract<ChartValidation, { ok: true }>): {
  display: boolean;
  position?: 'bottom';
  labels?: { boxWidth: number; boxHeight: number; font: { size: number } };
} {
  const datasets = isRecord(validation.data) ? validation.data.datasets : undefined;
  const series = Array.isArray(datasets) ? datasets.length : 0;
  if (!SLICED.has(validation.type) && series < 2) return { display: false };
  return {
    display: true,
    position: 'bottom',
    labels: { boxWidth: 10, boxHeight: 10, font: { size: 11 } },
  };
}

/**
 * The axes of the small drawing in a chart's card: smaller text and, on a line chart, x labels
 * kept level (some skipped when they do not fit: they are a sequence, such as months) rather than
 * slanted, so the plot keeps enough height for a long axis title such as "% of average
 * headcount" not to run over the first labels. A bar chart keeps every category's label.
 */
export function inlineScales(
  validation: Extract<ChartValidation, { ok: true }>,
): Record<string, unknown> | undefined {
  const { scales } = validation.options;
  if (!isRecord(scales)) return undefined;
  const small = { size: 10 };
  const line = validation.type === 'line';
  const sized = Object.entries(scales).map(([id, scale]) => {
    if (!isRecord(scale)) return [id, scale];
    const ticks = isRecord(scale.ticks) ? scale.ticks : {};
    const x = (scale.axis ?? id.charAt(0)) === 'x';
    const level = line && x ? { maxRotation: 0, autoSkip: true } : {};
    const title = isRecord(scale.title) ? { ...scale.title, font: small } : scale.title;
    return [id, { ...scale, ticks: { ...ticks, font: small, ...level }, title }];
  });
  return Object.fromEntries(sized);
}

/** Download name base: every character that is not a letter or digit becomes _, lower-cased. */
export function chartFileBase(title: string): string {
  return title.replace(/[^\p{L}\p{N}]/gu, '_').toLowerCase() || 'chart';
}

/** "{Type} Chart" label of the preview card, e.g. "Bar Chart", "Polararea Chart". */
export function chartTypeLabel(type: string | undefined): string {
  const t = (type ?? 'chart').trim();
  return `${t.charAt(0).toUpperCase()}${t.slice(1).toLowerCase()} Chart`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The self-contained HTML page Save Chart stores in Saved Files: the title and the chart as a
 * PNG data URL, viewable offline and in the sandboxed viewer (no scripts).
 */
export function chartHtmlPage(title: string, pngDataUrl: string): string {
  const t = escapeHtml(title);
  const src = pngDataUrl.startsWith('data:image/png;base64,') ? pngDataUrl : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${t}</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;color:#1f2937;background:#fff}h1{font-size:1.4rem}img{max-width:100%;height:auto;border:1px solid #e5e7eb;border-radius:8px}</style>
</head>
<body>
<h1>${t}</h1>
<img src="${escapeHtml(src)}" alt="${t}">
</body>
</html>
`;
}
