import { withoutStarterPrefix } from '../../report/words';
import { requestParts, type RequestPart } from '../question-parts';
import { SEARCH_KNOWLEDGE } from '../../tools/knowledge';
import type { ToolCallRecord } from '../../tools/tool';
import { previousReport, type HistoryMessage } from '../../types';
import type { PlanContext } from '../module';
import { BANDS_QUERY, libraryBandsOf } from './library-bands';
import type { AttritionDimension } from './tools/attrition';

/**
 * What a Talent Intelligence request asks for, from its words, and the tool calls that answer
 * it. Ordered: the more specific task first ("regretted leavers" and "first-year attrition" are
 * not the general attrition question; a "gender pay gap" is not a pay overview).
 */
export type TalentTask =
  | 'regretted'
  | 'cycles'
  | 'early-tenure'
  | 'reskilling'
  | 'promotion'
  | 'funnel'
  | 'plan-budget'
  | 'succession'
  | 'market'
  | 'bands'
  | 'gender-pay'
  | 'rating-bias'
  | 'calibration'
  | 'spans'
  | 'attrition'
  | 'skills'
  | 'tenure'
  | 'pay'
  | 'headcount'
  | 'overview';

const TASKS: Array<[TalentTask, RegExp]> = [
  [
    'cycles',
    /\b(compar\w*|chang\w*|mov\w*|shift\w*|differ\w*)\b[^.?!]*\b(review )?cycles\b|\bbetween (the )?(two )?(review )?cycles\b|\bcycle[- ]on[- ]cycle\b|\bratings?\b[^.?!]*\b(chang\w*|mov\w*)\b[^.?!]*\b(19|20)\d\d\b/i,
  ],
  ['regretted', /\bregretted\b|\bhigh performers? (who )?(left|leaving|leavers?)\b/i],
  [
    'early-tenure',
    /\b(first[- ]year|early[- ]tenure|new hires? (leave|leaving|quit)|new starters? (leave|leaving))\b/i,
  ],
  ['reskilling', /\b(reskill\w*|upskill\w*|new capability|build (a|the) capability)\b/i],
  ['promotion', /\bpromot\w*\b/i],
  ['funnel', /\b(funnel|pipeline|time to hire|hiring forecast|will hiring meet)\b/i],
  ['plan-budget', /\b(budget|headcount plan|requisitions?|overspend)\b/i],
  ['succession', /\b(succession|successors?)\b/i],
  ['market', /\b(market|compa[- ]?ratio|benchmark\w*|percentile)\b/i],
  ['bands', /\b(salary|pay) bands?\b|\bband health\b|\boutside (their|the) band\b/i],
  ['gender-pay', /\b(gender pay|pay gap|equal pay|pay equity)\b/i],
  ['rating-bias', /\bbias\b|\brating gaps?\b/i],
  ['calibration', /\bcalibrat\w*\b|\brating distribution\b/i],
  ['spans', /\b(spans?( of control)?|layers|direct reports|manager ratio)\b/i],
  [
    'attrition',
    /\b(attrition|turnover|leavers?|leaving|exits?|churn|quit\w*|resign\w*|retention|loses?|losing|lost)\b/i,
  ],
  ['skills', /\b(skills?|proficiency|competenc\w*)\b/i],
  ['tenure', /\b(tenure|length of service|years of service)\b/i],
  ['pay', /\b(pay|salary|salaries|compensation|wages?|quartiles?)\b/i],
  ['headcount', /\b(headcount|how many (people|employees|staff)|fte)\b/i],
];

/** The request without the starter prefix the client adds. */
export const bodyOf = (request: string) => withoutStarterPrefix(request).trim();

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

