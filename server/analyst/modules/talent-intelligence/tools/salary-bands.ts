import { grouped, plural, pay } from '../../../report/words';
import { table, laidOut, section, type Section } from '../../../report/section';
import { defineCapability } from '../../../capability';
import { list } from '../../report-parts';
import { call } from '../render';
import { z } from 'zod';
import { defineTool, ToolError } from '../../../tools/tool';
import type { LoadedTable } from '../../../tables/types';
import {
  employedOn,
  headerColumn,
  keyOf,
  num,
  numberOf,
  peopleQuery,
  round1,
  textIn,
  peopleResult,
  peopleWith,
  resultOver,
} from '../people';

export const BANDS_DEFINITION =
  "Salary bands: a person is outside their band when their salary is below the band minimum or above its maximum (people employed on the as-of date); spread = (max − min) ÷ min, under 20% is too little; overlap of two neighbouring bands = the part of the lower band's range that lies above the next band's minimum.";

export const MIN_SPREAD = 20;

export const bandRow = z.object({
  band: z.string(),
  min: z.number(),
  max: z.number(),
  spread: z.number(),
  people: z.number(),
  below: z.number(),
  above: z.number(),
  costToMinimum: z.number(),
});
export type BandRow = z.infer<typeof bandRow>;

export const bandsResult = peopleResult({
  bands: z.array(bandRow),
  outside: z.array(
    z.object({
      id: z.string().nullable(),
      band: z.string(),
      salary: z.number(),
      min: z.number(),
      max: z.number(),
      side: z.enum(['below', 'above']),
      difference: z.number(),
    }),
  ),
  overlaps: z.array(z.object({ lower: z.string(), upper: z.string(), overlap: z.number() })),
  narrow: z.array(z.string()),
  /** People whose grade has no band. */
  withoutBand: z.number(),
  fixes: z.array(z.object({ band: z.string(), issue: z.string(), fix: z.string() })),
  /**
   * The company library's pay bands (ADR 0082): `used` when they were applied, false when a band
   * file attached in the chat won over them. Absent when the library was not consulted.
   */
  library: z
    .object({
      source: z.string(),
      used: z.boolean(),
      passages: z.array(z.object({ citation: z.string(), link: z.string() })),
    })
    .optional(),
  /** Where the applied bands were read when they were attached: "bands.csv". */
  attached: z.string().optional(),
});
export type BandsResult = z.infer<typeof bandsResult>;

const MIN = [/^(band )?min(imum)?( salary| pay)?$/, /\bmin(imum)?\b/];
const MAX = [/^(band )?max(imum)?( salary| pay)?$/, /\bmax(imum)?\b/];
const LEVEL = [/^(level|grade|band|job level|pay grade|salary band)$/, /grade|level|band/];

