import * as React from 'react';
import type { NextStepHandler } from './next-step-button';
import { LoaderCircleIcon } from 'lucide-react';
import type { MessagePart } from '@contract/chats';
import { CONTINUE_REQUEST, MODEL_TRUNCATED_MESSAGE } from '@contract/constants';
import { messageText, reportToMarkdown } from '@contract/chat-markdown';
import { Button } from '@/components/ui/button';
import { Textarea } from '@/components/ui/textarea';
import { Avatar, AvatarFallback } from '@/components/ui/avatar';
import { cn } from '@/lib/utils';
import { useLiveEffect, useLiveView } from '../hooks/use-live-message';
import type { ChatMessage } from '../lib/chat-cache';
import { structuredDataOf } from '../lib/data-message';
import { appendingWriter, type TextWriter } from '../lib/live-text';
import { looksLikeReport, textBesideReport } from '../lib/report-text';
import { thinkingLines } from '../lib/thinking-filter';
import { AttachmentChip } from './attachment-chip';
import { DataCard } from './data-card';
import type { StructuredResponseCard as StructuredResponseCardType } from './structured-response-card';
import { Markdown, loadMarkdown } from '@/components/markdown/lazy-markdown';

// A stored report's card (charts, files, readings, next steps and their contract schemas) is
// not in the chat route's first load: an empty chat needs none. A history with reports starts
// loading it as it arrives (preloadReportCard), so its reports are drawn with the messages, not
// after them with a jump (docs/decisions/0090-chat-route-under-its-bundle-goal.md).
type Card = typeof StructuredResponseCardType;
let card: Card | null = null;
let cardLoading: Promise<Card> | null = null;

/** Starts loading the report card and the markdown renderer; once loaded, rows draw at once. */
export function preloadReportCard(): Promise<Card> {
  void loadMarkdown().catch(() => undefined);
  cardLoading ??= import('./structured-response-card').then(
    (m) => (card = m.StructuredResponseCard),
  );
  return cardLoading;
}

/** Whether the report card has loaded (rows then draw stored reports with no fallback frame). */
export const reportCardLoaded = () => card !== null;

const LazyCard = React.lazy(() => preloadReportCard().then((c) => ({ default: c })));

function StructuredResponseCard(props: React.ComponentProps<Card>) {
  const Loaded = card;
  return Loaded ? <Loaded {...props} /> : <LazyCard {...props} />;
}

// Reports read from text as it arrives (or from a stopped answer) need the streaming JSON
// parser and the contract's schemas: loaded with the first such message, not with the page.
const LiveReport = React.lazy(() =>
  import('./partial-report-card').then((m) => ({ default: m.LiveReport })),
);
const PartialReportFromText = React.lazy(() =>
  import('./partial-report-card').then((m) => ({ default: m.PartialReportFromText })),
);
import {
  CopyButton,
  EditButton,
  RegenerateButton,
  VersionSwitcher,
  useMessageActions,
} from './message-actions';

export const DEFAULT_ERROR_MESSAGE = 'There has been an error completing this request';

// One formatter for every row: toLocaleTimeString builds a new one per call, which cost more than
// the rest of a streaming row's render together.
const TIME_FORMAT = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });

function timeOf(timestamp: string): string {
  const d = new Date(timestamp);
  return Number.isNaN(d.getTime()) ? '' : TIME_FORMAT.format(d);
}

// Row classes as fixed strings (no class merging on the hot path of a streaming row).
const ROW_BASE =
  'group/row flex gap-2.5 px-3 py-2 sm:px-4 [contain-intrinsic-size:auto_120px] [content-visibility:auto] transition-colors duration-700 data-[focused=true]:bg-amber-100/70 dark:data-[focused=true]:bg-amber-300/10';
const ROW_CLASS = { user: `${ROW_BASE} flex-row-reverse`, assistant: ROW_BASE } as const;
const AVATAR_TEXT = {
  user: 'text-xs font-semibold bg-primary/10 text-primary',
  assistant: 'text-xs font-semibold bg-secondary text-secondary-foreground',
} as const;
const COLUMN_CLASS = {
  user: 'flex min-w-0 flex-col gap-1 max-w-[85%] items-end sm:max-w-[75%]',
  assistant: 'flex min-w-0 flex-col gap-1 w-full max-w-[calc(100%-2.75rem)] sm:max-w-[85%]',
} as const;

export interface MessageRowProps {
  message: ChatMessage;
  userInitials: string;
  chatId: string;
  onNextStep: NextStepHandler;
}

/**
 * One message. Memoised on the message object: the cache keeps the objects of unchanged messages,
 * so a stream chunk or a poll re-renders only the row that changed.
 */
