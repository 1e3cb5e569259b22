import * as React from 'react';
import { cn } from '@/lib/utils';
import type { Markdown as MarkdownType } from './markdown';

// The markdown renderer (react-markdown, micromark, GFM: about 40 KiB gzipped) loads with the
// first message that shows markdown, not with the chat route: an empty chat, the most common
// first load, never needs it (docs/decisions/0090-chat-route-under-its-bundle-goal.md).

type MarkdownProps = React.ComponentProps<typeof MarkdownType>;

let loaded: typeof MarkdownType | null = null;
let loading: Promise<typeof MarkdownType> | null = null;

/** Loads the renderer once; later renders use it at once, with no fallback frame. */
export function loadMarkdown(): Promise<typeof MarkdownType> {
  loading ??= import('./markdown').then((m) => (loaded = m.Markdown));
  return loading;
}

const Lazy = React.lazy(() => loadMarkdown().then((Markdown) => ({ default: Markdown })));

/**
 * Markdown (./markdown.tsx), loaded on first use. Until it is there, the text shows as written,
 * line breaks kept, so a reader is never shown an empty bubble.
 */
export function Markdown(props: MarkdownProps) {
  if (loaded) {
    const Loaded = loaded;
    return <Loaded {...props} />;
  }
  return (
    <React.Suspense
      fallback={
        <div
          className={cn('text-sm leading-relaxed break-words whitespace-pre-wrap', props.className)}
        >
          {props.text}
        </div>
      }
    >
      <Lazy {...props} />
    </React.Suspense>
  );
}
