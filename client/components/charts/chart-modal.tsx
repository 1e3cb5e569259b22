import * as React from 'react';
import type { Chart as ChartJS } from 'chart.js';
import { DownloadIcon, FileJsonIcon, SaveIcon } from 'lucide-react';
import type { ChartObject, SaveChartPayload } from '@contract/chart';
import { Button } from '@/components/ui/button';
import { DialogFrame } from '@/components/dialog-frame';
import { toast } from '@/hooks/use-toast';
import { downloadDataUrl, downloadText } from '@/lib/download';
import { chartFileBase, validateChart } from './chart-config';

const ChartCanvas = React.lazy(() => import('./chart-canvas'));

export type ChartWithImage = ChartObject & { imageData?: string };

/**
 * The chart as a PNG data URL on the card's ground, white in the light theme (a transparent PNG is
 * unreadable in dark viewers); in the dark theme the ground is dark, as the text is drawn light.
 */
function exportPng(chart: ChartJS): string {
  const source = chart.canvas;
  const out = document.createElement('canvas');
  out.width = source.width;
  out.height = source.height;
  const ctx = out.getContext('2d');
  if (!ctx) throw new Error('No 2d context');
  const card = getComputedStyle(document.documentElement).getPropertyValue('--card').trim();
  ctx.fillStyle = card || '#ffffff';
  ctx.fillRect(0, 0, out.width, out.height);
  ctx.drawImage(source, 0, 0);
  return out.toDataURL('image/png');
}

/**
 * Chart modal (spec section 2): title, the chart, "Download JSON", "Download PNG" and, only with a
 * save handler, "Save Chart" (idle -> saving, "Saving..." disabled -> idle, whatever the outcome).
 */
export function ChartModal({
  chart,
  open,
  onOpenChange,
  onSave,
}: {
  chart: ChartWithImage;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onSave?: (payload: SaveChartPayload) => Promise<void>;
}) {
  const validation = React.useMemo(() => validateChart(chart), [chart]);
  const instance = React.useRef<ChartJS | null>(null);
  const [saving, setSaving] = React.useState<'idle' | 'saving'>('idle');
  const fileBase = chartFileBase(chart.title);

  const pngDataUrl = (): string => {
    if (instance.current) return exportPng(instance.current);
    if (chart.imageData) {
      return chart.imageData.startsWith('data:')
        ? chart.imageData
        : `data:image/png;base64,${chart.imageData}`;
    }
    throw new Error('Chart not rendered');
  };

  const downloadPng = () => {
    try {
      downloadDataUrl(`${fileBase}.png`, pngDataUrl());
      toast({ title: 'Chart Downloaded', description: `Chart saved as ${fileBase}.png` });
    } catch {
      toast({
        variant: 'destructive',
        title: 'Download Failed',
        description: 'Unable to export chart as image',
      });
    }
  };

  const downloadJson = () => {
    const { imageData: _imageData, ...object } = chart;
    downloadText(`${fileBase}.json`, JSON.stringify(object, null, 2));
    toast({
      title: 'Chart Config Downloaded',
      description: `Chart configuration saved as ${fileBase}.json`,
    });
  };

  const save = async () => {
    if (!onSave) return;
    setSaving('saving');
    try {
      await onSave({ title: chart.title, imageData: pngDataUrl() });
    } catch {
      toast({
        variant: 'destructive',
        title: 'Save Failed',
        description: 'Unable to save chart image',
      });
    } finally {
      setSaving('idle');
    }
  };

  return (
    <DialogFrame
      open={open}
      onOpenChange={onOpenChange}
      title={chart.title}
      titleClassName="pr-6"
      description="Chart preview with download and save actions"
      descriptionClassName="sr-only"
      className="flex max-h-[90vh] flex-col overflow-y-auto sm:max-w-4xl"
      onKeyDown={(event) => {
        // A toast shown over the dialog ("Chart Saved") is the top layer and takes Escape for
        // itself; Escape pressed in the dialog still closes it (Radix marks the Escape it
        // handles as defaultPrevented, so this closes only what Radix left open).
        if (event.key === 'Escape' && !event.defaultPrevented) onOpenChange(false);
      }}
    >
      <div className="relative h-96 w-full shrink-0 rounded-md border bg-card p-2">
        {validation.ok ? (
          <React.Suspense
            fallback={
              <div className="flex h-full items-center justify-center text-sm text-muted-foreground">
                Loading chart...
              </div>
            }
          >
            <ChartCanvas
              type={validation.type}
              data={validation.data}
              options={validation.options}
              onReady={(c) => {
                instance.current = c;
              }}
            />
          </React.Suspense>
        ) : chart.imageData ? (
          <img
            src={
              chart.imageData.startsWith('data:')
                ? chart.imageData
                : `data:image/png;base64,${chart.imageData}`
            }
            alt={chart.title}
            className="h-full w-full object-contain"
          />
        ) : (
          <p
            role="alert"
            className="flex h-full items-center justify-center text-sm text-destructive"
          >
            {validation.error}
          </p>
        )}
      </div>
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="outline" onClick={downloadJson}>
          <FileJsonIcon aria-hidden="true" />
          Download JSON
        </Button>
        <Button
          variant="outline"
          onClick={downloadPng}
          disabled={!validation.ok && !chart.imageData}
        >
          <DownloadIcon aria-hidden="true" />
          Download PNG
        </Button>
        {onSave && (
          <Button
            onClick={() => {
              if (saving === 'idle') void save();
            }}
            // Disabled while saving without losing focus: a natively disabled button drops it
            // to the page, outside the dialog.
            aria-disabled={saving === 'saving' || undefined}
            disabled={!validation.ok && !chart.imageData}
            className="aria-disabled:pointer-events-none aria-disabled:opacity-50"
          >
            <SaveIcon aria-hidden="true" />
            {saving === 'saving' ? 'Saving...' : 'Save Chart'}
          </Button>
        )}
      </div>
    </DialogFrame>
  );
}
