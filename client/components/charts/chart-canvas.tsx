// Loaded only when a chart is shown (React.lazy in chart-modal.tsx): chart.js stays out of the
// chat page's first load.
import * as React from 'react';
import { Chart as ChartJS, registerables, type ChartType } from 'chart.js';
import { Chart } from 'react-chartjs-2';

ChartJS.register(...registerables);

/**
 * Chart text and grid lines take the theme's muted text and border colours: Chart.js's own grey
 * (#666) is too dim to read on the dark ground. Set as Chart.js defaults, so a colour the chart's
 * config gives still wins. Returns the colours, to draw the chart again when they change.
 */
function applyThemeColors(): string {
  const style = getComputedStyle(document.documentElement);
  const text = style.getPropertyValue('--muted-foreground').trim();
  const grid = style.getPropertyValue('--border').trim();
  if (text) ChartJS.defaults.color = text;
  if (grid) ChartJS.defaults.borderColor = grid;
  return `${text} ${grid}`;
}

/** The theme's chart colours, followed when the theme (the class on <html>) changes. */
function useThemeColors(): string {
  const [colors, setColors] = React.useState(applyThemeColors);
  React.useEffect(() => {
    const observer = new MutationObserver(() => setColors(applyThemeColors()));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });
    return () => observer.disconnect();
  }, []);
  return colors;
}

export interface ChartCanvasProps {
  type: string;
  data: unknown;
  options: Record<string, unknown>;
  /** The live chart, for PNG export; null when it unmounts. */
  onReady: (chart: ChartJS | null) => void;
  /** The accessible name of the chart image (its title). */
  label?: string;
}

export default function ChartCanvas({ type, data, options, onReady, label }: ChartCanvasProps) {
  const colors = useThemeColors();
  return (
    <Chart
      // Drawn anew when the theme changes: the defaults are read when a chart is made.
      key={colors}
      ref={(chart) => onReady(chart ?? null)}
      type={type as ChartType}
      data={data as never}
      // No animation: the chart is exported as drawn, and an export mid-animation would be partial.
      options={{ ...options, responsive: true, maintainAspectRatio: false, animation: false }}
      role="img"
      aria-label={label ? `Chart: ${label}` : 'Chart'}
    />
  );
}
