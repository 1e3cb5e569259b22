import { plural, pct } from '../../../report/words';
import { barChart } from '../../../tools/charts';
import { table, laidOut, section, type Section } from '../../../report/section';
import { defineCapability } from '../../../capability';
import { list } from '../../report-parts';
import { call } from '../render';
import { z } from 'zod';
import type { LoadedTable } from '../../../tables/types';
import { defineTool, ToolError } from '../../../tools/tool';
import { headerColumn, textIn, tablesBasisSchema } from '../people';

export const FUNNEL_DEFINITION =
  "Hiring funnel: stage conversion = candidates who reached the next stage ÷ candidates who reached this one (per role family); chance of filling an open role = 1 − the product over its active candidates of (1 − the family's hire rate from their stage, among decided candidates); time to hire = median days from application to the last stage for hired candidates; an open role's projected start = its most advanced active candidate's stage date + the median days hired candidates took from that stage (no active candidate: the as-of date + the median time to hire); a role slips when its projected start is after its target date.";

export const funnelResult = z.object({
  definition: z.string(),
  asOf: z.string(),
  stages: z.array(z.string()),
  families: z.array(
    z.object({
      family: z.string(),
      candidates: z.number(),
      hired: z.number(),
      conversion: z.array(
        z.object({ from: z.string(), to: z.string(), rate: z.number().nullable() }),
      ),
      medianDaysToHire: z.number().nullable(),
    }),
  ),
  roles: z.array(
    z.object({
      role: z.string(),
      family: z.string(),
      target: z.string().nullable(),
      bestStage: z.string().nullable(),
      activeCandidates: z.number(),
      projectedStart: z.string().nullable(),
      /** Chance the active candidates yield a hire, from the family's stage-to-hire rates (%). */
      fillChance: z.number().nullable(),
      slips: z.boolean().nullable(),
      daysLate: z.number().nullable(),
      filled: z.boolean(),
    }),
  ),
  slipping: z.number(),
  bySource: z.array(
    z.object({ source: z.string(), candidates: z.number(), hired: z.number(), rate: z.number() }),
  ),
  basis: tablesBasisSchema,
});
export type FunnelResult = z.infer<typeof funnelResult>;

const STAGE_WORDS = /appl|screen|phone|assess|interview|onsite|panel|offer|accept|hire|start|join/;
const ROLE = [
  /^(role|position|job|job title|requisition|req|vacancy)$/,
  /requisition|vacancy|role|position/,
];
const FAMILY = [/role family|job family|family/, /^(function|department|team)$/];
const SOURCE = [/source/, /channel/];
const STATUS = [/^(status|stage|current stage|outcome)$/];
const TARGET = [/target|needed by|required by|planned start|plan date|due/];

const day = 86_400_000;
const median = (xs: number[]) => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const isoPlus = (iso: string, days: number) =>
  new Date(Date.parse(`${iso}T00:00:00Z`) + Math.round(days) * day).toISOString().slice(0, 10);

export function pipelineTable(tables: LoadedTable[]): LoadedTable | undefined {
  return tables.find(
    (t) =>
      headerColumn(t, ROLE) &&
      t.columns.filter(
        (c) =>
          c.type === 'date' &&
          STAGE_WORDS.test(c.name.toLowerCase()) &&
          !TARGET.some((re) => re.test(c.name.toLowerCase())),
      ).length >= 2,
  );
}