export const MessageRow = React.memo(function MessageRow({
  message,
  userInitials,
  chatId,
  onNextStep,
}: MessageRowProps) {
  const isUser = message.role === 'user';
  const time = React.useMemo(() => timeOf(message.timestamp), [message.timestamp]);
  const [editing, setEditing] = React.useState(false);
  // Which version of a regenerated reply is shown: null is the newest (the message itself).
  const [versionIndex, setVersionIndex] = React.useState<number | null>(null);
  const versions = React.useMemo(() => message.versions ?? [], [message.versions]);
  const count = versions.length + 1;
  const index = versionIndex === null || versionIndex >= count ? count - 1 : versionIndex;
  const shown = React.useMemo<ChatMessage>(() => {
    const v = index < versions.length ? versions[index] : undefined;
    return v
      ? { ...message, ...v, id: message.id, isLoading: false, timestamp: v.timestamp }
      : message;
  }, [message, versions, index]);
  return (
    <li
      className={ROW_CLASS[message.role]}
      data-id={message.id}
      data-seq={message.seq}
      data-role={message.role}
      data-status={message.status}
      aria-busy={message.isLoading || undefined}
    >
      <RowAvatar role={message.role} initials={userInitials} />
      <div className={COLUMN_CLASS[message.role]}>
        {isUser ? (
          editing ? (
            <EditBox message={message} onDone={() => setEditing(false)} />
          ) : (
            <UserContent content={message.content} />
          )
        ) : (
          <AssistantContent message={shown} chatId={chatId} onNextStep={onNextStep} />
        )}
        <div className={`flex items-center gap-0.5 ${isUser ? 'flex-row-reverse' : ''}`}>
          <time dateTime={shown.timestamp} className="px-1 text-[11px] text-muted-foreground">
            {time}
            {message.editedAt ? ' · edited' : ''}
          </time>
          {!message.isLoading && !editing && (
            <RowToolbar
              message={shown}
              onEdit={() => setEditing(true)}
              versions={count > 1 ? { index, count, onChange: setVersionIndex } : null}
            />
          )}
        </div>
      </div>
    </li>
  );
});

/** The text a copy of this message gives: its text, or its report as Markdown. */
function copyTextOf(message: ChatMessage): string {
  const text = messageText(message.content);
  const report = message.structuredResponse;
  if (!report) return text;
  const beside = textBesideReport(text)?.trim();
  return [beside, reportToMarkdown(report)].filter(Boolean).join('\n\n');
}

/** Copy, copy a report as Markdown, regenerate (the last reply), edit (a sent message). */
function RowToolbar({
  message,
  onEdit,
  versions,
}: {
  message: ChatMessage;
  onEdit: () => void;
  versions: { index: number; count: number; onChange: (i: number) => void } | null;
}) {
  const actions = useMessageActions();
  const isUser = message.role === 'user';
  const isLast = actions?.lastReplyId === message.id;
  const report = message.structuredResponse;
  return (
    <div
      className={`flex items-center ${isUser ? 'flex-row-reverse' : ''} ${
        isLast || versions
          ? ''
          : 'md:opacity-0 md:group-hover/row:opacity-100 md:focus-within:opacity-100'
      }`}
    >
      {versions && <VersionSwitcher {...versions} />}
      <CopyButton label="Copy message" text={() => copyTextOf(message)} />
      {report && (
        <CopyButton
          label="Copy report as Markdown"
          what="Report"
          icon="markdown"
          text={() => reportToMarkdown(report)}
        />
      )}
      {isUser && actions && message.optimistic === undefined && (
        <EditButton onClick={onEdit} disabled={actions.busy} />
      )}
      {!isUser && isLast && actions && (
        <RegenerateButton onClick={() => void actions.regenerate()} disabled={actions.busy} />
      )}
    </div>
  );
}