export const salaryBandsTool = defineTool({
  name: 'ti_salary_bands',
  description: `${BANDS_DEFINITION} Needs the current salaries with a grade, and bands (grade, minimum, maximum) in a separate table or as columns.`,
  input: z.object({
    library: z
      .object({
        source: z.string().max(300),
        bands: z
          .array(
            z.object({
              band: z.string().min(1).max(100),
              min: z.number().positive().finite(),
              max: z.number().positive().finite(),
            }),
          )
          .max(500),
        passages: z
          .array(z.object({ citation: z.string().max(300), link: z.string().max(500) }))
          .max(20),
      })
      .optional()
      .describe("The company library's pay bands (set by the builtin planner)"),
  }),
  async run(ctx, input): Promise<BandsResult> {
    const { set, p } = await peopleWith(ctx, ['salary', 'level'], 'a salary band check');
    const source = set.tables.find(
      (t) => headerColumn(t, MIN) && headerColumn(t, MAX) && headerColumn(t, LEVEL) !== undefined,
    );
    const lib = input.library;
    if (!source && !lib?.bands.length)
      throw new ToolError(
        lib
          ? `No salary bands among the attachments, and no band rows (grade, minimum, maximum) could be read from ${lib.source} in the company library (${lib.passages.map(citation).join('; ')}): attach the bands as CSV or XLSX with a grade, a minimum and a maximum per band.`
          : 'No salary bands among the attachments: attach them as CSV or XLSX with a grade, a minimum and a maximum per band (or add Band Min and Band Max columns to the salaries).',
      );
    const bandCte = `, bands AS (${source ? attachedBands(source) : libraryBands(lib!.bands)}),
      cur AS (SELECT people.id, people.salary, bands.band, bands.mn, bands.mx FROM people LEFT JOIN bands ON lower(people.level) = bands.k
        WHERE ${employedOn('(SELECT d FROM ref_date)')} AND salary IS NOT NULL)`;
    const bandRows = await peopleQuery(
      set,
      p,
      `${bandCte} SELECT bands.band, bands.mn, bands.mx, count(cur.id)::INTEGER AS n,
        count(*) FILTER (WHERE cur.salary < bands.mn)::INTEGER AS below, count(*) FILTER (WHERE cur.salary > bands.mx)::INTEGER AS above,
        coalesce(sum(bands.mn - cur.salary) FILTER (WHERE cur.salary < bands.mn), 0) AS cost
      FROM bands LEFT JOIN cur ON cur.band = bands.band GROUP BY ALL ORDER BY bands.mn, bands.band`,
    );
    const outsideRows = await peopleQuery(
      set,
      p,
      `${bandCte} SELECT id, band, salary, mn, mx FROM cur WHERE salary < mn OR salary > mx ORDER BY band, salary`,
    );
    const [w] = await peopleQuery(
      set,
      p,
      `${bandCte} SELECT count(*) FILTER (WHERE band IS NULL)::INTEGER AS n FROM cur`,
    );
    const bands: BandRow[] = bandRows.map((r) => ({
      band: String(r.band),
      min: num(r.mn),
      max: num(r.mx),
      spread: num(r.mn) > 0 ? round1(((num(r.mx) - num(r.mn)) / num(r.mn)) * 100) : 0,
      people: num(r.n),
      below: num(r.below),
      above: num(r.above),
      costToMinimum: Math.round(num(r.cost)),
    }));
    const overlaps = bands.slice(1).flatMap((upper, i) => {
      const lower = bands[i]!;
      const width = lower.max - lower.min;
      const over = lower.max - upper.min;
      return over > 0 && width > 0
        ? [{ lower: lower.band, upper: upper.band, overlap: round1((over / width) * 100) }]
        : [];
    });
    const narrow = bands.filter((b) => b.spread < MIN_SPREAD).map((b) => b.band);
    const fixes: BandsResult['fixes'] = [];
    for (const b of bands) {
      if (b.below)
        fixes.push({
          band: b.band,
          issue: `${b.below} paid below the minimum`,
          fix: `Raise them to the minimum (${grouped(b.min)}): ${grouped(b.costToMinimum)} a year in total`,
        });
      if (b.above)
        fixes.push({
          band: b.band,
          issue: `${b.above} paid above the maximum`,
          fix: 'Hold their pay (red-circle) until the band catches up, or review them for the next grade',
        });
      if (narrow.includes(b.band))
        fixes.push({
          band: b.band,
          issue: `spread of ${b.spread}% (under ${MIN_SPREAD}%)`,
          fix: `Widen the band: a maximum of ${grouped(Math.round(b.min * (1 + MIN_SPREAD / 100)))} gives a ${MIN_SPREAD}% spread`,
        });
    }
    for (const o of overlaps.filter((x) => x.overlap >= 50))
      fixes.push({
        band: `${o.lower} / ${o.upper}`,
        issue: `${o.overlap}% of ${o.lower}'s range lies inside ${o.upper}`,
        fix: `Bring ${o.lower}'s maximum or ${o.upper}'s minimum closer so a promotion means a pay step`,
      });
    return resultOver(p, BANDS_DEFINITION, {
      bands,
      outside: outsideRows.map((r) => {
        const below = num(r.salary) < num(r.mn);
        return {
          id: r.id === null ? null : String(r.id),
          band: String(r.band),
          salary: num(r.salary),
          min: num(r.mn),
          max: num(r.mx),
          side: below ? ('below' as const) : ('above' as const),
          difference: Math.round(below ? num(r.mn) - num(r.salary) : num(r.salary) - num(r.mx)),
        };
      }),
      overlaps,
      narrow,
      withoutBand: num(w?.n),
      fixes,
      ...(lib
        ? { library: { source: lib.source, used: !source, passages: lib.passages.slice(0, 8) } }
        : {}),
      ...(source ? { attached: source.source } : {}),
    });
  },
});

const citation = (p: { citation: string; link: string }) =>
  `[${p.citation.replace(/[[\]]/g, '')}](${p.link})`;

/** The bands of an attached table (or of Band Min / Band Max columns of the salaries). */
function attachedBands(source: LoadedTable): string {
  const levelCol = source.columns.find((c) => c.role === 'level') ?? headerColumn(source, LEVEL)!;
  return `SELECT ${textIn(levelCol)} AS band, ${keyOf(levelCol)} AS k, min(${numberOf(headerColumn(source, MIN))}) AS mn,
        max(${numberOf(headerColumn(source, MAX))}) AS mx FROM ${source.sql} WHERE ${textIn(levelCol)} IS NOT NULL GROUP BY 1, 2`;
}

const literal = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** The library's bands as rows of the same shape (grade, its key, minimum, maximum). */
function libraryBands(bands: Array<{ band: string; min: number; max: number }>): string {
  const rows = bands.map(
    (b) =>
      `(${literal(b.band.trim())}, ${literal(b.band.trim().toLowerCase())}, CAST(${b.min} AS DOUBLE), CAST(${b.max} AS DOUBLE))`,
  );
  return `SELECT * FROM (VALUES ${rows.join(', ')}) AS lb(band, k, mn, mx)`;
}

