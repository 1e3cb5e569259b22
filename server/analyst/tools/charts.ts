import type { ChartItem } from '@contract/structured-response';

/**
 * Chart.js configurations for the report's chart parts. The client renders config with Chart.js;
 * these builders keep the look consistent (palette, titles, axis starting at zero).
 */

export const PALETTE = [
  '#2563eb',
  '#16a34a',
  '#f59e0b',
  '#dc2626',
  '#7c3aed',
  '#0891b2',
  '#db2777',
  '#65a30d',
  '#ea580c',
  '#475569',
];

export interface Series {
  label: string;
  data: number[];
}

export type ChartKind = 'bar' | 'line' | 'doughnut' | 'pie' | 'radar' | 'polarArea';

/** The chart types a tool caller may ask for (a subset of SUPPORTED_CHART_TYPES with Chart.js names). */
export const CHART_KINDS: readonly ChartKind[] = [
  'bar',
  'line',
  'doughnut',
  'pie',
  'radar',
  'polarArea',
];

export interface ChartSpec {
  title: string;
  kind: ChartKind;
  labels: string[];
  series: Series[];
  /** Axis titles for bar and line charts. */
  xTitle?: string;
  yTitle?: string;
  horizontal?: boolean;
  /** Upper bound of the value axis (e.g. 100 for percentages). */
  max?: number;
}

export function makeChart(spec: ChartSpec): ChartItem {
  const circular = spec.kind === 'doughnut' || spec.kind === 'pie' || spec.kind === 'polarArea';
  const datasets = spec.series.map((s, i) => {
    const color = PALETTE[i % PALETTE.length]!;
    if (circular)
      return {
        label: s.label,
        data: s.data,
        backgroundColor: s.data.map((_, j) => PALETTE[j % PALETTE.length]!),
      };
    if (spec.kind === 'line')
      return {
        label: s.label,
        data: s.data,
        borderColor: color,
        backgroundColor: `${color}33`,
        tension: 0.25,
        // Monotone: the curve between two points stays between their values. The default
        // spline overshoots (a month at 1.9% drawn as a peak near 1.93%, a dip below 0).
        cubicInterpolationMode: 'monotone',
        fill: false,
      };
    if (spec.kind === 'radar')
      return { label: s.label, data: s.data, borderColor: color, backgroundColor: `${color}33` };
    return { label: s.label, data: s.data, backgroundColor: color };
  });
  const options: Record<string, unknown> = {
    responsive: true,
    maintainAspectRatio: false,
    plugins: {
      title: { display: true, text: spec.title },
      legend: { display: circular || spec.series.length > 1 },
    },
  };
  if (spec.kind === 'bar' || spec.kind === 'line') {
    // Counts (every value whole) step in whole numbers: no axis at 0.5 declarations.
    const whole = spec.series.every((s) => s.data.every(Number.isInteger));
    const valueAxis = {
      beginAtZero: true,
      ...(whole ? { ticks: { precision: 0 } } : {}),
      ...(spec.max !== undefined ? { max: spec.max } : {}),
      ...(spec.yTitle ? { title: { display: true, text: spec.yTitle } } : {}),
    };
    const categoryAxis = spec.xTitle ? { title: { display: true, text: spec.xTitle } } : {};
    if (spec.horizontal) {
      options.indexAxis = 'y';
      options.scales = { x: valueAxis, y: categoryAxis };
    } else {
      options.scales = { x: categoryAxis, y: valueAxis };
    }
  }
  if (spec.kind === 'radar') {
    options.scales = {
      r: { beginAtZero: true, ...(spec.max !== undefined ? { max: spec.max } : {}) },
    };
  }
  return {
    type: 'chart',
    title: spec.title,
    chart_type: spec.kind.toLowerCase(),
    config: { type: spec.kind, data: { labels: spec.labels, datasets }, options },
  };
}

export const barChart = (
  title: string,
  labels: string[],
  series: Series[],
  extra: Partial<ChartSpec> = {},
) => makeChart({ title, kind: 'bar', labels, series, ...extra });
export const lineChart = (
  title: string,
  labels: string[],
  series: Series[],
  extra: Partial<ChartSpec> = {},
) => makeChart({ title, kind: 'line', labels, series, ...extra });
export const doughnutChart = (title: string, labels: string[], values: number[], label = title) =>
  makeChart({ title, kind: 'doughnut', labels, series: [{ label, data: values }] });
export const radarChart = (title: string, labels: string[], series: Series[], max?: number) =>
  makeChart({ title, kind: 'radar', labels, series, ...(max !== undefined ? { max } : {}) });
