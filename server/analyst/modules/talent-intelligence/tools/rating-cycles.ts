import { bodyOf } from '../request';
import { grouped, plural } from '../../../report/words';
import { barChart } from '../../../tools/charts';
import { table, laidOut, section, type Section } from '../../../report/section';
import { defineCapability } from '../../../capability';
import { list } from '../../report-parts';
import { call } from '../render';
import { z } from 'zod';
import { cycleOrder, personKeyOf } from '../../../tables/shape';
import type { LoadedTable } from '../../../tables/types';
import { defineTool, ToolError } from '../../../tools/tool';
import { colOf, num, peopleTables, ratingOf, round1, round2 } from '../people';

export const RATING_CYCLES_DEFINITION =
  'Ratings across review cycles: the rating distribution of each cycle over the people rated in it ("not assessed" is missing, not a rating), and the movement of the people rated in both cycles (up, unchanged or down on the one ordered scale); each person counts once per cycle.';

export const ratingCyclesResult = z.object({
  definition: z.string(),
  source: z.string(),
  /** Every cycle in the file, oldest first. */
  cycles: z.array(z.string()),
  /** The two compared, older first. */
  compared: z.tuple([z.string(), z.string()]),
  /** The scale, lowest step first. */
  scale: z.array(z.string()),
  perCycle: z.array(
    z.object({
      cycle: z.string(),
      rated: z.number(),
      /** Cells with no rating ("not assessed" in any wording): missing, not a rating. */
      notRated: z.number(),
      /** Cells that hold a value the rating scale does not place: left out, and named. */
      offScale: z.number(),
      offScaleValues: z.array(z.string()),
      average: z.number().nullable(),
      distribution: z.array(
        z.object({ rating: z.string(), people: z.number(), share: z.number() }),
      ),
    }),
  ),
  movement: z.object({
    /** People rated in both cycles. */
    both: z.number(),
    up: z.number(),
    same: z.number(),
    down: z.number(),
    /** From the older cycle's rating (rows) to the newer's (columns): people. */
    matrix: z.array(z.object({ from: z.string(), to: z.record(z.string(), z.number()) })),
    /** People who moved two or more steps, the largest moves first (at most 20). */
    bigMoves: z.array(
      z.object({ id: z.string(), from: z.string(), to: z.string(), steps: z.number() }),
    ),
  }),
  /** People rated only in the older or only in the newer cycle. */
  onlyOlder: z.number(),
  onlyNewer: z.number(),
});
export type RatingCyclesResult = z.infer<typeof ratingCyclesResult>;

const cycleSql = (t: LoadedTable) =>
  `regexp_replace(CAST(${colOf(t, 'reviewCycle')!.sql} AS VARCHAR), '\\.0$', '')`;

/** The cycles a request names ("2025 and 2026", "FY24"), among the file's cycles. */
function namedCycles(asked: string[], cycles: string[]): string[] {
  const out: string[] = [];
  for (const a of asked) {
    const want = a.trim().toLowerCase();
    const hit =
      cycles.find((c) => c.toLowerCase() === want) ??
      cycles.find((c) => c.toLowerCase().includes(want));
    if (hit && !out.includes(hit)) out.push(hit);
  }
  return out;
}