export const hiringFunnelTool = defineTool({
  name: 'ti_hiring_funnel',
  description: `${FUNNEL_DEFINITION} Needs the recruiting pipeline: one row per candidate with role, role family, stage dates (applied, screen, interview, offer, start), status, source and the role's target start date.`,
  input: z.object({}),
  async run(ctx): Promise<FunnelResult> {
    const set = await ctx.tables();
    const table = pipelineTable(set.tables);
    if (!table)
      throw new ToolError(
        'No recruiting pipeline among the attachments: attach it as CSV or XLSX with one row per candidate: role, role family, a date column per stage (Applied, Screen, Interview, Offer, Start), status, source and target start date.',
      );
    const stageCols = table.columns.filter(
      (c) =>
        c.type === 'date' &&
        STAGE_WORDS.test(c.name.toLowerCase()) &&
        !TARGET.some((re) => re.test(c.name.toLowerCase())),
    );
    const role = headerColumn(table, ROLE)!;
    const family = headerColumn(table, FAMILY);
    const source = headerColumn(table, SOURCE);
    const status = headerColumn(table, STATUS);
    const target = headerColumn(table, TARGET);
    const asOf = set.asOf ?? new Date().toISOString().slice(0, 10);
    const rows = await set.query(
      `SELECT ${textIn(role)} AS role, coalesce(${textIn(family)}, ${textIn(role)}) AS family, ${textIn(source)} AS source, lower(coalesce(${textIn(status)}, '')) AS status,
        CAST(TRY_CAST(${target ? target.sql : 'NULL'} AS DATE) AS VARCHAR) AS target,
        ${stageCols.map((c, i) => `CAST(TRY_CAST(${c.sql} AS DATE) AS VARCHAR) AS s${i}`).join(', ')}
       FROM ${table.sql} WHERE ${textIn(role)} IS NOT NULL`,
    );
    const last = stageCols.length - 1;
    const cands = rows.map((r) => {
      const dates = stageCols.map((_, i) => (r[`s${i}`] === null ? null : String(r[`s${i}`])));
      let reached = -1;
      dates.forEach((d, i) => {
        if (d !== null) reached = i;
      });
      const closed = /reject|declin|withdr|not progress|unsuccessful|closed|lost/.test(
        String(r.status),
      );
      return {
        role: String(r.role),
        family: String(r.family),
        source: r.source === null ? 'Not stated' : String(r.source),
        target: r.target === null ? null : String(r.target),
        dates,
        reached,
        closed,
        hired: dates[last] !== null && !closed,
        active: dates[last] === null && !closed && reached >= 0,
      };
    });
    const stages = stageCols.map((c) => c.name);
    const familyNames = [...new Set(cands.map((c) => c.family))].sort();
    const remaining = (group: typeof cands, from: number) =>
      median(
        group
          .filter((c) => c.hired && c.dates[from] !== null)
          .map((c) => (Date.parse(c.dates[last]!) - Date.parse(c.dates[from]!)) / day),
      );
    const families = familyNames.map((f) => {
      const mine = cands.filter((c) => c.family === f);
      return {
        family: f,
        candidates: mine.length,
        hired: mine.filter((c) => c.hired).length,
        conversion: stages.slice(0, -1).map((from, i) => {
          const at = mine.filter((c) => c.reached >= i).length;
          const next = mine.filter((c) => c.reached >= i + 1).length;
          return {
            from,
            to: stages[i + 1]!,
            rate: at ? Math.round((next / at) * 1000) / 10 : null,
          };
        }),
        medianDaysToHire: remaining(mine, 0),
      };
    });
    /** Of the decided candidates (hired or out) who reached a stage, the share hired. */
    const hireRate = (group: typeof cands, stage: number) => {
      const decided = group.filter((c) => c.reached >= stage && (c.hired || c.closed));
      return decided.length ? decided.filter((c) => c.hired).length / decided.length : null;
    };
    const roleNames = [...new Set(cands.map((c) => c.role))].sort();
    const roles = roleNames.map((name) => {
      const mine = cands.filter((c) => c.role === name);
      const fam = mine[0]!.family;
      const famCands = cands.filter((c) => c.family === fam);
      const targetDate = mine.map((c) => c.target).find((t) => t !== null) ?? null;
      const filled = mine.some((c) => c.hired);
      const active = mine.filter((c) => c.active).sort((a, b) => b.reached - a.reached);
      let projected: string | null = null;
      let bestStage: string | null = null;
      if (filled) {
        projected = mine.find((c) => c.hired)!.dates[last]!;
        bestStage = stages[last]!;
      } else if (active.length) {
        const best = active[0]!;
        bestStage = stages[best.reached]!;
        const rest = remaining(famCands, best.reached) ?? remaining(cands, best.reached);
        if (rest !== null) {
          const from = isoPlus(best.dates[best.reached]!, rest);
          projected = from < asOf ? asOf : from;
        }
      } else {
        const t = remaining(famCands, 0) ?? remaining(cands, 0);
        projected = t === null ? null : isoPlus(asOf, t);
      }
      const misses = active.map(
        (c) => 1 - (hireRate(famCands, c.reached) ?? hireRate(cands, c.reached) ?? 0),
      );
      const fillChance = filled
        ? 100
        : active.length
          ? Math.round((1 - misses.reduce((a, b) => a * b, 1)) * 1000) / 10
          : 0;
      const slips = targetDate && projected ? projected > targetDate : null;
      return {
        fillChance,
        role: name,
        family: fam,
        target: targetDate,
        bestStage,
        activeCandidates: active.length,
        projectedStart: projected,
        slips: filled ? (slips ?? false) : slips,
        daysLate:
          slips && projected && targetDate
            ? Math.round((Date.parse(projected) - Date.parse(targetDate)) / day)
            : null,
        filled,
      };
    });
    const sources = [...new Set(cands.map((c) => c.source))].sort();
    return {
      definition: FUNNEL_DEFINITION,
      asOf,
      stages,
      families,
      roles: roles.sort(
        (a, b) =>
          Number(b.slips) - Number(a.slips) ||
          (b.daysLate ?? 0) - (a.daysLate ?? 0) ||
          a.role.localeCompare(b.role),
      ),
      slipping: roles.filter((r) => r.slips && !r.filled).length,
      bySource: sources.map((s) => {
        const mine = cands.filter((c) => c.source === s);
        const hired = mine.filter((c) => c.hired).length;
        return {
          source: s,
          candidates: mine.length,
          hired,
          rate: mine.length ? Math.round((hired / mine.length) * 1000) / 10 : 0,
        };
      }),
      basis: { tables: [{ source: table.source, role: table.role, rows: table.rows }] },
    };
  },
});