const DIMENSION_WORDS: Array<[AttritionDimension, RegExp]> = [
  ['department', /\b(departments?|teams?|functions?|divisions?)\b/i],
  ['costCentre', /\bcost (centers?|centres?)\b/i],
  ['location', /\b(locations?|offices?|sites?|cit(y|ies))\b/i],
  ['country', /\b(countr(y|ies)|nations?)\b/i],
  ['level', /\b(levels?|grades?|(salary|pay|job) bands?)\b/i],
  ['tenureBand', /\btenure\b/i],
  ['rating', /\b(ratings?|performance)\b/i],
  ['manager', /\bmanagers?\b/i],
  ['gender', /\bgender\b/i],
  ['ageBand', /\bage\b/i],
  ['source', /\b(sources?|channels?)\b/i],
  ['partTime', /\bpart[- ]time\b/i],
  ['job', /\b(roles?|job titles?|jobs?)\b/i],
];

/** The dimensions a request names ("by department and tenure band"), in the order it names them. */
export function dimensionsIn(request: string): AttritionDimension[] {
  const body = bodyOf(request);
  return DIMENSION_WORDS.filter(([, re]) => re.test(body))
    .map(([d, re]) => [d, body.search(re)] as const)
    .sort((a, b) => a[1] - b[1])
    .map(([d]) => d);
}

/**
 * Columns a request names by their header where no dimension word covers them ("Show attrition
 * by Supervisory Organization instead", "headcount by \"Business Unit\""): written as a name
 * (capitals) or in quotes. The tools keep only names that are headers of the file (ADR 0047).
 */