export const ratingCyclesTool = defineTool({
  name: 'ti_rating_cycles',
  description: `${RATING_CYCLES_DEFINITION} Compares two review cycles of a ratings export with one row per person per cycle (by default the two latest; name others in \`cycles\`): distribution per cycle, average rating, and who moved up or down.`,
  input: z.object({
    cycles: z
      .array(z.string().min(1).max(50))
      .max(4)
      .optional()
      .describe(
        'Cycles to compare as the request names them ("2025", "2026"); default the two latest.',
      ),
  }),
  async run(ctx, input): Promise<RatingCyclesResult> {
    const set = await ctx.tables();
    const t = peopleTables(set).find(
      (x) => colOf(x, 'reviewCycle') && colOf(x, 'rating') && personKeyOf(x),
    );
    if (!t)
      throw new ToolError(
        'No ratings with a review cycle column among the attachments: attach a ratings export with one row per person per cycle (employee id, cycle, rating) to compare cycles.',
      );
    const key = personKeyOf(t)!;
    const cyc = cycleSql(t);
    const cycles = (
      await set.query(
        `SELECT DISTINCT ${cyc} AS c FROM ${t.sql} WHERE ${colOf(t, 'reviewCycle')!.sql} IS NOT NULL`,
      )
    )
      .map((r) => String(r.c))
      .sort((a, b) => {
        const order = t.shapeFacts.periods;
        return order.includes(a) && order.includes(b)
          ? order.indexOf(a) - order.indexOf(b)
          : cycleOrder(a, b);
      });
    if (cycles.length < 2)
      throw new ToolError(
        `${t.source} holds one review cycle${cycles[0] ? ` (${cycles[0]})` : ''}: attach the ratings of another cycle to compare them.`,
      );
    const named = namedCycles(input.cycles ?? [], cycles);
    const pair = (named.length >= 2 ? named.slice(-2) : cycles.slice(-2)).sort(
      (a, b) => cycles.indexOf(a) - cycles.indexOf(b),
    ) as [string, string];
    // One rating per person per cycle: the last row of a person in a cycle stands.
    const rated = `rated AS (SELECT * FROM (SELECT NULLIF(TRIM(CAST(${key.sql} AS VARCHAR)), '') AS id, ${cyc} AS cycle,
        ${ratingOf(t, 'label')} AS rating, ${ratingOf(t, 'rank')} AS rank,
        NULLIF(TRIM(CAST(${colOf(t, 'rating')!.sql} AS VARCHAR)), '') AS raw,
        row_number() OVER (PARTITION BY ${key.sql}, ${cyc} ORDER BY rowid DESC) AS rn
      FROM ${t.sql}) WHERE rn = 1 AND id IS NOT NULL AND cycle IN (${pair.map((c) => `'${c.replace(/'/g, "''")}'`).join(', ')}))`;
    const scaleRows = await set.query(
      `WITH ${rated} SELECT rating, min(rank) AS r FROM rated WHERE rating IS NOT NULL GROUP BY 1 ORDER BY 2, 1`,
    );
    const scale = t.ratingScale?.length
      ? t.ratingScale.map((s) => s.label)
      : scaleRows.map((r) => String(r.rating));
    const perCycle: RatingCyclesResult['perCycle'] = [];
    for (const cycle of pair) {
      const [tot] = await set.query(
        `WITH ${rated} SELECT count(rating)::INTEGER AS n, count(*) FILTER (WHERE raw IS NULL)::INTEGER AS missing,
           count(*) FILTER (WHERE raw IS NOT NULL AND rating IS NULL)::INTEGER AS off_scale,
           list(DISTINCT raw) FILTER (WHERE raw IS NOT NULL AND rating IS NULL) AS off_values,
           avg(rank) AS mean FROM rated WHERE cycle = ?`,
        [cycle],
      );
      const dist = await set.query(
        `WITH ${rated} SELECT rating, count(*)::INTEGER AS n FROM rated WHERE cycle = ? AND rating IS NOT NULL GROUP BY 1`,
        [cycle],
      );
      const n = num(tot?.n);
      perCycle.push({
        cycle,
        rated: n,
        notRated: num(tot?.missing),
        offScale: num(tot?.off_scale),
        offScaleValues: (Array.isArray(tot?.off_values) ? (tot.off_values as unknown[]) : [])
          .map(String)
          .sort()
          .slice(0, 5),
        average: n ? round2(num(tot?.mean)) : null,
        distribution: scale.map((rating) => {
          const people = num(dist.find((d) => String(d.rating) === rating)?.n);
          return { rating, people, share: n ? round1((people / n) * 100) : 0 };
        }),
      });
    }
    const moves = await set.query(
      `WITH ${rated}
       SELECT a.id, a.rating AS from_r, b.rating AS to_r, (b.rank - a.rank) AS steps
       FROM rated a JOIN rated b ON a.id = b.id AND a.cycle = ? AND b.cycle = ?
       WHERE a.rating IS NOT NULL AND b.rating IS NOT NULL
       ORDER BY abs(b.rank - a.rank) DESC, a.id`,
      [pair[0], pair[1]],
    );
    const [only] = await set.query(
      `WITH ${rated}, ids AS (SELECT id, bool_or(cycle = ? AND rating IS NOT NULL) AS o, bool_or(cycle = ? AND rating IS NOT NULL) AS n FROM rated GROUP BY id)
       SELECT count(*) FILTER (WHERE o AND NOT n)::INTEGER AS older, count(*) FILTER (WHERE n AND NOT o)::INTEGER AS newer FROM ids`,
      [pair[0], pair[1]],
    );
    const matrix = scale.map((from) => ({
      from,
      to: Object.fromEntries(
        scale.map((to) => [
          to,
          moves.filter((m) => String(m.from_r) === from && String(m.to_r) === to).length,
        ]),
      ),
    }));
    return {
      definition: RATING_CYCLES_DEFINITION,
      source: t.source,
      cycles,
      compared: pair,
      scale,
      perCycle,
      movement: {
        both: moves.length,
        up: moves.filter((m) => num(m.steps) > 0).length,
        same: moves.filter((m) => num(m.steps) === 0).length,
        down: moves.filter((m) => num(m.steps) < 0).length,
        matrix,
        bigMoves: moves
          .filter((m) => Math.abs(num(m.steps)) >= 2)
          .slice(0, 20)
          .map((m) => ({
            id: String(m.id),
            from: String(m.from_r),
            to: String(m.to_r),
            steps: num(m.steps),
          })),
      },
      onlyOlder: num(only?.older),
      onlyNewer: num(only?.newer),
    };
  },
});

