import { z } from 'zod';
import { laidOut, section, table } from '../../../report/section';
import { plural } from '../../../report/words';
import type { ColumnInfo } from '../../../tables/types';
import { defineTool, ToolError } from '../../../tools/tool';
import { list } from '../../report-parts';
import { asOfOf, cellText, dateOf, daysBetween, readRegister, REGISTERS } from '../tools/registers';
import { defineGovernance } from './define';
import { columnsRead } from './columns';
import { tables } from './inputs';
import { withOutput } from './output';

/**
 * The register of directors' interests checked for what a company secretary chases: declarations
 * not re-confirmed in the last 12 months, declarations with no date, directors listed with no
 * declaration (not even a nil return) and the same interest declared twice. The whole analysis
 * (task, tool, plan, renderer) is this file and its entry in the list
 * (docs/decisions/0092-adding-an-analysis.md).
 */

const REVIEW_STATUS = {
  current: 'Reviewed in the last 12 months',
  overdue: 'Review overdue',
  undated: 'No date',
} as const;

const DeclarationSchema = z.object({
  /** The entry's line in the file as the user sees it (the header's line + 1 is the first entry). */
  row: z.number(),
  name: z.string(),
  role: z.string().nullable(),
  interest: z.string(),
  organisation: z.string().nullable(),
  /** "None", "Nil": a declaration that there is nothing to declare. */
  nil: z.boolean(),
  /** The last review (or confirmation) date, else the declaration date: ISO, or null. */
  lastReviewed: z.string().nullable(),
  status: z.enum(['current', 'overdue', 'undated']),
});
export type Declaration = z.infer<typeof DeclarationSchema>;

export const InterestsRegisterOutput = z.object({
  source: z.string(),
  asOf: z.string(),
  /** Distinct people on the register. */
  people: z.number(),
  declarations: z.array(DeclarationSchema),
  /** People listed with no interest recorded in any of their rows. */
  noDeclaration: z.array(
    z.object({ row: z.number(), name: z.string(), role: z.string().nullable() }),
  ),
  /** The same person declaring the same organisation (or interest) in several rows. */
  duplicates: z.array(
    z.object({ name: z.string(), organisation: z.string(), rows: z.array(z.number()) }),
  ),
  columns: z.record(z.string(), z.string().nullable()),
});
export type InterestsRegisterReview = z.infer<typeof InterestsRegisterOutput>;

