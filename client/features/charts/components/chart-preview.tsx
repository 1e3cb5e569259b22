import * as React from 'react';
import type { SaveChartPayload } from '@contract/chart';
import { Button } from '@/components/ui/button';
import { chartTypeLabel, chartTypeOf } from '../lib/chart-config';
import { ChartTypeIcon } from './chart-icon';
import { ChartModal, type ChartWithImage } from './chart-modal';

/**
 * Chart preview card (spec section 2): icon by type, title, "{Type} Chart", "View Chart".
 * Nothing of chart.js loads until the modal opens.
 */
export function ChartPreview({
  chart,
  onSave,
}: {
  chart: ChartWithImage;
  onSave?: (payload: SaveChartPayload) => Promise<void>;
}) {
  const [open, setOpen] = React.useState(false);
  const type = chartTypeOf(chart);
  return (
    <div className="flex items-center gap-3 rounded-lg border bg-card p-3">
      <div className="flex size-10 shrink-0 items-center justify-center rounded-md bg-primary/10 text-primary">
        <ChartTypeIcon type={type} className="size-5" aria-hidden="true" />
      </div>
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-medium">{chart.title}</p>
        <p className="text-xs text-muted-foreground">{chartTypeLabel(type)}</p>
      </div>
      <Button size="sm" variant="outline" onClick={() => setOpen(true)}>
        View Chart
      </Button>
      {open && <ChartModal chart={chart} open={open} onOpenChange={setOpen} onSave={onSave} />}
    </div>
  );
}
