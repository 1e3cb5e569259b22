import { doughnutChart } from '../../../tools/charts';
import { table, laidOut, section, type Section } from '../../../report/section';
import { defineCapability } from '../../../capability';
import { list } from '../../report-parts';
import { call } from '../render';
import { z } from 'zod';
import { defineTool, ToolError } from '../../../tools/tool';
import { headerColumn, num, textIn, tablesBasisSchema } from '../people';

export const SUCCESSION_DEFINITION =
  'Succession cover: a critical role is covered when it has at least one successor ready now; ready later means a nominee who needs one or more years; a role with no nominated successor has no cover at all.';

export const successionResult = z.object({
  definition: z.string(),
  roles: z.array(
    z.object({
      role: z.string(),
      incumbent: z.string().nullable(),
      readyNow: z.array(z.string()),
      readyLater: z.array(z.string()),
      cover: z.enum(['ready now', 'ready later only', 'none']),
    }),
  ),
  covered: z.number(),
  laterOnly: z.number(),
  none: z.number(),
  basis: tablesBasisSchema,
});
export type SuccessionResult = z.infer<typeof successionResult>;

const ROLE = [/critical role/, /^(role|position|job|job title|key role)$/, /role|position/];
const SUCCESSOR = [/successor/, /nominee/, /candidate/];
const READINESS = [/readiness/, /ready/, /timing|timeline/];
const INCUMBENT = [/incumbent/, /current holder|holder/];

/** SQL: a readiness text as 'now', 'later' or NULL. */
const readinessOf = (e: string) => `CASE
  WHEN regexp_matches(lower(${e}), '(ready\\s*now|^now$|immediate|^ready$|0\\s*-?\\s*1? ?y|emergency)') THEN 'now'
  WHEN regexp_matches(lower(${e}), '(later|year|yr|future|long|medium|short|development|\\d)') THEN 'later'
  ELSE NULL END`;

export const successionTool = defineTool({
  name: 'ti_succession_cover',
  description: `${SUCCESSION_DEFINITION} Needs a table of critical roles and nominated successors with their readiness.`,
  input: z.object({}),
  async run(ctx): Promise<SuccessionResult> {
    const set = await ctx.tables();
    const table = set.tables.find((t) => headerColumn(t, ROLE) && headerColumn(t, SUCCESSOR));
    if (!table)
      throw new ToolError(
        'No succession table among the attachments: attach one as CSV or XLSX with the critical role, each nominated successor and their readiness (ready now, 1–2 years...).',
      );
    const role = textIn(headerColumn(table, ROLE));
    const successor = textIn(headerColumn(table, SUCCESSOR));
    const readiness = textIn(headerColumn(table, READINESS));
    const incumbent = textIn(headerColumn(table, INCUMBENT));
    const rows = await set.query(
      `SELECT ${role} AS role, any_value(${incumbent}) AS incumbent,
         string_agg(${successor}, chr(31) ORDER BY ${successor}) FILTER (WHERE ${successor} IS NOT NULL AND ${readinessOf(readiness)} = 'now') AS now_list,
         string_agg(${successor}, chr(31) ORDER BY ${successor}) FILTER (WHERE ${successor} IS NOT NULL AND coalesce(${readinessOf(readiness)}, 'later') = 'later') AS later_list
       FROM ${table.sql} WHERE ${role} IS NOT NULL GROUP BY 1 ORDER BY 1`,
    );
    // Lists travel as one string (rows are scalar JSON): names joined by the unit separator.
    const listOf = (v: unknown) => (typeof v === 'string' && v ? v.split('\u001f') : []);
    const roles = rows.map((r) => {
      const readyNow = listOf(r.now_list);
      const readyLater = listOf(r.later_list);
      return {
        role: String(r.role),
        incumbent: r.incumbent === null ? null : String(r.incumbent),
        readyNow,
        readyLater,
        cover: readyNow.length
          ? ('ready now' as const)
          : readyLater.length
            ? ('ready later only' as const)
            : ('none' as const),
      };
    });
    roles.sort(
      (a, b) =>
        ['none', 'ready later only', 'ready now'].indexOf(a.cover) -
          ['none', 'ready later only', 'ready now'].indexOf(b.cover) ||
        a.role.localeCompare(b.role),
    );
    return {
      definition: SUCCESSION_DEFINITION,
      roles,
      covered: roles.filter((r) => r.cover === 'ready now').length,
      laterOnly: roles.filter((r) => r.cover === 'ready later only').length,
      none: num(roles.filter((r) => r.cover === 'none').length),
      basis: { tables: [{ source: table.source, role: table.role, rows: table.rows }] },
    };
  },
});

// ---------------------------------------------------------------------------------------------
// The capability (ADR 0084): the task it answers, its plan and its report section.

function successionSection(r: SuccessionResult): Section {
  const answer: string[] = [];
  const none = r.roles.filter((x) => x.cover === 'none');
  answer.push(
    `**${r.covered} of ${r.roles.length}** critical roles have a successor ready now; ${r.laterOnly} have only ready-later successors; **${r.none}** have no cover at all${none.length ? `: ${list(none.map((x) => x.role))}` : ''}.`,
  );
  // The table shows names and a mark; the file lists them for a spreadsheet and the cover as data.
  const roles = table<(typeof r.roles)[number]>(
    [
      { header: 'Critical role', value: (x) => x.role },
      { header: 'Incumbent', value: (x) => x.incumbent },
      {
        header: 'Ready now',
        value: (x) => x.readyNow.join('; '),
        shown: (x) => x.readyNow.join(', ') || '—',
      },
      {
        header: 'Ready later',
        value: (x) => x.readyLater.join('; '),
        shown: (x) => x.readyLater.join(', ') || '—',
      },
      {
        header: 'Cover',
        value: (x) => x.cover,
        shown: (x) =>
          x.cover === 'none'
            ? '❌ no cover'
            : x.cover === 'ready later only'
              ? '⚠️ ready later only'
              : '✅ ready now',
      },
    ],
    r.roles,
  );
  return section(TASK.heading, {
    answer,
    content: laidOut(
      ['### Critical roles and successors', '', roles.markdown(), ''],
      [
        doughnutChart(
          'Succession cover of critical roles',
          ['Ready now', 'Ready later only', 'No cover'],
          [r.covered, r.laterOnly, r.none],
          'Roles',
        ),
      ],
      [roles.file('succession-cover.csv')],
    ),
    nextSteps: [
      'Build a promotion readiness shortlist per department',
      'Map the skills gaps of the successors',
    ],
  });
}

const TASK = {
  key: 'succession',
  title: 'Critical role succession cover',
  heading: 'Succession cover',
  words: /\b(succession|successors?)\b/i,
  needs:
    'a table of critical roles with each nominated successor and their readiness (ready now, 1–2 years...)',
  sample: [
    'sample-succession.csv',
    'Critical Role,Incumbent,Successor,Readiness\nHead of Finance,E1002,E1044,Ready now\nHead of Finance,E1002,E1107,Ready in 1-2 years\n',
  ],
} as const;

export const successionCapability = defineCapability({
  task: TASK,
  tool: { ...successionTool, output: successionResult },
  plan: () => [call('ti_succession_cover')],
  render: (r) => successionSection(r),
});
