import { countBy, median, naturalOrder } from '../../tools/stats';
import type { Employee } from './workforce';

/**
 * Spans of control: how many direct reports each manager has, counted from a manager column (the
 * manager's id or name on each employee's row). Very narrow spans add layers and cost; very wide
 * ones leave too little time per report.
 */

/** Managers with at most this many reports have a narrow span. */
export const NARROW_SPAN_MAX = 2;
/** Managers with more than this many reports have a wide span. */
export const WIDE_SPAN_ABOVE = 10;

export const SPAN_BANDS = ['1–2', '3–5', '6–10', '11+'] as const;

export function spanBand(reports: number): (typeof SPAN_BANDS)[number] {
  if (reports <= NARROW_SPAN_MAX) return '1–2';
  if (reports <= 5) return '3–5';
  if (reports <= WIDE_SPAN_ABOVE) return '6–10';
  return '11+';
}

export interface SpansOfControl {
  /** Employees with a manager value (rows naming themselves as manager are ignored). */
  reporting: number;
  /** Every manager with their direct reports, most reports first. */
  managers: Array<{ manager: string; reports: number }>;
  medianSpan: number;
  /** Number of managers in each span band. */
  distribution: Array<[(typeof SPAN_BANDS)[number], number]>;
  narrow: Array<{ manager: string; reports: number }>;
  wide: Array<{ manager: string; reports: number }>;
}

/** Spans over the given employees (pass current employees); null when no row names a manager. */
export function spansOfControl(employees: Employee[]): SpansOfControl | null {
  const reporting = employees.filter(
    (e) => e.manager !== null && e.manager.trim() !== '' && e.manager !== e.id,
  );
  if (!reporting.length) return null;
  const counts = countBy(reporting, (e) => e.manager!.trim());
  const managers = [...counts]
    .map(([manager, reports]) => ({ manager, reports }))
    .sort((a, b) => b.reports - a.reports || naturalOrder(a.manager, b.manager));
  const bands = countBy(managers, (m) => spanBand(m.reports));
  return {
    reporting: reporting.length,
    managers,
    medianSpan: median(managers.map((m) => m.reports))!,
    distribution: SPAN_BANDS.map((b) => [b, bands.get(b) ?? 0]),
    narrow: managers.filter((m) => m.reports <= NARROW_SPAN_MAX),
    wide: managers.filter((m) => m.reports > WIDE_SPAN_ABOVE),
  };
}