// ---------------------------------------------------------------------------------------------
// The capability (ADR 0084): the task it answers, its plan and its report section.

/** Two review cycles side by side: each cycle's distribution and who moved (ADR 0049). */
function cyclesSection(r: RatingCyclesResult): Section {
  const answer: string[] = [];
  const lines: string[] = [];
  const [older, newer] = r.compared;
  const a = r.perCycle[0]!;
  const b = r.perCycle[1]!;
  const m = r.movement;
  answer.push(
    `Ratings in the **${older}** and **${newer}** review cycles: average **${a.average ?? 'n/a'}** → **${b.average ?? 'n/a'}** (${grouped(a.rated)} and ${grouped(b.rated)} people rated; ${r.scale.length} steps, ${r.scale[0]} lowest).`,
    `Of the ${plural(m.both, 'person', 'people')} rated in both cycles, **${m.up}** moved up, **${m.same}** kept their rating and **${m.down}** moved down${m.both ? ` (${round1((m.up / m.both) * 100)}% up, ${round1((m.down / m.both) * 100)}% down)` : ''}.`,
  );
  if (r.onlyOlder || r.onlyNewer)
    answer.push(
      `${plural(r.onlyOlder, 'person', 'people')} rated only in ${older} and ${plural(r.onlyNewer, 'person', 'people')} only in ${newer} (leavers, joiners or not assessed) are in the distributions, not in the movement.`,
    );
  if (r.cycles.length > 2)
    answer.push(
      `The file holds ${r.cycles.length} cycles (${r.cycles.join(', ')}); ${older} and ${newer} are compared.`,
    );
  const offScale = r.perCycle.filter((c) => c.offScale);
  if (offScale.length)
    answer.push(
      `**Left out, not on the rating scale:** ${list(offScale.map((c) => `${plural(c.offScale, 'rating')} in ${c.cycle} (${c.offScaleValues.map((v) => `"${v}"`).join(', ')})`))}; correct the reading of the rating column to place them.`,
    );
  const notRated = r.perCycle.filter((c) => c.notRated);
  if (notRated.length)
    answer.push(
      `Not assessed (missing, not a rating): ${list(notRated.map((c) => `${plural(c.notRated, 'person', 'people')} in ${c.cycle}`))}.`,
    );
  type Step = { rating: string; i: number };
  const distribution = table<Step>(
    [
      { header: 'Rating', value: (x) => x.rating },
      ...r.perCycle.map((c) => ({
        header: `${c.cycle}: people`,
        value: (x: Step) => c.distribution[x.i]!.people,
      })),
      ...r.perCycle.map((c) => ({
        header: `${c.cycle}: share`,
        value: (x: Step) => c.distribution[x.i]!.share,
        shown: (x: Step) => `${c.distribution[x.i]!.share}%`,
      })),
    ],
    r.scale.map((rating, i) => ({ rating, i })),
  );
  type Row = (typeof m.matrix)[number];
  const matrix = table<Row>(
    [
      { header: `${older} \\ ${newer}`, value: (row) => row.from },
      ...r.scale.map((s) => ({ header: s, value: (row: Row) => row.to[s] ?? 0 })),
    ],
    m.matrix,
  );
  lines.push(
    '### Rating distribution per cycle',
    '',
    distribution.markdown(),
    '',
    `### Movement from ${older} to ${newer} (people rated in both)`,
    '',
    matrix.markdown(),
    '',
  );
  if (m.bigMoves.length)
    lines.push(
      '### Moved two steps or more',
      '',
      table<(typeof m.bigMoves)[number]>(
        [
          { header: 'Employee', value: (x) => x.id },
          { header: older, value: (x) => x.from },
          { header: newer, value: (x) => x.to },
          { header: 'Steps', value: (x) => (x.steps > 0 ? `+${x.steps}` : x.steps) },
        ],
        m.bigMoves,
      ).markdown(),
      '',
    );
  return section(TASK.heading, {
    answer,
    content: laidOut(lines, [
      barChart(
        `Rating distribution: ${older} and ${newer}`,
        r.scale,
        r.perCycle.map((c) => distribution.series(`${c.cycle}: share`, c.cycle)),
        { xTitle: 'Rating', yTitle: '% of people rated' },
      ),
    ]),
    nextSteps: [
      'Prepare a calibration pack for this cycle',
      "Check this cycle's performance ratings for bias by gender, age band, location and part-time status",
    ],
  });
}