const NIL = /^(none|nil|n\/a|no interests?( to declare)?|nothing to declare|nil return)\.?$/i;
/** "Acme Ltd" and "ACME LIMITED" are one organisation; "J. Smith" and "j smith" one person. */
const same = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .replace(/\b(ltd|limited|plc|llp|llc|inc|the)\b/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

export const interestsRegisterReview = withOutput(
  InterestsRegisterOutput,
  defineTool({
    name: 'interests_register_review',
    description:
      "Check an attached register of directors' interests (CSV/XLSX): declarations whose last review is over 12 months before the as-of date or undated, people listed with no declaration (not even a nil return), and the same interest declared twice.",
    input: z.object({}),
    async run(ctx): Promise<InterestsRegisterReview> {
      const reg = await readRegister(ctx, REGISTERS.interests);
      // Dates are the engine's date columns, so a "Declaration" text column is never a date.
      const pick = (date: boolean, re: RegExp, not?: RegExp): ColumnInfo | null =>
        reg.table.columns.find(
          (c) => (c.type === 'date') === date && re.test(c.name) && !not?.test(c.name),
        ) ?? null;
      const c = {
        name: pick(
          false,
          /name|director|member|trustee|governor|declarant|individual|person/i,
          /organi[sz]ation|company|body|entity|interest/i,
        ),
        role: pick(false, /role|position|title|capacity|office/i),
        interest: pick(
          false,
          /interest|nature|description|details|declaration/i,
          /organi[sz]ation|company|body|entity|review|confirm/i,
        ),
        organisation: pick(
          false,
          /organi[sz]ation|company|entity|body|counterparty|employer|business|firm/i,
        ),
        declared: pick(true, /declar|submitted|registered|notified|^date$/i, /review|confirm/i),
        reviewed: pick(true, /review|confirm|updat|attest|re-?declar|last/i),
      };
      if (!c.name || !c.interest)
        throw new ToolError(
          `${reg.table.source} has no ${c.name ? 'interest' : 'name'} column: a register of interests names each person and what they declare.`,
        );
      const asOf = asOfOf(reg.set);
      const declarations: Declaration[] = [];
      const listed = new Map<string, { row: number; name: string; role: string | null }>();
      // The line a user finds the entry on: the loader keeps the header's line, not each row's.
      const lineOf = (i: number) => reg.table.headerRow + 1 + i;
      reg.rows.forEach((r, i) => {
        const name = cellText(r, c.name);
        if (!name) return;
        const role = cellText(r, c.role);
        if (!listed.has(same(name))) listed.set(same(name), { row: lineOf(i), name, role });
        const interest = cellText(r, c.interest);
        if (!interest) return;
        const lastReviewed = dateOf(r, c.reviewed) ?? dateOf(r, c.declared);
        declarations.push({
          row: lineOf(i),
          name,
          role,
          interest,
          organisation: cellText(r, c.organisation),
          nil: NIL.test(interest),
          lastReviewed,
          status: !lastReviewed
            ? 'undated'
            : daysBetween(lastReviewed, asOf) > 365
              ? 'overdue'
              : 'current',
        });
      });
      const declared = new Set(declarations.map((d) => same(d.name)));
      const groups = new Map<string, Declaration[]>();
      for (const d of declarations.filter((x) => !x.nil)) {
        const key = `${same(d.name)}|${same(d.organisation ?? d.interest)}`;
        groups.set(key, [...(groups.get(key) ?? []), d]);
      }
      return {
        source: reg.table.source,
        asOf,
        people: listed.size,
        declarations,
        noDeclaration: [...listed].filter(([k]) => !declared.has(k)).map(([, p]) => p),
        duplicates: [...groups.values()]
          .filter((g) => g.length > 1)
          .map((g) => ({
            name: g[0]!.name,
            organisation: g[0]!.organisation ?? g[0]!.interest,
            rows: g.map((d) => d.row),
          })),
        columns: Object.fromEntries(Object.entries(c).map(([k, v]) => [k, v?.name ?? null])),
      };
    },
  }),
);

interface ToChase {
  row: number;
  name: string;
  role: string | null;
  interest: string | null;
  organisation: string | null;
  lastReviewed: string | null;
  issues: string[];
}

/** One line per register row with something to chase, in register order. */
function toChase(r: InterestsRegisterReview): ToChase[] {
  const dup = new Map(r.duplicates.flatMap((g) => g.rows.map((row) => [row, g.rows] as const)));
  return [
    ...r.declarations.map((d) => ({
      ...d,
      issues: [
        ...(d.status === 'overdue'
          ? [`last reviewed ${d.lastReviewed}, over 12 months before ${r.asOf}`]
          : d.status === 'undated'
            ? ['no declaration or review date']
            : []),
        ...(dup.has(d.row) ? [`declared twice (rows ${list(dup.get(d.row)!.map(String))})`] : []),
      ],
    })),
    ...r.noDeclaration.map((p) => ({
      ...p,
      interest: null,
      organisation: null,
      lastReviewed: null,
      issues: ['no declaration on the register, not even a nil return'],
    })),
  ]
    .filter((x) => x.issues.length)
    .sort((a, b) => a.row - b.row);
}

const names = (xs: Array<{ name: string }>) => list([...new Set(xs.map((x) => x.name))]);

export const interestsRegister = defineGovernance({
  task: {
    key: 'interests-register',
    title: 'Conflicts of interest register check',
    words:
      /\b(conflicts? of interests?|register of (directors'? )?interests|interests? register|declarations? of interests?|declared interests)\b/i,
    attach: 'table',
    needs: "the register of directors' interests",
    missingTitle: 'Conflicts of interest register check: register needed',
    sample: [
      'register-of-interests-template.csv',
      'Name,Role,Interest,Organisation,Date declared,Last reviewed\n',
    ],
  },
  tool: interestsRegisterReview,
  readsTables: true,
  plan: (ctx) => (tables(ctx).length ? [{ tool: interestsRegisterReview.name, input: {} }] : []),
  render: (r) => {
    const overdue = r.declarations.filter((d) => d.status === 'overdue');
    const undated = r.declarations.filter((d) => d.status === 'undated');
    const chase = table<ToChase>(
      [
        { header: 'Row', value: (x) => x.row },
        { header: 'Name', value: (x) => x.name },
        { header: 'Role', value: (x) => x.role ?? '' },
        { header: 'Interest', value: (x) => x.interest ?? '' },
        { header: 'Organisation', value: (x) => x.organisation ?? '' },
        { header: 'Last reviewed', value: (x) => x.lastReviewed ?? '' },
        { header: 'To chase', value: (x) => x.issues.join('; ') },
      ],
      toChase(r),
    );
    const byStatus = table(
      [
        { header: 'Review status', value: ([s]: [string, number]) => s },
        { header: 'Declarations', value: ([, n]: [string, number]) => n },
      ],
      Object.entries(REVIEW_STATUS).map(([k, label]): [string, number] => [
        label,
        r.declarations.filter((d) => d.status === k).length,
      ]),
    );
    return section('Conflicts of interest register check', {
      tool: interestsRegisterReview.name,
      answer: [
        `${overdue.length} of ${plural(r.declarations.length, 'declaration')} ${overdue.length === 1 ? 'was' : 'were'} last reviewed more than 12 months before ${r.asOf}, ${plural(undated.length, 'has', 'have')} no date, ${r.noDeclaration.length} of ${plural(r.people, 'person', 'people')} on the register ${r.noDeclaration.length === 1 ? 'has' : 'have'} no declaration${r.noDeclaration.length ? ` (${names(r.noDeclaration)})` : ''}, and ${plural(r.duplicates.length, 'interest is', 'interests are')} declared twice${r.duplicates.length ? ` (${r.duplicates.map((d) => `${d.name}: ${d.organisation}`).join('; ')})` : ''}.`,
      ],
      content: [
        ...laidOut([
          '### Entries to chase',
          '',
          chase.markdown('every declaration was reviewed in the last 12 months'),
          '',
          `Read from ${r.source} as of ${r.asOf}. A declaration's last review is its review or confirmation date, else the date it was declared; "None" or "Nil" counts as a declaration. Columns used: ${columnsRead(r.columns)}.`,
        ]),
        byStatus.bar('Declarations by review status', 'Review status', ['Declarations']),
        chase.file('interests-to-chase.csv'),
      ],
      nextSteps: [
        ...(overdue.length || undated.length
          ? [`Ask ${names([...overdue, ...undated])} to confirm or update their declarations`]
          : []),
        ...(r.noDeclaration.length
          ? [`Ask ${names(r.noDeclaration)} for a declaration, a nil return if nothing applies`]
          : []),
        ...(r.duplicates.length
          ? ['Merge the duplicate entries so each interest is listed once']
          : []),
        'Set a yearly date for every director to re-confirm their declarations',
      ],
    });
  },
});
