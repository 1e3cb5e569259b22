import * as React from 'react';
import { CheckIcon, CopyIcon } from 'lucide-react';
import { cn } from '@/lib/utils';
import { toast } from '@/hooks/use-toast';
import { highlight, languageOf } from './highlight';

/**
 * A fenced code block of a model's answer: shown at once as plain text, then highlighted when
 * the highlighter (loaded on first use) is ready; a button copies the code exactly.
 * Highlighting waits while the block is still being written (`streaming`), so a growing block
 * is not highlighted once per chunk.
 */
export function CodeBlock({
  code,
  language,
  streaming = false,
}: {
  code: string;
  language: string | undefined;
  streaming?: boolean;
}) {
  const lang = languageOf(language);
  const [html, setHtml] = React.useState<{ code: string; html: string } | null>(null);
  const [copied, setCopied] = React.useState(false);

  React.useEffect(() => {
    if (!lang || streaming) return;
    let live = true;
    highlight(code, lang)
      .then((out) => {
        if (live) setHtml({ code, html: out });
      })
      // A grammar that fails to load leaves the block plain: still readable, still copyable.
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [code, lang, streaming]);

  React.useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 1_500);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
      setCopied(true);
    } catch {
      toast({
        title: 'Copy failed',
        description: 'The clipboard is not available here. Select the code and copy it instead.',
        variant: 'destructive',
      });
    }
  };

  const highlighted = html && html.code === code ? html.html : null;
  return (
    <div className="group/code relative my-2" data-code-block={language || 'text'}>
      <div className="flex items-center justify-between rounded-t-md border-b bg-muted px-3 py-1 text-[11px] text-muted-foreground">
        <span className="font-mono">{language || 'text'}</span>
        <button
          type="button"
          onClick={() => void copy()}
          className="inline-flex items-center gap-1 rounded px-1.5 py-0.5 hover:bg-background hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
          aria-label={copied ? 'Code copied' : 'Copy code'}
        >
          {copied ? (
            <CheckIcon className="size-3.5" aria-hidden="true" />
          ) : (
            <CopyIcon className="size-3.5" aria-hidden="true" />
          )}
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      {highlighted ? (
        <div
          className={cn(
            'overflow-x-auto rounded-b-md bg-muted text-[0.85em] [&_pre]:!m-0 [&_pre]:!rounded-none [&_pre]:!bg-transparent [&_pre]:p-3',
            '[&_.shiki_span]:text-(--shiki-light) dark:[&_.shiki_span]:text-(--shiki-dark)',
          )}
          // shiki escapes the code it highlights; the HTML holds only its spans.
          dangerouslySetInnerHTML={{ __html: highlighted }}
        />
      ) : (
        <pre className="!m-0 overflow-x-auto !rounded-t-none rounded-b-md bg-muted p-3 text-[0.85em]">
          <code>{code}</code>
        </pre>
      )}
    </div>
  );
}
