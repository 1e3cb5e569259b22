import { describe, expect, it } from 'vitest';
import {
  chartFileBase,
  chartHtmlPage,
  chartTypeLabel,
  inlineLegend,
  inlineScales,
  removeStringTooltipCallbacks,
  validateChart,
} from './chart-config';

const data = { labels: ['a'], datasets: [{ data: [1] }] };

describe('validateChart', () => {
  it('requires config.data', () => {
    expect(validateChart({ chart_type: 'bar', config: {} })).toEqual({
      ok: false,
      error: 'Invalid chart configuration: Missing data',
    });
  });
  it('rejects unsupported types with their name', () => {
    expect(validateChart({ chart_type: 'sankey', config: { data } })).toEqual({
      ok: false,
      error: 'Unsupported chart type: sankey',
    });
  });
  it('accepts supported types in any case, config.type first', () => {
    const r = validateChart({ chart_type: 'sankey', config: { type: 'PolarArea', data } });
    expect(r).toMatchObject({ ok: true, type: 'polarArea' });
    for (const t of ['BAR', 'line', 'Pie', 'doughnut', 'radar', 'bubble', 'scatter']) {
      expect(validateChart({ chart_type: t, config: { data } }).ok).toBe(true);
    }
  });
});

describe('removeStringTooltipCallbacks', () => {
  it('removes string callbacks and keeps the rest, without touching the input', () => {
    const fn = () => 'x';
    const options = {
      plugins: {
        tooltip: { enabled: true, callbacks: { label: 'function(c){return c}', title: fn } },
      },
      tooltips: { callbacks: { footer: 'function(){}' } },
    };
    const out = removeStringTooltipCallbacks(options as never) as typeof options;
    expect(out.plugins.tooltip.callbacks).toEqual({ title: fn });
    expect(out.plugins.tooltip.enabled).toBe(true);
    expect(out.tooltips.callbacks).toEqual({});
    expect(options.plugins.tooltip.callbacks.label).toBe('function(c){return c}');
  });
});

describe('file names and labels', () => {
  it('turns every non letter or digit into _ and lower-cases', () => {
    expect(chartFileBase('Headcount by Team (2024)')).toBe('headcount_by_team__2024_');
    expect(chartFileBase('Café Sales')).toBe('café_sales');
  });
  it('labels the type followed by Chart', () => {
    expect(chartTypeLabel('bar')).toBe('Bar Chart');
    expect(chartTypeLabel('doughnut')).toBe('Doughnut Chart');
  });
  it('builds an HTML page with the title escaped and the PNG inline', () => {
    const html = chartHtmlPage('<b>Revenue</b>', 'data:image/png;base64,AAAA');
    expect(html).toContain('<h1>&#60;b&#62;Revenue&#60;/b&#62;</h1>');
    expect(html).toContain('src="data:image/png;base64,AAAA"');
    expect(html).not.toContain('<script');
    expect(chartHtmlPage('x', 'javascript:alert(1)')).toContain('src=""');
  });
});

describe('the legend of a chart card', () => {
  const legendOf = (type: string, datasets: unknown[]) => {
    const v = validateChart({
      chart_type: type,
      config: { data: { labels: ['A', 'B'], datasets } },
    });
    if (!v.ok) throw new Error(v.error);
    return inlineLegend(v).display;
  };
  it('shows for several series and for slices, not for a single series', () => {
    expect(
      legendOf('bar', [
        { label: 'Women', data: [1, 2] },
        { label: 'Men', data: [2, 1] },
      ]),
    ).toBe(true);
    expect(legendOf('doughnut', [{ data: [3, 4] }])).toBe(true);
    expect(legendOf('pie', [{ data: [3, 4] }])).toBe(true);
    expect(legendOf('polarArea', [{ data: [3, 4] }])).toBe(true);
    expect(legendOf('bar', [{ label: 'People', data: [1, 2] }])).toBe(false);
    expect(legendOf('line', [{ label: 'People', data: [1, 2] }])).toBe(false);
  });
});

describe('inlineScales', () => {
  const scales = {
    x: { ticks: { color: 'red' } },
    y: { title: { display: true, text: '% of average headcount' } },
  };
  const valid = (type: string, options: Record<string, unknown> = { scales }) => {
    const v = validateChart({ chart_type: type, config: { data, options } });
    if (!v.ok) throw new Error(v.error);
    return v;
  };

  it("keeps a line chart's x labels level and its axis text small, keeping what the config set", () => {
    expect(inlineScales(valid('line'))).toEqual({
      x: { ticks: { color: 'red', font: { size: 10 }, maxRotation: 0, autoSkip: true } },
      y: {
        ticks: { font: { size: 10 } },
        title: { display: true, text: '% of average headcount', font: { size: 10 } },
      },
    });
  });

  it('lets a bar chart slant its labels, so that every category keeps one', () => {
    expect(inlineScales(valid('bar'))?.x).toEqual({ ticks: { color: 'red', font: { size: 10 } } });
  });

  it('leaves the scales to Chart.js when the config gives none', () => {
    expect(inlineScales(valid('line', {}))).toBeUndefined();
  });
});