/** A sent message being edited: Save & send continues the conversation from it. */
function EditBox({ message, onDone }: { message: ChatMessage; onDone: () => void }) {
  const actions = useMessageActions();
  const original =
    typeof message.content === 'string'
      ? message.content
      : message.content
          .filter((p) => p.type === 'text')
          .map((p) => p.text)
          .join('\n');
  const [text, setText] = React.useState(original);
  const [saving, setSaving] = React.useState(false);
  const ref = React.useRef<HTMLTextAreaElement>(null);
  React.useEffect(() => {
    const box = ref.current;
    if (!box) return;
    box.focus({ preventScroll: true });
    box.setSelectionRange(box.value.length, box.value.length);
    // The whole box in view, its buttons included.
    box.closest('form')?.scrollIntoView({ block: 'nearest' });
  }, []);
  const save = async () => {
    if (!actions || !text.trim() || saving) return;
    setSaving(true);
    const ok = await actions.edit(message.id, text);
    setSaving(false);
    if (ok) onDone();
  };
  return (
    <form
      className="flex w-full min-w-[min(32rem,75vw)] flex-col gap-2 rounded-2xl border bg-card p-2"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <Textarea
        ref={ref}
        aria-label="Edit message"
        value={text}
        rows={3}
        className="max-h-60 min-h-[72px] resize-y"
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            onDone();
          } else if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            void save();
          }
        }}
      />
      <p className="px-1 text-xs text-muted-foreground">
        Sending this replaces the replies after it.
      </p>
      <div className="flex justify-end gap-2">
        <Button type="button" variant="ghost" size="sm" onClick={onDone} disabled={saving}>
          Cancel
        </Button>
        <Button type="submit" size="sm" disabled={saving || !text.trim() || actions?.busy}>
          {saving ? 'Sending...' : 'Save & send'}
        </Button>
      </div>
    </form>
  );
}

/** Memoised apart from the row: a streaming row re-renders per chunk, its avatar need not. */
const RowAvatar = React.memo(function RowAvatar({
  role,
  initials,
}: {
  role: ChatMessage['role'];
  initials: string;
}) {
  return (
    <Avatar className="mt-0.5 size-8 shrink-0">
      <AvatarFallback className={AVATAR_TEXT[role]}>
        {role === 'user' ? initials || '?' : 'AI'}
      </AvatarFallback>
    </Avatar>
  );
});

function UserContent({ content }: { content: string | MessagePart[] }) {
  const parts: MessagePart[] =
    typeof content === 'string' ? [{ type: 'text', text: content }] : content;
  const text = parts
    .filter((p) => p.type === 'text')
    .map((p) => p.text)
    .join('\n');
  const files = parts.filter((p) => p.type === 'file');
  const data = React.useMemo(() => structuredDataOf(text), [text]);
  return (
    <div className="flex max-w-full flex-col items-end gap-1.5">
      {data !== null ? (
        <DataCard data={data} />
      ) : (
        text && (
          <div className="rounded-2xl rounded-tr-sm bg-primary px-3.5 py-2 text-sm break-words whitespace-pre-wrap text-primary-foreground">
            {text}
          </div>
        )
      )}
      {files.map((f, i) => (
        <AttachmentChip key={f.attachment.id || i} attachment={f.attachment} />
      ))}
    </div>
  );
}

function AssistantContent({
  message,
  chatId,
  onNextStep,
}: {
  message: ChatMessage;
  chatId: string;
  onNextStep: NextStepHandler;
}) {
  if (message.isLoading) return <LiveReply chatId={chatId} shell={message} />;
  const text = textOf(message);
  const bubble = 'rounded-2xl rounded-tl-sm border bg-card px-3.5 py-2.5 text-card-foreground';

  if (message.status === 'error') {
    // What the model wrote before it failed (an output limit, a filter, a cut) stays, marked.
    return (
      <div className="flex w-full flex-col gap-2">
        {message.structuredResponse ? (
          // The client already read the partial JSON as a report (repaired): shown as such.
          <React.Suspense fallback={null}>
            <StructuredResponseCard
              report={message.structuredResponse}
              chatId={chatId}
              onNextStep={onNextStep}
            />
          </React.Suspense>
        ) : (
          text.trim() && <IncompleteAnswer text={text} chatId={chatId} />
        )}
        <div role="alert" className={cn(bubble, 'border-destructive/40 text-sm text-destructive')}>
          {message.error || DEFAULT_ERROR_MESSAGE}
          {message.error === MODEL_TRUNCATED_MESSAGE && (
            <div className="mt-2">
              <Button size="sm" variant="outline" onClick={() => onNextStep(CONTINUE_REQUEST)}>
                Continue
              </Button>
            </div>
          )}
        </div>
      </div>
    );
  }
  const report = message.structuredResponse;
  // A report stopped half-way is stored as its partial JSON: shown as the card it was becoming.
  const stoppedReport = !report && message.status === 'stopped' && looksLikeReport(text);
  const beside = report ? textBesideReport(text) : stoppedReport ? null : text;
  return (
    <div className="flex w-full flex-col gap-2">
      {beside && (
        <div className={bubble}>
          <Markdown text={beside} />
        </div>
      )}
      {report && (
        <React.Suspense fallback={null}>
          <StructuredResponseCard
            report={report}
            chatId={chatId}
            messageId={message.id}
            onNextStep={onNextStep}
          />
        </React.Suspense>
      )}
      {stoppedReport && (
        <React.Suspense fallback={null}>
          <PartialReportFromText
            text={text}
            chatId={chatId}
            onNextStep={onNextStep}
            className={bubble}
          />
        </React.Suspense>
      )}
      {message.status === 'stopped' && (
        <p className="px-1 text-xs text-muted-foreground italic">Stopped</p>
      )}
    </div>
  );
}

