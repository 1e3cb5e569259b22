import * as React from 'react';
import { PartBoundary } from '@/components/error-boundaries';
import { NextSteps, type NextStepHandler } from './next-step-button';
import { BarChart3Icon, FileTextIcon, LoaderCircleIcon } from 'lucide-react';
import { FileViewDialog, type ViewedFile } from '@/components/file-view-dialog';
import type { ChatMessage } from '../lib/chat-cache';
import { PartialReportReader, partialReportOf, type PartialReport } from '../lib/partial-report';
import { useLiveEffect } from '../hooks/use-live-message';
import { Markdown } from '@/components/markdown/markdown';
import { ChartBlock, FileRow } from './structured-response-card';

/**
 * A report that is still arriving, or that stopped half-way (Stop, an output limit): the same
 * card as a finished report, drawn from the partial JSON. Text parts show as markdown while they
 * grow; a chart or file shows a placeholder until its object is whole. Never raw JSON.
 */
export function PartialReportCard({
  report,
  chatId,
  streaming,
  onNextStep,
}: {
  report: PartialReport;
  chatId: string;
  /** Still arriving (a spinner, no clickable next steps yet). */
  streaming: boolean;
  onNextStep?: NextStepHandler;
}) {
  const [viewed, setViewed] = React.useState<ViewedFile | null>(null);
  // Each part is drawn inside its own boundary: one that cannot be drawn leaves the others.
  const drawPart = (item: (typeof report.content)[number], index: number) => {
    switch (item.type) {
      case 'text':
        return item.text ? (
          <Markdown key={index} text={item.text} streaming={streaming && !item.done} />
        ) : null;
      // A chart or file is shown whole or not at all: while it arrives, a placeholder says
      // it is coming; once the reply stopped, an unfinished one is left out.
      case 'chart':
        return item.chart ? (
          <ChartBlock key={index} chart={item.chart} chatId={chatId} />
        ) : streaming ? (
          <Placeholder key={index} icon="chart">
            {`Chart${item.title ? `: ${item.title}` : ''} (drawn when complete)`}
          </Placeholder>
        ) : null;
      case 'file':
        return item.file ? (
          <FileRow key={index} file={item.file} chatId={chatId} onView={setViewed} />
        ) : streaming ? (
          <Placeholder key={index} icon="file">
            {`File${item.filename ? ` ${item.filename}` : ''} (being written)`}
          </Placeholder>
        ) : null;
      default:
        return null;
    }
  };
  return (
    <article
      className="flex flex-col gap-3 rounded-lg border bg-card p-4 text-card-foreground shadow-xs"
      data-partial-report={streaming ? 'streaming' : 'incomplete'}
      aria-busy={streaming || undefined}
    >
      <h3 className="flex items-center gap-2 text-base font-semibold tracking-tight">
        {streaming && (
          <LoaderCircleIcon
            className="size-4 shrink-0 animate-spin text-muted-foreground"
            aria-label="Writing report"
          />
        )}
        {report.taskName || <span className="text-muted-foreground">Writing report...</span>}
      </h3>
      {report.content.map((item, index) => (
        <PartBoundary key={index}>{drawPart(item, index)}</PartBoundary>
      ))}
      <NextSteps
        steps={report.nextSteps.map((description) => ({ description }))}
        disabled={streaming || !onNextStep}
        onNextStep={onNextStep}
      />
      <FileViewDialog file={viewed} onClose={() => setViewed(null)} />
    </article>
  );
}

function Placeholder({ icon, children }: { icon: 'chart' | 'file'; children: React.ReactNode }) {
  const Icon = icon === 'chart' ? BarChart3Icon : FileTextIcon;
  return (
    <div
      className="flex items-center gap-2 rounded-md border border-dashed bg-muted/40 p-3 text-sm text-muted-foreground"
      data-placeholder={icon}
    >
      <Icon className="size-4 shrink-0" aria-hidden="true" />
      <span className="min-w-0 flex-1 truncate">{children}</span>
      <LoaderCircleIcon className="size-4 shrink-0 animate-spin" aria-hidden="true" />
    </div>
  );
}

function textOf(message: ChatMessage): string {
  return typeof message.content === 'string'
    ? message.content
    : message.content.map((p) => (p.type === 'text' ? p.text : '')).join('\n');
}

/**
 * The report of a reply in progress: the reader is fed each change of the cached text outside
 * React, and the card renders at most once per animation frame.
 */
export function LiveReport({ chatId, shell }: { chatId: string; shell: ChatMessage }) {
  const [reader] = React.useState(() => new PartialReportReader());
  const [report, setReport] = React.useState<PartialReport | null>(null);
  const frame = React.useRef<number | null>(null);
  const latest = React.useRef('');
  useLiveEffect(chatId, shell, (message) => {
    latest.current = textOf(message);
    if (frame.current !== null) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = null;
      setReport(reader.read(latest.current));
    });
  });
  React.useEffect(
    () => () => {
      if (frame.current !== null) cancelAnimationFrame(frame.current);
    },
    [],
  );
  return (
    <div data-streaming="true">
      <PartialReportCard
        report={report ?? { taskName: '', content: [], nextSteps: [], done: false }}
        chatId={chatId}
        streaming
      />
    </div>
  );
}

/**
 * A stopped or cut answer that looks like a report: the card of the partial report its text
 * holds, or else the text as markdown. (Here, with the streaming parser, so that message-row
 * loads both only when such an answer is shown.)
 */
export function PartialReportFromText({
  text,
  chatId,
  onNextStep,
  className,
}: {
  text: string;
  chatId: string;
  onNextStep?: NextStepHandler;
  /** Of the bubble the text shows in when it holds no report. */
  className?: string;
}) {
  const partial = React.useMemo(() => partialReportOf(text), [text]);
  if (partial) {
    return (
      <PartialReportCard
        report={partial}
        chatId={chatId}
        streaming={false}
        onNextStep={onNextStep}
      />
    );
  }
  return (
    <div className={className}>
      <Markdown text={text} />
    </div>
  );
}
