import * as React from 'react';
import { PartBoundary } from '@/components/error-boundaries';
import { NextSteps, type NextStepHandler } from './next-step-button';
import { CheckIcon, DownloadIcon, EyeIcon, FileTextIcon, SaveIcon } from 'lucide-react';
import type { SaveChartPayload } from '@contract/chart';
import type { ChartItem, FileItem, StructuredResponse } from '@contract/structured-response';
import { toast } from '@/hooks/use-toast';
import { useIsSaved, useSaveFile } from '@/hooks/use-save-file';
import { FileAction } from '@/components/file-action';
import { FileViewDialog, type ViewedFile } from '@/components/file-view-dialog';
import { downloadText, isViewable } from '@/lib/download';
import { ChartPreview } from '@/components/charts/chart-preview';
import { chartFileBase, chartHtmlPage } from '@/components/charts/chart-config';
import { Markdown } from '@/components/markdown/lazy-markdown';
import { ReadingCard } from './reading-card';

export interface StructuredResponseCardProps {
  report: StructuredResponse;
  chatId: string;
  /** The reply the report is (its reading card confirms against it). */
  messageId?: string;
  /** Sends a next step's text as a new message, or does the step's action (ADR 0056). */
  onNextStep: NextStepHandler;
}

/**
 * Structured response card (spec section 2): task name, text / file / chart items, and the
 * numbered "Next Steps:" that send their text when clicked, or do what they ask of the user.
 */
export const StructuredResponseCard = React.memo(function StructuredResponseCard({
  report,
  chatId,
  messageId,
  onNextStep,
}: StructuredResponseCardProps) {
  const [viewed, setViewed] = React.useState<ViewedFile | null>(null);
  const steps = report.next_steps.filter((s) => s.step_description.trim().length > 0);
  // Each part is drawn inside its own boundary: one that cannot be drawn leaves the others.
  const drawPart = (item: (typeof report.content)[number], index: number) => {
    switch (item.type) {
      case 'text':
        return <Markdown key={index} text={item.text} />;
      case 'file':
        return <FileRow key={index} file={item} chatId={chatId} onView={setViewed} />;
      case 'chart':
        return <ChartBlock key={index} chart={item} chatId={chatId} />;
      case 'reading':
        return <ReadingCard key={index} item={item} chatId={chatId} messageId={messageId} />;
    }
  };
  return (
    <article className="flex flex-col gap-3 rounded-lg border bg-card p-4 text-card-foreground shadow-xs">
      <h3 className="text-base font-semibold tracking-tight">{report.task_name}</h3>
      {report.content.map((item, index) => (
        <PartBoundary key={index}>{drawPart(item, index)}</PartBoundary>
      ))}
      <NextSteps
        steps={steps.map((s) => ({ description: s.step_description, action: s.action }))}
        onNextStep={onNextStep}
      />
      <FileViewDialog file={viewed} onClose={() => setViewed(null)} />
    </article>
  );
});

export function FileRow({
  file,
  chatId,
  onView,
}: {
  file: FileItem;
  chatId: string;
  onView: (file: ViewedFile) => void;
}) {
  const save = useSaveFile(chatId);
  const saved = useIsSaved(chatId, file.filename);
  return (
    <div
      className="flex flex-wrap items-center gap-2 rounded-md border bg-background p-2.5"
      aria-label={`File ${file.filename}`}
    >
      <FileTextIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
      <span className="min-w-0 flex-1 truncate text-sm font-medium">{file.filename}</span>
      {/* Wraps on a narrow screen: the three actions side by side are wider than a phone's card. */}
      <div className="flex min-w-0 flex-wrap gap-1">
        {isViewable(file.filename) && (
          <FileAction
            icon={EyeIcon}
            onClick={() => onView({ fileName: file.filename, content: file.file_data })}
          >
            View
          </FileAction>
        )}
        <FileAction
          icon={DownloadIcon}
          onClick={() => {
            downloadText(file.filename, file.file_data);
            toast({ title: 'File downloaded' });
          }}
        >
          Download
        </FileAction>
        {/* Saved: it is among the chat's saved files (saving again says so). */}
        <FileAction
          icon={saved ? CheckIcon : SaveIcon}
          disabled={save.isPending}
          onClick={() => save.mutate({ fileName: file.filename, fileContent: file.file_data })}
        >
          {saved ? 'Saved' : 'Save'}
        </FileAction>
      </div>
    </div>
  );
}

/** A chart item: its image when it came as one, and the preview card that opens the modal. */
export function ChartBlock({ chart, chatId }: { chart: ChartItem; chatId: string }) {
  const save = useSaveFile(chatId, {
    success: { title: 'Chart Saved', description: 'Chart image has been saved to your files' },
    failure: { title: 'Save Failed', description: 'Unable to save chart image' },
  });
  const { mutateAsync } = save;
  // Save Chart stores a generated HTML page named after the chart's title (spec section 2); the
  // mutation shows the toasts, so the modal only needs to know when it is over.
  const onSave = React.useCallback(
    async ({ title, imageData }: SaveChartPayload) => {
      await mutateAsync({
        fileName: `${chartFileBase(title)}.html`,
        fileContent: chartHtmlPage(title, imageData),
      }).catch(() => undefined);
    },
    [mutateAsync],
  );
  const image = chart.imageData
    ? chart.imageData.startsWith('data:')
      ? chart.imageData
      : `data:image/png;base64,${chart.imageData}`
    : null;
  return (
    <div className="flex flex-col gap-2">
      {image && (
        <img
          src={image}
          alt={chart.title}
          className="max-h-80 w-full rounded-md border object-contain"
        />
      )}
      <ChartPreview chart={chart} onSave={onSave} />
    </div>
  );
}