export function columnsIn(request: string): string[] {
  const body = bodyOf(request);
  const out: string[] = [];
  for (const m of body.matchAll(/\b(?:by|per|across)\s+([^.?!;:]+)/gi)) {
    const pieces = m[1]!
      .replace(/\s+instead\b.*$/i, '')
      .split(/\s*,\s*(?:and\s+)?|\s+and\s+|\s+or\s+/);
    for (const raw of pieces) {
      const quoted = /^["'“‘](.+?)["'”’]/.exec(raw.trim())?.[1];
      const piece =
        quoted ??
        raw
          .trim()
          .replace(/^(?:the|our|their|each)\s+/i, '')
          .replace(
            /\s+(?:over|in|for|during|within|since|from|of|at|on|this|last|with|as|to|and)\b.*$/i,
            '',
          )
          .trim();
      if (!piece || piece.length > 80) continue;
      if (!quoted && (!/^\p{Lu}/u.test(piece) || DIMENSION_WORDS.some(([, re]) => re.test(piece))))
        continue;
      if (!out.includes(piece)) out.push(piece);
    }
  }
  return out.slice(0, 4);
}

/** Every string the previous report showed (texts, titles, next steps), or "" when there is none. */
export function previousAnswer(history: HistoryMessage[]): string {
  const strings = (v: unknown): string[] =>
    typeof v === 'string'
      ? [v]
      : v && typeof v === 'object'
        ? Object.values(v as Record<string, unknown>).flatMap(strings)
        : [];
  return strings(previousReport(history)).join('\n');
}

const DIMENSION_HEADINGS: Record<AttritionDimension, string> = {
  department: 'department',
  costCentre: 'cost centre',
  location: 'location',
  country: 'country',
  level: 'grade',
  tenureBand: 'tenure band',
  rating: 'performance rating',
  manager: 'manager',
  gender: 'gender',
  ageBand: 'age band',
  source: 'hiring source',
  partTime: 'part-time status',
  job: 'role',
};

/**
 * Attrition splits for a follow-up: what it names; when it names only splits the previous
 * answer already showed (and asks no "which/where" question, answered first anyway), the
 * splits not shown yet, so a repeated or clicked request goes deeper instead of repeating.
 */
export function attritionSplits(request: string, history: HistoryMessage[]): AttritionDimension[] {
  const named = dimensionsIn(request);
  const before = previousAnswer(history);
  const shown = (d: AttritionDimension) => before.includes(`attrition by ${DIMENSION_HEADINGS[d]}`);
  const asks = /\b(which|where|what)\b/i.test(bodyOf(request));
  if (!before || asks || (named.length && !named.every(shown)))
    return named.length ? named : ['department', 'location', 'tenureBand', 'rating'];
  const fresh = (
    [
      'manager',
      'level',
      'job',
      'gender',
      'ageBand',
      'source',
      'location',
      'tenureBand',
      'rating',
    ] as const
  ).filter((d) => !shown(d));
  return fresh.length ? fresh.slice(0, 3) : named;
}

const call = (tool: string, input: Record<string, unknown> = {}): ToolCallRecord => ({
  tool,
  input,
});

/** The TI tool calls that answer a task. */
export function callsFor(
  task: TalentTask,
  request: string,
  history: HistoryMessage[] = [],
): ToolCallRecord[] {
  const dims = dimensionsIn(request);
  // Columns named by header: "by Supervisory Organization instead" shows only that split.
  const columns = columnsIn(request);
  const named = columns.length ? { columns } : {};
  const headDims = dims.filter((d) =>
    [
      'department',
      'costCentre',
      'location',
      'country',
      'level',
      'job',
      'gender',
      'manager',
      'source',
      'ageBand',
      'partTime',
      'rating',
    ].includes(d),
  );
  switch (task) {
    case 'regretted':
      return [call('ti_regretted_leavers'), call('ti_attrition', { by: ['department'] })];
    case 'cycles': {
      // "Compare the 2025 and 2026 cycles": the cycles named, else the two latest.
      const named = [
        ...bodyOf(request).matchAll(/\b(?:FY ?)?(?:19|20)\d{2}(?:[ -]?(?:H|Q)[1-4])?\b/gi),
      ].map((m) => m[0]);
      return [call('ti_rating_cycles', named.length ? { cycles: named.slice(0, 4) } : {})];
    }
    case 'early-tenure':
      return [call('ti_early_tenure_attrition')];
    case 'reskilling':
      return [call('ti_reskilling_plan', { capability: bodyOf(request).slice(0, 500) })];
    case 'promotion':
      return [call('ti_promotion_readiness', { perDepartment: 5 })];
    case 'funnel':
      return [call('ti_hiring_funnel')];
    case 'plan-budget':
      return [call('ti_plan_vs_budget'), call('ti_headcount', { by: ['department'] })];
    case 'succession':
      return [call('ti_succession_cover')];
    case 'market':
      return [call('ti_compa_ratio')];
    case 'bands':
      return [call('ti_salary_bands'), call('ti_pay', { by: ['level'] })];
    case 'gender-pay':
      return [call('ti_gender_pay_gap')];
    case 'rating-bias': {
      const bias = dims.filter((d) =>
        ['gender', 'ageBand', 'location', 'partTime', 'department', 'level'].includes(d),
      );
      return [
        call('ti_rating_bias', {
          by: bias.length ? bias : ['gender', 'ageBand', 'location', 'partTime'],
        }),
      ];
    }
    case 'calibration':
      return [call('ti_calibration', { maxCases: 40 })];
    case 'spans': {
      const narrow = /\b(under|below|fewer than|less than)\s+(\d+)/i.exec(request)?.[2];
      const wide = /\b(over|above|more than)\s+(\d+)/i.exec(request)?.[2];
      return [
        call('ti_spans_of_control', {
          narrowBelow: narrow ? Number(narrow) : 3,
          wideAbove: wide ? Number(wide) : 12,
        }),
      ];
    }
    case 'attrition':
      return [
        call('ti_attrition', {
          by: columns.length && !dims.length ? [] : attritionSplits(request, history),
          ...named,
        }),
      ];
    case 'skills':
      return [call('ti_skills_gap')];
    case 'tenure':
      return [call('ti_tenure', { by: headDims.length ? headDims : ['department'] })];
    case 'pay':
      return [
        call('ti_pay', {
          by: headDims.length ? headDims : columns.length ? [] : ['level', 'department'],
          ...named,
        }),
      ];
    case 'headcount':
      return [
        call('ti_headcount', {
          by: headDims.length
            ? headDims
            : columns.length
              ? []
              : ['department', 'location', 'level'],
          ...named,
        }),
      ];
    case 'overview':
      return [
        call('ti_headcount', { by: ['department', 'location', 'level'] }),
        call('ti_attrition', { by: ['department'] }),
        call('ti_tenure', { by: [] }),
        call('ti_pay', { by: ['level'] }),
      ];
  }
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