// ---------------------------------------------------------------------------------------------
// The capability (ADR 0084): the task it answers, its plan and its report section.

const citeLink = (c: { citation: string; link: string }) =>
  `[${c.citation.replace(/[[\]]/g, '')}](${c.link})`;

/**
 * Where the bands came from when the company library was consulted (ADR 0082): the library's
 * document and version, cited, or the attached band file that won over it.
 */
function bandSourceLine(r: BandsResult): string | null {
  const lib = r.library;
  if (!lib) return null;
  if (!lib.used)
    return `The bands attached in this chat (${r.attached ?? 'the attachment'}) were applied: an attachment wins over the company library, so ${lib.source} in the library was not used.`;
  return `Bands from ${lib.source} in the company library (${lib.passages.map(citeLink).join('; ')}): no band file is attached in this chat.`;
}

function bandsSection(r: BandsResult): Section {
  const answer: string[] = [];
  const below = r.outside.filter((o) => o.side === 'below').length;
  const above = r.outside.length - below;
  answer.push(
    `**${plural(r.outside.length, 'person', 'people')}** paid outside their band (${below} below the minimum, ${above} above the maximum); **${plural(r.overlaps.length, 'overlap')}** between neighbouring grades; **${r.narrow.length}** band${r.narrow.length === 1 ? '' : 's'} with too little spread${r.narrow.length ? ` (${list(r.narrow)})` : ''}.`,
  );
  if (r.withoutBand)
    answer.push(
      `${plural(r.withoutBand, 'person', 'people')} have a grade with no band and are not checked.`,
    );
  const source = bandSourceLine(r);
  if (source) answer.push(source);
  const bands = table<BandRow>(
    [
      { header: 'Band', value: (b) => b.band },
      { header: 'Minimum', value: (b) => b.min, shown: (b) => pay(b.min) },
      { header: 'Maximum', value: (b) => b.max, shown: (b) => pay(b.max) },
      { header: 'Spread', value: (b) => b.spread, shown: (b) => `${b.spread}%` },
      { header: 'People', value: (b) => b.people },
      { header: 'Below', value: (b) => b.below },
      { header: 'Above', value: (b) => b.above },
    ],
    r.bands,
  );
  type Overlap = (typeof r.overlaps)[number];
  type Fix = (typeof r.fixes)[number];
  return section(TASK.heading, {
    answer,
    content: laidOut(
      [
        '### Bands',
        '',
        bands.markdown(),
        '',
        '### Overlaps between levels',
        '',
        r.overlaps.length
          ? table<Overlap>(
              [
                { header: 'Lower band', value: (o) => o.lower },
                { header: 'Upper band', value: (o) => o.upper },
                {
                  header: "Share of the lower band's range above the upper minimum",
                  value: (o) => o.overlap,
                  shown: (o) => `${o.overlap}%`,
                },
              ],
              r.overlaps,
            ).markdown()
          : 'None.',
        '',
        '### Proposed fixes',
        '',
        r.fixes.length
          ? table<Fix>(
              [
                { header: 'Band', value: (f) => f.band },
                { header: 'Issue', value: (f) => f.issue },
                { header: 'Proposed fix', value: (f) => f.fix },
              ],
              r.fixes,
            ).markdown()
          : 'No fixes needed.',
        '',
      ],
      [
        bands.bar(
          'People outside their band by grade',
          'Band',
          [
            { header: 'Below', label: 'Below minimum' },
            { header: 'Above', label: 'Above maximum' },
          ],
          { yTitle: 'People' },
        ),
      ],
      [
        table<(typeof r.outside)[number]>(
          [
            { header: 'Employee', value: (o) => o.id },
            { header: 'Band', value: (o) => o.band },
            { header: 'Salary', value: (o) => o.salary },
            { header: 'Minimum', value: (o) => o.min },
            { header: 'Maximum', value: (o) => o.max },
            { header: 'Side', value: (o) => o.side },
            { header: 'Difference', value: (o) => o.difference },
          ],
          r.outside,
        ).file('people-outside-band.csv'),
      ],
    ),
    nextSteps: ['Compare our salaries with market data', 'Show pay by grade with quartiles'],
  });
}

const TASK = {
  key: 'bands',
  title: 'Salary band health check',
  heading: 'Salary band health',
  words: /\b(salary|pay) bands?\b|\bband health\b|\boutside (their|the) band\b/i,
  needs: 'the salary bands (grade, minimum, maximum) and current salaries with a grade',
  sample: ['sample-salary-bands.csv', 'Grade,Minimum,Midpoint,Maximum\nG1,28000,32000,36000\n'],
} as const;

export const salaryBandsCapability = defineCapability({
  task: TASK,
  tool: { ...salaryBandsTool, output: bandsResult },
  plan: () => [call('ti_salary_bands'), call('ti_pay', { by: ['level'] })],
  render: (r) => bandsSection(r),
});
