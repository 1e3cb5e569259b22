import * as React from 'react';
import { ChevronLeftIcon, ChevronRightIcon, SearchIcon, SearchXIcon, XIcon } from 'lucide-react';
import { TEMPLATE_SKELETONS } from '@contract/constants';
import type { ModuleKey } from '@contract/modules';
import type { StarterDto } from '@contract/starters';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { OptionsSelect } from '@/components/options-select';
import { useStarters } from '../api/starters';
import {
  ALL_TYPES,
  INITIAL_FILTER,
  isFilterActive,
  selectTemplates,
  taskTypesOf,
  templateFilterReducer,
} from '../lib/filter-templates';
import { TemplateCard, TemplateCardSkeleton } from './template-card';

export interface StarterTemplatesProps {
  module: ModuleKey;
  heading: string;
  onUse: (template: StarterDto) => void;
  /** The template whose chat is being created, if any: every card waits meanwhile. */
  pendingTemplateId: number | null;
  busy: boolean;
}

/** The starters section: heading, filter bar, template cards and pagination (spec section 2). */
export function StarterTemplates({
  module,
  heading,
  onUse,
  pendingTemplateId,
  busy,
}: StarterTemplatesProps) {
  const { data: templates, isPending, isError, refetch } = useStarters(module);
  const [filter, dispatch] = React.useReducer(templateFilterReducer, INITIAL_FILTER);
  const taskTypes = React.useMemo(() => taskTypesOf(templates ?? []), [templates]);
  const view = React.useMemo(() => selectTemplates(templates ?? [], filter), [templates, filter]);
  const sectionRef = React.useRef<HTMLElement>(null);

  const goToPage = (page: number) => {
    dispatch({ type: 'page', page });
    // On phones the pager sits far below the first card: bring the new page into view.
    sectionRef.current?.scrollIntoView({ block: 'start', behavior: 'smooth' });
  };

  return (
    <section
      ref={sectionRef}
      aria-labelledby="starters-heading"
      className="flex scroll-mt-16 flex-col gap-4"
    >
      <h2 id="starters-heading" className="text-lg font-semibold tracking-tight">
        {heading}
      </h2>

      <div role="search" className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <OptionsSelect
          options={[
            { value: ALL_TYPES, label: 'All Types' },
            ...taskTypes.map((type) => ({ value: type, label: type })),
          ]}
          value={filter.taskType}
          onChange={(taskType) => dispatch({ type: 'taskType', taskType })}
          disabled={isPending}
          placeholder="All Types"
          trigger={{ 'aria-label': 'Task type', className: 'w-full sm:w-56' }}
        />
        <div className="relative flex-1">
          <SearchIcon
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
            aria-hidden="true"
          />
          <Input
            type="search"
            aria-label="Search templates"
            placeholder="Search templates..."
            className="pl-9"
            maxLength={200}
            value={filter.search}
            onChange={(e) => dispatch({ type: 'search', search: e.target.value })}
          />
        </div>
        {isFilterActive(filter) && (
          <Button variant="ghost" onClick={() => dispatch({ type: 'clear' })}>
            <XIcon aria-hidden="true" />
            Clear Filters
          </Button>
        )}
      </div>

      {isPending ? (
        // role="status": a plain div may not carry a label (axe aria-prohibited-attr).
        <div
          role="status"
          aria-busy="true"
          aria-label="Loading templates"
          className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3"
        >
          {Array.from({ length: TEMPLATE_SKELETONS }, (_, i) => (
            <TemplateCardSkeleton key={i} />
          ))}
        </div>
      ) : isError ? (
        <div className="flex flex-col items-center gap-2 rounded-xl border border-dashed px-6 py-10 text-center">
          <p className="font-medium">Could not load the templates.</p>
          <Button variant="outline" onClick={() => void refetch()}>
            Try again
          </Button>
        </div>
      ) : view.total === 0 ? (
        <div className="flex flex-col items-center gap-1 rounded-xl border border-dashed px-6 py-10 text-center">
          <SearchXIcon className="mb-2 size-8 text-muted-foreground" aria-hidden="true" />
          <p className="font-medium">No templates found</p>
          <p className="text-sm text-muted-foreground">
            Try adjusting your search terms or start a new chat above
          </p>
        </div>
      ) : (
        <>
          <ul aria-label="Templates" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
            {view.items.map((template) => (
              // A grid item: the card fills the row's height, so buttons line up.
              <li key={template.id} className="grid">
                <TemplateCard
                  template={template}
                  onUse={onUse}
                  disabled={busy}
                  pending={pendingTemplateId === template.id}
                />
              </li>
            ))}
          </ul>
          {view.pageCount > 1 && (
            <nav aria-label="Template pages" className="flex items-center justify-center gap-3">
              <Button
                variant="outline"
                size="icon"
                aria-label="Previous page"
                disabled={view.page <= 1}
                onClick={() => goToPage(view.page - 1)}
              >
                <ChevronLeftIcon aria-hidden="true" />
              </Button>
              {/* The spec's "Page x of y". */}
              <p aria-live="polite" className="min-w-24 text-center text-sm text-muted-foreground">
                Page {view.page} of {view.pageCount}
              </p>
              <Button
                variant="outline"
                size="icon"
                aria-label="Next page"
                disabled={view.page >= view.pageCount}
                onClick={() => goToPage(view.page + 1)}
              >
                <ChevronRightIcon aria-hidden="true" />
              </Button>
            </nav>
          )}
        </>
      )}
    </section>
  );
}