// ---------------------------------------------------------------------------------------------
// The capability (ADR 0084): the task it answers, its plan and its report section.

function funnelSection(r: FunnelResult): Section {
  const answer: string[] = [];
  const open = r.roles.filter((x) => !x.filled);
  const slipping = open.filter((x) => x.slips);
  answer.push(
    `**${slipping.length} of ${open.length}** open roles will slip past their target start date${slipping.length ? `: ${list(slipping.slice(0, 8).map((x) => `${x.role} (${x.daysLate} days late, projected ${x.projectedStart})`))}` : ''}.`,
  );
  const thin = open.filter((x) => x.fillChance !== null && x.fillChance < 50);
  if (thin.length)
    answer.push(
      `${plural(thin.length, 'open role')} ${thin.length === 1 ? 'has' : 'have'} less than an even chance of being filled from the current pipeline (by the stage-to-hire rates): ${list(thin.slice(0, 8).map((x) => `${x.role} (${x.fillChance}%)`))}.`,
    );
  const slowest = [...r.families]
    .filter((f) => f.medianDaysToHire !== null)
    .sort((a, b) => b.medianDaysToHire! - a.medianDaysToHire!)[0];
  if (slowest)
    answer.push(
      `Slowest role family: **${slowest.family}**, a median of ${slowest.medianDaysToHire} days from application to ${r.stages.at(-1)}.`,
    );
  const steps = r.stages.slice(0, -1).map((s, i) => `${s} → ${r.stages[i + 1]}`);
  type Role = (typeof r.roles)[number];
  type Family = (typeof r.families)[number];
  // The file carries the slip as data (filled, true or false, and the days late); the table says it.
  const roles = table<Role>(
    [
      { header: 'Role', value: (x) => x.role },
      { header: 'Family', value: (x) => x.family },
      { header: 'Target start', value: (x) => x.target },
      {
        header: 'Most advanced stage',
        value: (x) => x.bestStage,
        shown: (x) => x.bestStage ?? 'no candidate',
      },
      { header: 'Active candidates', value: (x) => x.activeCandidates },
      {
        header: 'Chance the pipeline fills it',
        value: (x) => x.fillChance,
        shown: (x) => (x.fillChance === null ? 'n/a' : `${x.fillChance}%`),
        only: 'markdown',
      },
      {
        header: 'Projected start',
        value: (x) => x.projectedStart,
        shown: (x) => x.projectedStart ?? 'n/a',
      },
      {
        header: 'Slips',
        value: (x) => (x.filled ? 'filled' : x.slips),
        shown: (x) =>
          x.filled
            ? 'filled'
            : x.slips === null
              ? 'no target date'
              : x.slips
                ? `⚠️ ${x.daysLate} days`
                : 'on time',
      },
      { header: 'Days late', value: (x) => x.daysLate, only: 'csv' },
    ],
    r.roles,
  );
  return section(TASK.heading, {
    answer,
    content: laidOut(
      [
        '### Conversion and time to hire per role family',
        '',
        table<Family>(
          [
            { header: 'Role family', value: (f) => f.family },
            { header: 'Candidates', value: (f) => f.candidates },
            { header: 'Hired', value: (f) => f.hired },
            ...steps.map((header, i) => ({
              header,
              value: (f: Family) => f.conversion[i]?.rate,
              shown: (f: Family) => pct(f.conversion[i]?.rate ?? null),
            })),
            {
              header: 'Median days to hire',
              value: (f) => f.medianDaysToHire,
              shown: (f) => f.medianDaysToHire ?? 'n/a',
            },
          ],
          r.families,
        ).markdown(),
        '',
        '### Roles and projected start dates',
        '',
        roles.markdown(),
        '',
        '### By source',
        '',
        table<(typeof r.bySource)[number]>(
          [
            { header: 'Source', value: (x) => x.source },
            { header: 'Candidates', value: (x) => x.candidates },
            { header: 'Hired', value: (x) => x.hired },
            { header: 'Hire rate', value: (x) => x.rate, shown: (x) => `${x.rate}%` },
          ],
          r.bySource,
        ).markdown(),
        '',
      ],
      [
        barChart(
          'Stage conversion by role family',
          steps,
          r.families.map((f) => ({ label: f.family, data: f.conversion.map((c) => c.rate ?? 0) })),
          { yTitle: '%', max: 100 },
        ),
        roles
          .where((x) => slipping.includes(x))
          .bar('Days late by role', 'Role', ['Days late'], { yTitle: 'Days' }),
      ],
      [roles.file('hiring-forecast.csv')],
    ),
    nextSteps: [
      'Compare the headcount plan with the budget',
      'Show first-year attrition by hiring source and team',
    ],
  });
}

const TASK = {
  key: 'funnel',
  title: 'Hiring funnel forecast',
  heading: 'Hiring funnel',
  words: /\b(funnel|pipeline|time to hire|hiring forecast|will hiring meet)\b/i,
  needs:
    'the recruiting pipeline: one row per candidate with role, role family, a date per stage (Applied, Screen, Interview, Offer, Start), status, source and the target start date',
  sample: [
    'sample-pipeline.csv',
    'Candidate,Role,Role Family,Source,Status,Applied,Screen,Interview,Offer,Start,Target Start\nC001,Data Engineer,Engineering,Referral,Interview,2026-08-01,2026-08-08,2026-08-20,,,2026-11-01\n',
  ],
} as const;

export const hiringFunnelCapability = defineCapability({
  task: TASK,
  tool: { ...hiringFunnelTool, output: funnelResult },
  plan: () => [call('ti_hiring_funnel')],
  render: (r) => funnelSection(r),
});
