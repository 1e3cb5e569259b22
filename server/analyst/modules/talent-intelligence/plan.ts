import { requestParts, type RequestPart } from '../question-parts';
import { SEARCH_KNOWLEDGE } from '../../tools/knowledge';
import type { ToolCallRecord } from '../../tools/tool';
import type { HistoryMessage } from '../../types';
import type { PlanContext } from '../module';
import { BANDS_QUERY, libraryBandsOf } from './library-bands';
import { capabilityOfTask, OVERVIEW, TALENT_CAPABILITIES, type TalentTask } from './capabilities';
import { call } from './render';
import { bodyOf } from './request';

/** Each task's words, in the capability list's order (the more specific first). */
const TASKS: Array<[TalentTask, RegExp]> = TALENT_CAPABILITIES.flatMap((c) =>
  c.task.words ? [[c.task.key, c.task.words] as [TalentTask, RegExp]] : [],
);

export type { TalentTask };

export function taskOf(request: string): TalentTask {
  const body = bodyOf(request);
  for (const [task, re] of TASKS) if (re.test(body)) return task;
  return 'overview';
}

/** One analysis a request asks for, with the words that belong to it (its splits, its groups). */
export type TalentPart = RequestPart<TalentTask>;

/**
 * Every analysis a request names, in the order asked (ADR 0058): "What is our attrition by
 * department and site, and do we have a gender pay gap?" is attrition, then the gender pay gap.
 */
export const questionParts = (request: string): TalentPart[] =>
  requestParts(request, TASKS, 'overview');

/** The TI tool calls that answer a task: its capability's plan (the overview's own). */
export function callsFor(
  task: TalentTask,
  request: string,
  history: HistoryMessage[] = [],
): ToolCallRecord[] {
  const cap = capabilityOfTask(task);
  // A plan reads the request and the conversation; the calls so far are the planner's concern.
  return cap ? cap.plan({ request, history, files: [], calls: [] }, request) : OVERVIEW.plan();
}

/** The calls of a several-part request: each part's, a tool asked twice called once. */
export function partCalls(parts: TalentPart[], history: HistoryMessage[]): ToolCallRecord[] {
  const out: ToolCallRecord[] = [];
  for (const p of parts)
    for (const c of callsFor(p.task, p.request, history))
      if (!out.some((o) => o.tool === c.tool)) out.push(c);
  return out;
}

interface TablesRead {
  tables?: Array<{ role?: string; columns?: Array<{ role?: string | null }> }>;
}

const failed = (calls: ToolCallRecord[], tool: string) =>
  calls.some(
    (c) =>
      c.tool === tool && typeof c.output === 'object' && c.output !== null && 'error' in c.output,
  );
const called = (calls: ToolCallRecord[], tool: string) => calls.some((c) => c.tool === tool);

/** What the read tables hold: skills assessments, people, or neither. */
function holdings(calls: ToolCallRecord[]): { skills: boolean; people: boolean } {
  const read = calls.find((c) => c.tool === 'read_tables')?.output as TablesRead | undefined;
  const tables = read?.tables ?? [];
  const roles = (t: (typeof tables)[number]) => new Set((t.columns ?? []).map((c) => c.role));
  return {
    skills: tables.some(
      (t) => t.role === 'assessments' || (roles(t).has('skill') && roles(t).has('proficiency')),
    ),
    people: tables.some(
      (t) =>
        t.role === 'staff' ||
        t.role === 'leavers' ||
        ['hireDate', 'salary', 'department', 'managerId'].some((r) => roles(t).has(r)),
    ),
  };
}

/**
 * The builtin planner: how the file was read and what the question needs in the first round;
 * a second round when the request named no task (then the tables decide: a skills matrix gets
 * the gap map, an HR export the workforce overview) or when the first answer could not be given
 * from these files (a reskilling request naming no skill of the file gets the gap map).
 * No table in scope: nothing to call; the writer says what to attach.
 */
export function planTalent(ctx: PlanContext, available: Set<string>): ToolCallRecord[] {
  const keep = (calls: ToolCallRecord[]) => calls.filter((c) => available.has(c.tool));
  if (!ctx.files.some((f) => f.kind === 'table')) return [];
  const task = taskOf(ctx.request);
  const knowledge = ctx.calls.find((c) => c.tool === SEARCH_KNOWLEDGE);
  const calls = ctx.calls.filter((c) => c.tool !== SEARCH_KNOWLEDGE);
  if (!calls.length) {
    const read = available.has('read_tables') ? [call('read_tables')] : [];
    if (task === 'overview' && read.length) return read;
    const parts = questionParts(ctx.request);
    const planned = keep([
      ...read,
      ...(parts.length > 1
        ? partCalls(parts, ctx.history)
        : callsFor(task, ctx.request, ctx.history)),
    ]);
    // A band check in a company whose library holds documents searches it first (one round) and
    // applies the pay bands it finds; an attached band file still wins (ADR 0082).
    const bands = planned.find((c) => c.tool === 'ti_salary_bands');
    if (bands && ctx.library?.length) {
      if (!knowledge) return [call(SEARCH_KNOWLEDGE, { query: BANDS_QUERY })];
      const library = libraryBandsOf(knowledge.output);
      if (library) bands.input = { ...(bands.input as object), library };
    }
    return planned;
  }
  const has = holdings(calls);
  const none = !calls.some((c) => c.tool.startsWith('ti_'));
  if (none && task === 'overview')
    return keep(
      has.skills && !has.people
        ? callsFor('skills', ctx.request)
        : callsFor('overview', ctx.request),
    );
  if (failed(calls, 'ti_reskilling_plan') && !called(calls, 'ti_skills_gap') && has.skills)
    return keep([call('ti_skills_gap')]);
  if (failed(calls, 'ti_skills_gap') && has.people && !called(calls, 'ti_headcount'))
    return keep(callsFor('overview', ctx.request));
  return [];
}
