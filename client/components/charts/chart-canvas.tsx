// Loaded only when a chart is shown (React.lazy in chart-modal.tsx): chart.js stays out of the
// chat page's first load.
import { Chart as ChartJS, registerables, type ChartType } from 'chart.js';
import { Chart } from 'react-chartjs-2';

ChartJS.register(...registerables);

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
  return (
    <Chart
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
