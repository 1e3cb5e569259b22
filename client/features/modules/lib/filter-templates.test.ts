import { describe, expect, it } from 'vitest';
import type { StarterDto } from '@contract/starters';
import {
  ALL_TYPES,
  INITIAL_FILTER,
  filterTemplates,
  isFilterActive,
  selectTemplates,
  taskTypesOf,
  templateFilterReducer,
} from './filter-templates';

const t = (
  id: number,
  taskType: string,
  name: string,
  description = `description ${id}`,
): StarterDto => ({
  id,
  taskType,
  name,
  description,
  module: 'governance',
});

const TEMPLATES: StarterDto[] = [
  t(1, 'Risk Register', 'Risk register health check', 'reviewing our risk register'),
  t(2, 'Board Pack', 'Board pack summary', 'summarising a BOARD pack'),
  t(3, 'Policy Review', 'Policy gap check', 'checking a policy against a checklist'),
  t(4, 'Board Pack', 'Minutes and actions', 'turning notes into minutes'),
  t(5, 'Compliance Checklist', 'GDPR readiness', 'building a GDPR checklist'),
  t(6, 'Policy Review', 'Retention policy', 'reviewing retention periods'),
  t(7, 'Risk Register', 'Supplier risk', 'assessing critical suppliers'),
  t(8, 'Policy Review', 'Acceptable use', 'reviewing acceptable use'),
  t(9, 'Board Pack', 'Committee terms', 'reviewing terms of reference'),
  t(10, 'Compliance Checklist', 'Audit findings', 'tracking audit findings'),
  t(11, 'Risk Register', 'Project risks', 'drafting a project risk register'),
  t(12, 'Compliance Checklist', 'Anti-bribery', 'checking bribery controls'),
  t(13, 'Regulatory Change', 'Impact note', 'assessing a new regulation'),
];

describe('task types', () => {
  it('are distinct and sorted', () => {
    expect(taskTypesOf(TEMPLATES)).toEqual([
      'Board Pack',
      'Compliance Checklist',
      'Policy Review',
      'Regulatory Change',
      'Risk Register',
    ]);
    expect(taskTypesOf([])).toEqual([]);
  });
});

describe('filterTemplates', () => {
  it('keeps everything with no filter', () => {
    expect(filterTemplates(TEMPLATES, INITIAL_FILTER)).toHaveLength(13);
  });

  it('keeps one task type', () => {
    expect(
      filterTemplates(TEMPLATES, { taskType: 'Board Pack', search: '' }).map((x) => x.id),
    ).toEqual([2, 4, 9]);
  });

  it('matches the search in the name or the description, ignoring case and outer spaces', () => {
    expect(
      filterTemplates(TEMPLATES, { taskType: ALL_TYPES, search: 'board' }).map((x) => x.id),
    ).toEqual([2]);
    expect(
      filterTemplates(TEMPLATES, { taskType: ALL_TYPES, search: '  GDPR ' }).map((x) => x.id),
    ).toEqual([5]);
    // "minutes" is in the name of 4 and in its description: listed once.
    expect(
      filterTemplates(TEMPLATES, { taskType: ALL_TYPES, search: 'Minutes' }).map((x) => x.id),
    ).toEqual([4]);
    expect(
      filterTemplates(TEMPLATES, { taskType: ALL_TYPES, search: 'checklist' }).map((x) => x.id),
    ).toEqual([3, 5]);
  });

  it('combines the type and the search', () => {
    expect(
      filterTemplates(TEMPLATES, { taskType: 'Risk Register', search: 'project' }).map((x) => x.id),
    ).toEqual([11]);
    expect(filterTemplates(TEMPLATES, { taskType: 'Board Pack', search: 'gdpr' })).toEqual([]);
  });
});

describe('selectTemplates: 6 per page', () => {
  it('cuts pages of six and counts them', () => {
    const p1 = selectTemplates(TEMPLATES, INITIAL_FILTER);
    expect(p1).toMatchObject({ page: 1, pageCount: 3, total: 13 });
    expect(p1.items.map((x) => x.id)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(
      selectTemplates(TEMPLATES, { ...INITIAL_FILTER, page: 3 }).items.map((x) => x.id),
    ).toEqual([13]);
  });

  it('keeps the page within range, and reads "Page 1 of 1" when nothing matches', () => {
    expect(selectTemplates(TEMPLATES, { ...INITIAL_FILTER, page: 9 }).page).toBe(3);
    expect(selectTemplates(TEMPLATES, { ...INITIAL_FILTER, page: 0 }).page).toBe(1);
    expect(selectTemplates(TEMPLATES, { ...INITIAL_FILTER, search: 'nothing like this' })).toEqual({
      items: [],
      page: 1,
      pageCount: 1,
      total: 0,
    });
  });

  it('paginates the filtered list, not the whole one', () => {
    expect(
      selectTemplates(TEMPLATES, { taskType: ALL_TYPES, search: 'review', page: 1 }),
    ).toMatchObject({
      total: 4,
      pageCount: 1,
    });
    const r = selectTemplates(TEMPLATES, { taskType: 'Board Pack', search: '', page: 2 }, 2);
    expect(r).toEqual({ items: [TEMPLATES[8]], page: 2, pageCount: 2, total: 3 });
  });
});

describe('templateFilterReducer', () => {
  const onPage3 = { ...INITIAL_FILTER, page: 3 };

  it('goes back to page 1 on a new search, a new type, or clearing', () => {
    expect(templateFilterReducer(onPage3, { type: 'search', search: 'risk' })).toEqual({
      taskType: ALL_TYPES,
      search: 'risk',
      page: 1,
    });
    expect(templateFilterReducer(onPage3, { type: 'taskType', taskType: 'Board Pack' }).page).toBe(
      1,
    );
    expect(
      templateFilterReducer({ taskType: 'Board Pack', search: 'x', page: 2 }, { type: 'clear' }),
    ).toEqual(INITIAL_FILTER);
  });

  it('moves between pages without touching the filter', () => {
    const state = { taskType: 'Board Pack', search: 'x', page: 1 };
    expect(templateFilterReducer(state, { type: 'page', page: 2 })).toEqual({ ...state, page: 2 });
  });
});

describe('isFilterActive', () => {
  it('is true only while a type or a non-blank search narrows the list', () => {
    expect(isFilterActive(INITIAL_FILTER)).toBe(false);
    expect(isFilterActive({ taskType: ALL_TYPES, search: '   ' })).toBe(false);
    expect(isFilterActive({ taskType: ALL_TYPES, search: 'a' })).toBe(true);
    expect(isFilterActive({ taskType: 'Board Pack', search: '' })).toBe(true);
  });
});