/** The part of an answer a model wrote before it stopped early: a partial report or markdown. */
function IncompleteAnswer({ text, chatId }: { text: string; chatId: string }) {
  const className = 'rounded-2xl rounded-tl-sm border bg-card px-3.5 py-2.5 text-card-foreground';
  if (looksLikeReport(text)) {
    return (
      <React.Suspense fallback={null}>
        <PartialReportFromText text={text} chatId={chatId} className={className} />
      </React.Suspense>
    );
  }
  return (
    <div className={className}>
      <Markdown text={text} />
    </div>
  );
}

function textOf(message: ChatMessage): string {
  return typeof message.content === 'string'
    ? message.content
    : message.content.map((p) => (p.type === 'text' ? p.text : '')).join('\n');
}

/** What a reply in progress shows; its text is written outside React (see LiveText). */
type LiveView = { kind: 'thinking'; raw: string } | { kind: 'report' } | { kind: 'text' };

// A report arrives as JSON (or fenced JSON): shown as the card it is becoming (LiveReport).

function liveViewOf(message: ChatMessage): LiveView {
  const text = textOf(message);
  if (!text) return { kind: 'thinking', raw: message.thinking ?? '' };
  return looksLikeReport(text) ? { kind: 'report' } : { kind: 'text' };
}

function sameLiveView(a: LiveView, b: LiveView): boolean {
  return a.kind === b.kind && (a.kind !== 'thinking' || a.raw === (b as typeof a).raw);
}

/**
 * A reply in progress. The list holds it as a shell; this component follows the message in the
 * cache and renders only when what it shows changes (thinking lines, text starting, a report
 * starting): a stream chunk that only adds text is written into the page without a render.
 */
function LiveReply({ chatId, shell }: { chatId: string; shell: ChatMessage }) {
  const view = useLiveView(chatId, shell, liveViewOf, sameLiveView);
  // The reply is shown as markdown once complete: the renderer loads while it streams, so the
  // finished reply is drawn once, not as plain text first (ADR 0090).
  React.useEffect(() => void loadMarkdown(), []);
  if (view.kind === 'thinking') return <Thinking raw={view.raw} />;
  if (view.kind === 'report') {
    return (
      <React.Suspense fallback={null}>
        <LiveReport chatId={chatId} shell={shell} />
      </React.Suspense>
    );
  }
  return (
    <div
      className="rounded-2xl rounded-tl-sm border bg-card px-3.5 py-2.5 text-sm"
      data-streaming="true"
    >
      <LiveText
        key="text"
        chatId={chatId}
        shell={shell}
        writer={APPEND}
        className="break-words whitespace-pre-wrap"
      />
    </div>
  );
}

const APPEND = appendingWriter;

/**
 * A reply's streamed text as plain text (not markdown: a chunk costs a text update rather than a
 * parse), written by `writer` on every change of the cache, with no render.
 */
function LiveText({
  chatId,
  shell,
  writer,
  className,
}: {
  chatId: string;
  shell: ChatMessage;
  writer: () => TextWriter;
  className: string;
}) {
  const ref = React.useRef<HTMLDivElement>(null);
  const [write] = React.useState(writer);
  useLiveEffect(chatId, shell, (message) => {
    if (ref.current) write(ref.current, textOf(message));
  });
  return <div ref={ref} className={className} />;
}

/** "AI is thinking..." with the filtered thinking lines (spec section 4). */
function Thinking({ raw }: { raw: string }) {
  const lines = thinkingLines(raw);
  return (
    <div className="rounded-2xl rounded-tl-sm border bg-card px-3.5 py-2.5 text-sm" role="status">
      <div className="flex items-center gap-2 font-medium text-muted-foreground">
        <LoaderCircleIcon className="size-4 animate-spin" aria-hidden="true" />
        AI is thinking...
      </div>
      {lines.length > 0 && (
        <ul
          className="mt-1.5 flex flex-col gap-0.5 border-l-2 pl-2.5 text-xs text-muted-foreground"
          aria-label="Thinking"
        >
          {lines.map((line, i) => (
            <li key={i} className="break-words">
              {line}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
