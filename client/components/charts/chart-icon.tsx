import {
  ChartAreaIcon,
  ChartColumnIcon,
  ChartLineIcon,
  ChartPieIcon,
  DonutIcon,
  type LucideProps,
} from 'lucide-react';

/** Preview card icon by chart type: bar, line, pie and doughnut have their own (spec section 2). */
export function ChartTypeIcon({ type, ...props }: { type: string | undefined } & LucideProps) {
  switch (type?.toLowerCase()) {
    case 'bar':
      return <ChartColumnIcon data-chart-icon="bar" {...props} />;
    case 'line':
      return <ChartLineIcon data-chart-icon="line" {...props} />;
    case 'pie':
      return <ChartPieIcon data-chart-icon="pie" {...props} />;
    case 'doughnut':
      return <DonutIcon data-chart-icon="doughnut" {...props} />;
    default:
      return <ChartAreaIcon data-chart-icon="default" {...props} />;
  }
}
