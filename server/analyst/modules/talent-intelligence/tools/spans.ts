import { plural } from '../../../report/words';
import { barChart } from '../../../tools/charts';
import { table, laidOut, section, type Section } from '../../../report/section';
import { defineCapability } from '../../../capability';
import { list } from '../../report-parts';
import { call } from '../render';
import { z } from 'zod';
import { defineTool } from '../../../tools/tool';
import {
  employedOn,
  lit,
  num,
  peopleQuery,
  round1,
  peopleResult,
  peopleWith,
  resultOver,
} from '../people';

export const SPANS_DEFINITION =
  "Span of control: direct reports per manager among people employed on the as-of date (a manager is anyone named as a current employee's manager); layers: the top (no manager in the data) is layer 1, their direct reports layer 2, and so on.";

const managerSpan = z.object({
  manager: z.string(),
  department: z.string().nullable(),
  reports: z.number(),
});
export const spansResult = peopleResult({
  narrowBelow: z.number(),
  wideAbove: z.number(),
  managers: z.number(),
  /** People with a manager id. */
  reporting: z.number(),
  medianSpan: z.number(),
  averageSpan: z.number(),
  narrow: z.array(managerSpan),
  wide: z.array(managerSpan),
  distribution: z.array(z.object({ band: z.string(), managers: z.number() })),
  layers: z.number(),
  /** People per layer across the organisation. */
  peopleByLayer: z.array(z.object({ layer: z.number(), people: z.number() })),
  /** Layers per function: the deepest layer of anyone in it, and its median span. */
  byDepartment: z.array(
    z.object({
      department: z.string(),
      people: z.number(),
      layers: z.number(),
      managers: z.number(),
      medianSpan: z.number().nullable(),
    }),
  ),
  /** Manager ids that are not a current employee in the file. */
  unknownManagers: z.array(z.string()),
  /** People not reachable from the top (a loop in the manager ids). */
  unplaced: z.number(),
});
export type SpansResult = z.infer<typeof spansResult>;

const CURRENT = employedOn('(SELECT d FROM ref_date)');
const MAX_LAYERS = 30;

export const spansTool = defineTool({
  name: 'ti_spans_of_control',
  description: `${SPANS_DEFINITION} Flags spans under narrowBelow (default 3) and over wideAbove (default 12), the span distribution, the number of layers overall and per function.`,
  input: z.object({
    narrowBelow: z.number().int().min(1).max(50).default(3),
    wideAbove: z.number().int().min(1).max(100).default(12),
  }),
  async run(ctx, input): Promise<SpansResult> {
    const { set, p } = await peopleWith(ctx, ['managerId', 'employeeId'], 'spans of control');
    const cur = `cur AS (SELECT * FROM people WHERE ${CURRENT} AND id IS NOT NULL)`;
    const spans = await peopleQuery(
      set,
      p,
      `, ${cur}
      SELECT r.manager, any_value(m.department) AS department, count(*)::INTEGER AS reports, bool_or(m.id IS NULL) AS unknown
      FROM cur r LEFT JOIN cur m ON m.id = r.manager WHERE r.manager IS NOT NULL
      GROUP BY r.manager ORDER BY reports DESC, r.manager`,
    );
    const list = spans.map((r) => ({
      manager: String(r.manager),
      department: r.department === null ? null : String(r.department),
      reports: num(r.reports),
    }));
    const counts = list.map((m) => m.reports).sort((a, b) => a - b);
    const mid = Math.floor(counts.length / 2);
    const medianSpan = counts.length
      ? counts.length % 2
        ? counts[mid]!
        : (counts[mid - 1]! + counts[mid]!) / 2
      : 0;
    const tree = await set.query(
      `WITH RECURSIVE ${p.cte.replace(/^WITH /, '')}, ref_date AS (SELECT DATE ${lit(p.asOf)} AS d), ${cur},
      ids AS (SELECT DISTINCT id FROM cur),
      layer(id, depth) AS (
        SELECT id, 1 FROM cur WHERE manager IS NULL OR manager NOT IN (SELECT id FROM ids)
        UNION
        SELECT c.id, l.depth + 1 FROM cur c JOIN layer l ON c.manager = l.id WHERE l.depth < ${MAX_LAYERS}
      ),
      placed AS (SELECT id, min(depth) AS depth FROM layer GROUP BY id)
      SELECT cur.id, any_value(cur.department) AS department, min(placed.depth) AS depth
      FROM cur LEFT JOIN placed ON placed.id = cur.id GROUP BY cur.id`,
    );
    const depthOf = new Map(
      tree.map((r) => [String(r.id), r.depth === null ? null : num(r.depth)]),
    );
    const layers = Math.max(0, ...[...depthOf.values()].map((d) => d ?? 0));
    const peopleByLayer = Array.from({ length: layers }, (_, i) => ({
      layer: i + 1,
      people: [...depthOf.values()].filter((d) => d === i + 1).length,
    }));
    const departments = new Map<string, { people: number; layers: number }>();
    for (const r of tree) {
      const d = r.department === null ? 'Not stated' : String(r.department);
      const e = departments.get(d) ?? { people: 0, layers: 0 };
      e.people++;
      e.layers = Math.max(e.layers, r.depth === null ? 0 : num(r.depth));
      departments.set(d, e);
    }
    const byDepartment = [...departments.entries()]
      .map(([department, e]) => {
        const spansIn = list
          .filter((m) => (m.department ?? 'Not stated') === department)
          .map((m) => m.reports)
          .sort((a, b) => a - b);
        const h = Math.floor(spansIn.length / 2);
        return {
          department,
          people: e.people,
          layers: e.layers,
          managers: spansIn.length,
          medianSpan: spansIn.length
            ? spansIn.length % 2
              ? spansIn[h]!
              : (spansIn[h - 1]! + spansIn[h]!) / 2
            : null,
        };
      })
      .sort((a, b) => b.layers - a.layers || a.department.localeCompare(b.department));
    const bands: Array<[string, (n: number) => boolean]> = [
      [`1–${input.narrowBelow - 1}`, (n) => n < input.narrowBelow],
      [
        `${input.narrowBelow}–${input.wideAbove}`,
        (n) => n >= input.narrowBelow && n <= input.wideAbove,
      ],
      [`${input.wideAbove + 1}+`, (n) => n > input.wideAbove],
    ];
    return resultOver(p, SPANS_DEFINITION, {
      narrowBelow: input.narrowBelow,
      wideAbove: input.wideAbove,
      managers: list.length,
      reporting: counts.reduce((a, b) => a + b, 0),
      medianSpan,
      averageSpan: list.length ? round1(counts.reduce((a, b) => a + b, 0) / list.length) : 0,
      narrow: list
        .filter((m) => m.reports < input.narrowBelow)
        .sort((a, b) => a.reports - b.reports),
      wide: list.filter((m) => m.reports > input.wideAbove),
      distribution: bands.map(([band, f]) => ({ band, managers: counts.filter(f).length })),
      layers,
      peopleByLayer,
      byDepartment,
      unknownManagers: spans.filter((r) => r.unknown === true).map((r) => String(r.manager)),
      unplaced: [...depthOf.values()].filter((d) => d === null).length,
    });
  },
});

