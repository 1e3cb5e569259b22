import { TEMPLATES_PER_PAGE } from '@contract/constants';
import type { StarterDto } from '@contract/starters';

// The starter-template filter bar and pagination of a module page, as pure functions
// (spec sections 2, 4 and 5): the component only renders what these return.

/** The task-type dropdown's "All Types" choice. */
export const ALL_TYPES = 'all';

export interface TemplateFilter {
  /** A task type, or ALL_TYPES. */
  taskType: string;
  search: string;
  /** 1-based. */
  page: number;
}

export const INITIAL_FILTER: TemplateFilter = { taskType: ALL_TYPES, search: '', page: 1 };

export type TemplateFilterAction =
  | { type: 'search'; search: string }
  | { type: 'taskType'; taskType: string }
  | { type: 'clear' }
  | { type: 'page'; page: number };

/** Any change to the search or the task type, and clearing, go back to page 1 (spec section 4). */
export function templateFilterReducer(
  state: TemplateFilter,
  action: TemplateFilterAction,
): TemplateFilter {
  switch (action.type) {
    case 'search':
      return { ...state, search: action.search, page: 1 };
    case 'taskType':
      return { ...state, taskType: action.taskType, page: 1 };
    case 'clear':
      return INITIAL_FILTER;
    case 'page':
      return { ...state, page: action.page };
  }
}

/** "Clear Filters" shows only while one of these narrows the list. */
export function isFilterActive(filter: Pick<TemplateFilter, 'taskType' | 'search'>): boolean {
  return filter.taskType !== ALL_TYPES || filter.search.trim() !== '';
}

/** The distinct task types, sorted: the dropdown's choices after "All Types". */
export function taskTypesOf(templates: readonly Pick<StarterDto, 'taskType'>[]): string[] {
  return [...new Set(templates.map((t) => t.taskType))].sort((a, b) => a.localeCompare(b));
}

/** Templates of the chosen type whose name or description contains the search, ignoring case. */
export function filterTemplates<T extends Pick<StarterDto, 'taskType' | 'name' | 'description'>>(
  templates: readonly T[],
  filter: Pick<TemplateFilter, 'taskType' | 'search'>,
): T[] {
  const needle = filter.search.trim().toLocaleLowerCase();
  return templates.filter(
    (t) =>
      (filter.taskType === ALL_TYPES || t.taskType === filter.taskType) &&
      (needle === '' ||
        t.name.toLocaleLowerCase().includes(needle) ||
        t.description.toLocaleLowerCase().includes(needle)),
  );
}

export interface TemplatePage<T> {
  items: T[];
  /** The page shown, kept within 1..pageCount. */
  page: number;
  /** At least 1, so "Page 1 of 1" reads right for a short list. */
  pageCount: number;
  /** Templates matching the filter, over all pages. */
  total: number;
}

/** Filters, then cuts out the requested page of TEMPLATES_PER_PAGE. */
export function selectTemplates<T extends Pick<StarterDto, 'taskType' | 'name' | 'description'>>(
  templates: readonly T[],
  filter: TemplateFilter,
  perPage: number = TEMPLATES_PER_PAGE,
): TemplatePage<T> {
  const matching = filterTemplates(templates, filter);
  const pageCount = Math.max(1, Math.ceil(matching.length / perPage));
  const page = Math.min(Math.max(1, Math.trunc(filter.page) || 1), pageCount);
  return {
    items: matching.slice((page - 1) * perPage, page * perPage),
    page,
    pageCount,
    total: matching.length,
  };
}
