import * as React from 'react';
import { useLocation, useSearch } from 'wouter';
import {
  BookOpenIcon,
  ChevronDownIcon,
  HistoryIcon,
  Loader2Icon,
  SearchIcon,
  UploadIcon,
} from 'lucide-react';
import type { LibraryDocumentDto } from '@contract/library';
import { MODULES } from '@contract/module-list';
import type { ModuleKey } from '@contract/modules';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { DialogFrame } from '@/components/dialog-frame';
import { Input } from '@/components/ui/input';
import { toast } from '@/hooks/use-toast';
import { serverMessage } from '@/api/http';
import { cn } from '@/lib/utils';
import {
  useLibrary,
  useLibraryChanges,
  useLibrarySearch,
  useLibraryVersions,
  useLibraryView,
} from '../api/library';

/**
 * The Library panel of a module page (docs/decisions/0081-library-panel.md): the company's
 * documents of this module with version, who added each and when; a search box; a viewer that
 * opens at a passage (`?library=<doc>&version=<v>&passage=<id>`, the link of every citation).
 * Company admins add, replace, retire and delete; members read.
 */
export function LibraryPanel({ module }: { module: ModuleKey }) {
  const { data, isPending, isError } = useLibrary(module);
  const changes = useLibraryChanges(module);
  const [, navigate] = useLocation();
  const params = new URLSearchParams(useSearch());
  const [q, setQ] = React.useState('');
  const [asked, setAsked] = React.useState('');
  const search = useLibrarySearch(module, asked);
  const addInput = React.useRef<HTMLInputElement>(null);
  const replaceInput = React.useRef<HTMLInputElement>(null);
  const [replacing, setReplacing] = React.useState<LibraryDocumentDto | null>(null);
  const [history, setHistory] = React.useState<number | null>(null);

  const open = (documentId: number, version?: number, passage?: number) => {
    const p = new URLSearchParams({ library: String(documentId) });
    if (version) p.set('version', String(version));
    if (passage) p.set('passage', String(passage));
    navigate(`${MODULES[module].path}?${p.toString()}`);
  };
  const failed = (title: string) => (err: unknown) =>
    toast({ title, description: serverMessage(err, title), variant: 'destructive' });

  const upload = (file: File | undefined, doc: LibraryDocumentDto | null) => {
    if (!file) return;
    changes.upload.mutate(
      { file, ...(doc ? { fileName: doc.fileName } : {}) },
      {
        onSuccess: (d) =>
          toast({ title: doc ? `${d.title}: version ${d.version} added` : `${d.title} added` }),
        onError: failed(doc ? 'Could not replace the document' : 'Could not add the document'),
      },
    );
  };

  const documents = data?.documents ?? [];
  const canEdit = data?.canEdit === true;
  return (
    <section aria-labelledby="library-heading" className="mt-8 flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="library-heading" className="text-lg font-semibold tracking-tight">
          Library
        </h2>
        {canEdit ? (
          <>
            <HiddenFileInput
              ref={addInput}
              label="Document to add to the library"
              onFile={(file) => upload(file, null)}
            />
            <Button
              variant="outline"
              size="sm"
              disabled={changes.upload.isPending}
              onClick={() => addInput.current?.click()}
            >
              {changes.upload.isPending ? (
                <Loader2Icon className="animate-spin" aria-hidden="true" />
              ) : (
                <UploadIcon aria-hidden="true" />
              )}
              Add document
            </Button>
            <HiddenFileInput
              ref={replaceInput}
              label="New version of the document"
              onFile={(file) => upload(file, replacing)}
            />
          </>
        ) : null}
      </div>
      <p className="text-sm text-muted-foreground">
        Your company's documents for this module. Every chat here searches them and cites what it
        uses.
      </p>
      <form
        role="search"
        className="flex gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          setAsked(q.trim());
        }}
      >
        <Input
          value={q}
          onChange={(e) => setQ(e.target.value)}
          placeholder="Search the library"
          aria-label="Search the library"
          maxLength={500}
        />
        <Button type="submit" variant="secondary" disabled={!q.trim()}>
          <SearchIcon aria-hidden="true" />
          Search
        </Button>
      </form>
      {asked ? (
        <div aria-live="polite" className="flex flex-col gap-1">
          {search.isPending ? (
            <p className="text-sm text-muted-foreground">Searching…</p>
          ) : search.data?.passages.length ? (
            <ul aria-label="Search results" className="flex flex-col gap-1">
              {search.data.passages.map((p) => (
                <li key={p.id}>
                  <button
                    type="button"
                    className="w-full rounded-md px-3 py-2 text-left hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                    onClick={() => open(p.documentId, p.version, p.id)}
                  >
                    <span className="block text-sm font-medium">{p.citation}</span>
                    <span className="line-clamp-2 text-sm text-muted-foreground">{p.text}</span>
                  </button>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-muted-foreground">Nothing in the library matches.</p>
          )}
        </div>
      ) : null}
      {isPending ? (
        <p className="text-sm text-muted-foreground" aria-busy="true">
          Loading the library…
        </p>
      ) : isError ? (
        <p className="text-sm text-destructive">The library could not be loaded.</p>
      ) : documents.length === 0 ? (
        <p className="rounded-md border border-dashed p-4 text-sm text-muted-foreground">
          {canEdit
            ? 'No documents yet. Add your guidelines, policies or pay bands once; every chat of this module will use them.'
            : 'No documents yet. Your company admins can add them.'}
        </p>
      ) : (
        <ul aria-label="Library documents" className="flex flex-col divide-y rounded-md border">
          {documents.map((d) => (
            <li key={d.id} className="flex flex-col gap-2 p-3">
              <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
                <div className="min-w-0">
                  <button
                    type="button"
                    className="flex items-center gap-2 text-left font-medium hover:underline focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                    onClick={() => open(d.id, d.version)}
                  >
                    <BookOpenIcon
                      className="size-4 shrink-0 text-muted-foreground"
                      aria-hidden="true"
                    />
                    <span className="truncate">{d.title}</span>
                  </button>
                  <p className="text-xs text-muted-foreground">
                    Version {d.version} · added by {d.addedBy ?? 'an admin command'} on{' '}
                    {new Date(d.addedAt).toLocaleDateString()}
                    {d.retired ? (
                      <Badge variant="secondary" className="ml-2">
                        Retired
                      </Badge>
                    ) : null}
                  </p>
                </div>
                {canEdit ? (
                  <div className="flex flex-wrap gap-1">
                    <Button
                      size="sm"
                      variant="ghost"
                      onClick={() => {
                        setReplacing(d);
                        replaceInput.current?.click();
                      }}
                    >
                      Replace
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      onClick={() =>
                        changes.retire.mutate(
                          { id: d.id, retired: !d.retired },
                          { onError: failed('Could not change the document') },
                        )
                      }
                    >
                      {d.retired ? 'Restore' : 'Retire'}
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      className="text-destructive"
                      onClick={() => {
                        if (window.confirm(`Delete ${d.title} and all its versions?`))
                          changes.remove.mutate(d.id, {
                            onError: failed('Could not delete the document'),
                          });
                      }}
                    >
                      Delete
                    </Button>
                  </div>
                ) : null}
              </div>
              {d.version > 1 ? (
                <>
                  <Button
                    size="sm"
                    variant="ghost"
                    className="self-start"
                    aria-expanded={history === d.id}
                    aria-controls={`library-versions-${d.id}`}
                    onClick={() => setHistory(history === d.id ? null : d.id)}
                  >
                    <HistoryIcon aria-hidden="true" />
                    Earlier versions
                    <ChevronDownIcon
                      aria-hidden="true"
                      className={cn('transition-transform', history === d.id && 'rotate-180')}
                    />
                  </Button>
                  {history === d.id ? (
                    <VersionHistory document={d} onOpen={(version) => open(d.id, version)} />
                  ) : null}
                </>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <LibraryViewer
        documentId={Number(params.get('library')) || null}
        version={
          Number(params.get('version')) ||
          documents.find((d) => d.id === Number(params.get('library')))?.version ||
          null
        }
        passageId={Number(params.get('passage')) || null}
        onClose={() => navigate(MODULES[module].path, { replace: true })}
      />
    </section>
  );
}

/**
 * A file picker a button opens (through `ref`): hidden, out of the tab order, emptied after each
 * choice so the same file can be chosen again.
 */
function HiddenFileInput({
  ref,
  label,
  onFile,
}: {
  ref: React.Ref<HTMLInputElement>;
  label: string;
  onFile: (file: File | undefined) => void;
}) {
  return (
    <input
      ref={ref}
      type="file"
      className="sr-only"
      aria-label={label}
      tabIndex={-1}
      onChange={(e) => {
        onFile(e.target.files?.[0]);
        e.target.value = '';
      }}
    />
  );
}

/** A document's versions, newest first: who added each and when; each opens in the viewer. */
function VersionHistory({
  document,
  onOpen,
}: {
  document: LibraryDocumentDto;
  onOpen: (version: number) => void;
}) {
  const versions = useLibraryVersions(document.id, true);
  return (
    <div id={`library-versions-${document.id}`} className="ml-2 border-l pl-3">
      {versions.isPending ? (
        <p className="text-sm text-muted-foreground">Loading the versions…</p>
      ) : versions.isError ? (
        <p className="text-sm text-destructive">The versions could not be loaded.</p>
      ) : (
        <ol aria-label={`Versions of ${document.title}`} className="flex flex-col gap-1">
          {versions.data.versions.map((v) => (
            <li key={v.version} className="flex flex-wrap items-center justify-between gap-2">
              <span className="text-sm">
                <span className="font-medium">Version {v.version}</span>
                {v.current ? (
                  <Badge variant="secondary" className="ml-2">
                    Current
                  </Badge>
                ) : null}
                <span className="block text-xs text-muted-foreground">
                  Added by {v.addedBy ?? 'an admin command'} on{' '}
                  {new Date(v.addedAt).toLocaleString()}
                </span>
              </span>
              <Button
                size="sm"
                variant="outline"
                aria-label={`Open version ${v.version} of ${document.title}`}
                onClick={() => onOpen(v.version)}
              >
                Open
              </Button>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

/** The viewer: one version of a document, passage by passage, scrolled to the cited one. */
function LibraryViewer({
  documentId,
  version,
  passageId,
  onClose,
}: {
  documentId: number | null;
  version: number | null;
  passageId: number | null;
  onClose: () => void;
}) {
  const view = useLibraryView(documentId, version);
  const target = React.useRef<HTMLElement | null>(null);
  React.useEffect(() => {
    if (view.data && target.current) target.current.scrollIntoView({ block: 'center' });
  }, [view.data, passageId]);
  return (
    <DialogFrame
      open={documentId !== null}
      onOpenChange={(o) => (o ? undefined : onClose())}
      className="max-h-[85vh] max-w-3xl overflow-y-auto"
      title={view.data ? `${view.data.document.title}, version ${view.data.version}` : 'Library'}
      description={
        view.data
          ? `${view.data.document.fileName}${view.data.version === view.data.document.version ? '' : ` (the current version is ${view.data.document.version})`}`
          : view.isError
            ? 'This document is not in your library.'
            : 'Loading…'
      }
    >
      {view.data ? (
        <ol className="flex flex-col gap-3" aria-label="Passages">
          {view.data.passages.map((p) => {
            const cited = p.id === passageId;
            return (
              <li
                key={p.id}
                id={`passage-${p.id}`}
                ref={cited ? (el) => void (target.current = el) : undefined}
                aria-current={cited ? 'location' : undefined}
                className={cn(
                  'rounded-md p-3 text-sm',
                  cited ? 'bg-primary/10 ring-2 ring-primary' : 'bg-muted/40',
                )}
              >
                {p.headingPath ? (
                  <p className="mb-1 text-xs font-semibold text-muted-foreground">
                    {p.headingPath}
                    {p.page !== null ? ` · page ${p.page}` : ''}
                  </p>
                ) : null}
                <p className="whitespace-pre-wrap">{p.text}</p>
              </li>
            );
          })}
        </ol>
      ) : null}
    </DialogFrame>
  );
}