const TASK = {
  key: 'cycles',
  title: 'Ratings across review cycles',
  heading: 'Ratings across review cycles',
  words:
    /\b(compar\w*|chang\w*|mov\w*|shift\w*|differ\w*)\b[^.?!]*\b(review )?cycles\b|\bbetween (the )?(two )?(review )?cycles\b|\bcycle[- ]on[- ]cycle\b|\bratings?\b[^.?!]*\b(chang\w*|mov\w*)\b[^.?!]*\b(19|20)\d\d\b/i,
  needs:
    'the ratings of two review cycles: one row per person per cycle with employee id, review cycle and rating',
} as const;

export const ratingCyclesCapability = defineCapability({
  task: TASK,
  guide: 'two review cycles compared: distribution per cycle, who moved',
  tool: { ...ratingCyclesTool, output: ratingCyclesResult },
  plan: (_ctx, request) => {
    // "Compare the 2025 and 2026 cycles": the cycles named, else the two latest.
    const named = [
      ...bodyOf(request).matchAll(/\b(?:FY ?)?(?:19|20)\d{2}(?:[ -]?(?:H|Q)[1-4])?\b/gi),
    ].map((m) => m[0]);
    return [call('ti_rating_cycles', named.length ? { cycles: named.slice(0, 4) } : {})];
  },
  render: (r) => cyclesSection(r),
});