// ---------------------------------------------------------------------------------------------
// The capability (ADR 0084): the task it answers, its plan and its report section.

function spansSection(r: SpansResult): Section {
  const answer: string[] = [];
  answer.push(
    `${plural(r.managers, 'manager')} with a median span of **${r.medianSpan}** direct reports: **${r.narrow.length}** with fewer than ${r.narrowBelow} and **${r.wide.length}** with more than ${r.wideAbove}. The organisation has **${r.layers}** management layers.`,
  );
  if (r.wide.length)
    answer.push(`Over ${r.wideAbove}: ${list(r.wide.map((m) => `${m.manager} (${m.reports})`))}.`);
  if (r.narrow.length)
    answer.push(
      `Under ${r.narrowBelow}: ${list(r.narrow.slice(0, 12).map((m) => `${m.manager} (${m.reports})`))}${r.narrow.length > 12 ? ` and ${r.narrow.length - 12} more (see the file)` : ''}.`,
    );
  if (r.unknownManagers.length)
    answer.push(
      `${plural(r.unknownManagers.length, 'manager id')} (${list(r.unknownManagers.slice(0, 5))}) are not current employees in the file; their teams count from the top layer.`,
    );
  type Manager = (typeof r.wide)[number];
  const flagged = table<Manager>(
    [
      { header: 'Manager', value: (m) => m.manager },
      {
        header: 'Department',
        value: (m) => m.department,
        shown: (m) => m.department ?? 'not in the file',
      },
      { header: 'Direct reports', value: (m) => m.reports },
      {
        header: 'Flag',
        value: (m) => (m.reports > r.wideAbove ? `over ${r.wideAbove}` : `under ${r.narrowBelow}`),
      },
    ],
    [...r.wide, ...r.narrow],
  );
  const byFunction = table<(typeof r.byDepartment)[number]>(
    [
      { header: 'Function', value: (d) => d.department },
      { header: 'People', value: (d) => d.people },
      { header: 'Layers', value: (d) => d.layers },
      { header: 'Managers', value: (d) => d.managers },
      { header: 'Median span', value: (d) => d.medianSpan, shown: (d) => d.medianSpan ?? '—' },
    ],
    r.byDepartment,
  );
  return section(TASK.heading, {
    answer,
    content: laidOut(
      [
        `### Spans under ${r.narrowBelow} or over ${r.wideAbove}`,
        '',
        flagged.cells.length ? flagged.markdown() : 'None.',
        '',
        '### Layers per function',
        '',
        byFunction.markdown(),
        '',
        '### People per layer',
        '',
        table<(typeof r.peopleByLayer)[number]>(
          [
            { header: 'Layer', value: (l) => l.layer },
            { header: 'People', value: (l) => l.people },
          ],
          r.peopleByLayer,
        ).markdown(),
        '',
      ],
      [
        barChart(
          'Managers by span of control',
          r.distribution.map((d) => d.band),
          [{ label: 'Managers', data: r.distribution.map((d) => d.managers) }],
          { xTitle: 'Direct reports', yTitle: 'Managers' },
        ),
        byFunction.bar('Layers per function', 'Function', ['Layers'], { yTitle: 'Layers' }),
      ],
      [flagged.file('spans-of-control.csv')],
    ),
    nextSteps: [
      'Show headcount by department and grade',
      'Calibration: rating distribution per manager',
    ],
  });
}

const TASK = {
  key: 'spans',
  title: 'Span of control review',
  heading: 'Spans of control',
  words: /\b(spans?( of control)?|layers|direct reports|manager ratio)\b/i,
  needs: 'an org export with employee id, manager id, department and level',
} as const;

export const spansCapability = defineCapability({
  task: TASK,
  guide: 'spans and layers',
  tool: { ...spansTool, output: spansResult },
  plan: (_ctx, request) => {
    const narrow = /\b(under|below|fewer than|less than)\s+(\d+)/i.exec(request)?.[2];
    const wide = /\b(over|above|more than)\s+(\d+)/i.exec(request)?.[2];
    return [
      call('ti_spans_of_control', {
        narrowBelow: narrow ? Number(narrow) : 3,
        wideAbove: wide ? Number(wide) : 12,
      }),
    ];
  },
  render: (r) => spansSection(r),
});
