import * as React from 'react';
import type { SaveChartPayload } from '@contract/chart';
import { Button } from '@/components/ui/button';
import {
  chartTypeLabel,
  chartTypeOf,
  inlineLegend,
  inlineScales,
  validateChart,
} from './chart-config';
import { ChartTypeIcon } from './chart-icon';
import type { ChartWithImage } from './chart-modal';

const ChartCanvas = React.lazy(() => import('./chart-canvas'));
// Opened by View Chart only: not part of a chat's first paint (ADR 0011, bundle budget).
const ChartModal = React.lazy(() =>
  import('./chart-modal').then((m) => ({ default: m.ChartModal })),
);

/**
 * One observer for every chart preview on the page, not one each: the browser computes every
 * observer's root geometry again on each frame that lays out (a streamed chunk's), and a long
 * chat holds dozens of previews that have not yet been near the view.
 */
let nearObserver: IntersectionObserver | null = null;
const onNear = new Map<Element, () => void>();
function watchNear(el: Element, near: () => void): () => void {
  nearObserver ??= new IntersectionObserver(
    (entries) => {
      for (const e of entries) {
        if (!e.isIntersecting) continue;
        onNear.get(e.target)?.();
        unwatch(e.target);
      }
    },
    { rootMargin: '200px' },
  );
  onNear.set(el, near);
  nearObserver.observe(el);
  return () => unwatch(el);
}
function unwatch(el: Element): void {
  if (!onNear.delete(el)) return;
  nearObserver?.unobserve(el);
}

/** True once the element has come near the view: chart.js loads for charts someone can see. */
function useNearView(ref: React.RefObject<HTMLElement | null>): boolean {
  const [near, setNear] = React.useState(false);
  React.useEffect(() => {
    const el = ref.current;
    if (!el || near) return;
    // Without an observer (very old browsers) the card stays as it was: View Chart still works.
    if (typeof IntersectionObserver === 'undefined') return;
    return watchNear(el, () => setNear(true));
  }, [ref, near]);
  return near;
}

/** A small drawing of the chart inside the card, with a legend where it needs one (the modal has the full one). */
function InlineChart({ chart }: { chart: ChartWithImage }) {
  const ref = React.useRef<HTMLDivElement>(null);
  const near = useNearView(ref);
  const validation = React.useMemo(() => validateChart(chart), [chart]);
  const options = React.useMemo(() => {
    if (!validation.ok) return {};
    const plugins = (validation.options.plugins ?? {}) as Record<string, unknown>;
    const scales = inlineScales(validation);
    return {
      ...validation.options,
      ...(scales && { scales }),
      plugins: { ...plugins, legend: inlineLegend(validation) },
    };
  }, [validation]);
  if (!validation.ok && !chart.imageData) return null;
  return (
    <div
      ref={ref}
      className="relative h-52 w-full overflow-hidden rounded-md border bg-background p-1.5"
    >
      {validation.ok ? (
        near && (
          <React.Suspense fallback={null}>
            <ChartCanvas
              type={validation.type}
              data={validation.data}
              options={options}
              label={chart.title}
              onReady={() => undefined}
            />
          </React.Suspense>
        )
      ) : (
        <img
          src={
            chart.imageData!.startsWith('data:')
              ? chart.imageData
              : `data:image/png;base64,${chart.imageData}`
          }
          alt={chart.title}
          className="h-full w-full object-contain"
        />
      )}
    </div>
  );
}

/**
 * Chart preview card (spec section 2): icon by type, title, "{Type} Chart", "View Chart", and a
 * small drawing of the chart itself. chart.js loads only when a chart comes into view.
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
    <div className="flex flex-col gap-2 rounded-lg border bg-card p-3">
      {/* View Chart goes below the title when the title would have too little room beside it. */}
      <div className="flex flex-wrap items-center gap-3">
        <div className="flex size-10 shrink-0 items-center justify-center rounded-md bg-primary/10 text-primary">
          <ChartTypeIcon type={type} className="size-5" aria-hidden="true" />
        </div>
        <div className="min-w-32 flex-1">
          <p className="text-sm font-medium break-words">{chart.title}</p>
          <p className="text-xs text-muted-foreground">{chartTypeLabel(type)}</p>
        </div>
        <Button size="sm" variant="outline" onClick={() => setOpen(true)}>
          View Chart
        </Button>
      </div>
      <InlineChart chart={chart} />
      {open && (
        <React.Suspense fallback={null}>
          <ChartModal chart={chart} open={open} onOpenChange={setOpen} onSave={onSave} />
        </React.Suspense>
      )}
    </div>
  );
}
