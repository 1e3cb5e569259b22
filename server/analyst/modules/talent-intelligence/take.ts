import { SEARCH_KNOWLEDGE } from '../../tools/knowledge';
import type { ToolCallRecord } from '../../tools/tool';
import type { PlanContext } from '../module';
import { callsFor, partCalls, planTalent, questionParts, taskOf } from './plan';
import type { AttritionDimension } from './request';

/**
 * Regenerate with the builtin (ADR 0064): another breakdown of the same data. A regenerated
 * answer leads with a dimension the file holds and the first answer did not lead with ("by
 * location instead of department"), so a second take is another angle, not another drawing.
 */

/** The tools whose answer is a breakdown, and what they measure. */
const MEASURES: Record<string, string> = {
  ti_attrition: 'attrition',
  ti_headcount: 'headcount',
  ti_tenure: 'tenure',
  ti_pay: 'pay',
};

/** Breakdowns a take can lead with, in the order they are offered, and the column each needs. */
const ALTERNATIVES: Array<[AttritionDimension, string[]]> = [
  ['department', ['department']],
  ['location', ['location', 'country']],
  ['level', ['level']],
  ['gender', ['gender']],
  ['tenureBand', ['hireDate']],
  ['rating', ['rating']],
  ['ageBand', ['birthDate', 'age', 'ageBand']],
  ['manager', ['managerId']],
  ['job', ['jobTitle']],
];

const NAMES: Partial<Record<AttritionDimension, string>> = {
  level: 'grade',
  tenureBand: 'tenure band',
  rating: 'performance rating',
  ageBand: 'age band',
  job: 'role',
};
const nameOf = (d: AttritionDimension) => NAMES[d] ?? d;

/** The column roles of the tables read. */
function rolesRead(calls: ToolCallRecord[]): Set<string> {
  const read = calls.find((c) => c.tool === 'read_tables')?.output as
    { tables?: Array<{ columns?: Array<{ role?: string | null }> }> } | undefined;
  return new Set(
    (read?.tables ?? []).flatMap((t) => (t.columns ?? []).flatMap((c) => (c.role ? [c.role] : []))),
  );
}

const byOf = (c: ToolCallRecord): AttritionDimension[] | null => {
  const by = (c.input as { by?: unknown } | undefined)?.by;
  return MEASURES[c.tool] && Array.isArray(by) ? (by as AttritionDimension[]) : null;
};

/**
 * The planned calls with another leading breakdown for take n: the nth dimension the file holds
 * that the call does not lead with (those it does not show at all first).
 */
export function otherBreakdown(
  planned: ToolCallRecord[],
  calls: ToolCallRecord[],
  take: number,
): ToolCallRecord[] {
  const roles = rolesRead(calls);
  return planned.map((c) => {
    const by = byOf(c);
    if (!by?.length) return c;
    const held = ALTERNATIVES.filter(
      ([d, need]) => d !== by[0] && need.some((r) => roles.has(r)),
    ).map(([d]) => d);
    const options = [...held.filter((d) => !by.includes(d)), ...held.filter((d) => by.includes(d))];
    if (!options.length) return c;
    const lead = options[(take - 1) % options.length]!;
    return {
      ...c,
      input: { ...(c.input as object), by: [lead, ...by.slice(1).filter((d) => d !== lead)] },
    };
  });
}

/**
 * The planner of a regenerated answer: the tables are read first, then the first answer's calls
 * with another breakdown the file holds; later rounds as for a first answer.
 */
export function planTake(ctx: PlanContext, available: Set<string>): ToolCallRecord[] {
  if (!ctx.take || !available.has('read_tables') || !ctx.files.some((f) => f.kind === 'table'))
    return planTalent(ctx, available);
  const first: PlanContext = { ...ctx, take: undefined };
  if (!ctx.calls.length) return [{ tool: 'read_tables', input: {} }];
  if (!ctx.calls.every((c) => c.tool === 'read_tables' || c.tool === SEARCH_KNOWLEDGE))
    return planTalent(first, available);
  // The library's search (a band check, ADR 0082) is not a round of its own for the take.
  const searched = ctx.calls.filter((c) => c.tool === SEARCH_KNOWLEDGE);
  const planned = planTalent({ ...first, calls: searched }, available).filter(
    (c) => c.tool !== 'read_tables',
  );
  return otherBreakdown(
    planned.length ? planned : planTalent(first, available),
    ctx.calls,
    ctx.take,
  );
}

/** What the first answer would have called: the plan of the request without a take. */
function firstPlan(ctx: PlanContext): ToolCallRecord[] {
  const parts = questionParts(ctx.request);
  if (parts.length > 1) return partCalls(parts, ctx.history);
  return callsFor(taskOf(ctx.request), ctx.request, ctx.history);
}

/** The take's angle in a sentence: "This take breaks attrition down by location instead of department." */
export function breakdownAngle(ctx: PlanContext): string | null {
  const before = firstPlan(ctx);
  const changes = ctx.calls.flatMap((c) => {
    const now = byOf(c)?.[0];
    const was = before.find((b) => b.tool === c.tool);
    const then = was && byOf(was)?.[0];
    return now && then && now !== then
      ? [`${MEASURES[c.tool]} down by ${nameOf(now)} instead of ${nameOf(then)}`]
      : [];
  });
  return changes.length ? `This take breaks ${changes.join(', and ')}.` : null;
}
