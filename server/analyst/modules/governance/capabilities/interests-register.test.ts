import Papa from 'papaparse';
import { afterAll, describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { StructuredResponse, type ChartItem } from '@contract/structured-response';
import { csvOf, markdownOf, tableOf } from '../../../../../test-support/analyst/report';
import {
  attachment,
  fileOf,
  runTurn,
  userMessage,
} from '../../../../../test-support/analyst/turns';
import { builtinAgent } from '../../../providers/builtin';
import { toolNamed } from '../../../tools/registry';
import { closeToolPool } from '../../../tools/runner';
import { defineTool } from '../../../tools/tool';
import type { HistoryAttachment } from '../../../types';
import { governanceAgent } from '../governance';
import { defineGovernance } from './define';
import {
  interestsRegister,
  interestsRegisterReview,
  InterestsRegisterOutput,
} from './interests-register';
import { withOutput } from './output';

/**
 * The conflicts of interest register check, added as one capability file and one list entry
 * (docs/decisions/0092-adding-an-analysis.md): run as the product runs it (a builtin turn, the
 * worker pool, the table engine) on a board portal's export, with the figures worked out here
 * from the file itself.
 */

afterAll(() => closeToolPool());

/**
 * A register as a board portal exports it: a title and export line above the header, its own
 * column names, day-first dates, blank dates, a director with no declaration, a nil return, and
 * two interests entered twice (one with the company's name spelt differently).
 */
const EXPORT = `Register of Interests - Northwind Holdings plc
Exported from BoardPortal on 15/11/2026
Board Member,Position,Nature of Interest,Company / Body,Date Declared,Date Last Confirmed
Sarah Okafor,Chair,Non-executive director,Harbour Housing Trust,14/03/2023,21/02/2026
Sarah Okafor,Chair,Shareholding (2%),Okafor Consulting Ltd,14/03/2023,21/02/2026
James Whitfield,Chief Executive,Trustee,Riverside Academy Trust,02/09/2022,19/10/2024
James Whitfield,Chief Executive,Trustee,Riverside Academy Trust,02/09/2022,
Priya Raman,Chief Financial Officer,None,,28/01/2025,28/01/2025
Daniel Mercer,Non-executive Director,Partner,Mercer & Lowe LLP,,
Daniel Mercer,Non-executive Director,Spouse employed,Globex Logistics Limited,17/06/2021,30/06/2024
Helen Brooks,Non-executive Director,,,,
Tom Adeyemi,Company Secretary,Director,ADEYEMI PROPERTIES LTD,05/05/2025,
Tom Adeyemi,Company Secretary,Director,Adeyemi Properties Limited,20/11/2025,
`;
const register = (): HistoryAttachment => attachment('board-portal-interests.csv', EXPORT);

// The figures, from the file as a company secretary reads it.
const dmy = (d: string | undefined) =>
  d ? `${d.slice(6, 10)}-${d.slice(3, 5)}-${d.slice(0, 2)}` : null;
const AS_OF = dmy(/on (\d\d\/\d\d\/\d{4})/.exec(EXPORT)![1])!;
const LINES = EXPORT.split('\n');
/** The header's line in the file (two lines of title above it); an entry's row is its own line. */
const HEADER_LINE = LINES.findIndex((l) => l.startsWith('Board Member')) + 1;
const rows = Papa.parse<Record<string, string>>(LINES.slice(HEADER_LINE - 1).join('\n'), {
  header: true,
  skipEmptyLines: true,
}).data.map((r, i) => ({
  row: HEADER_LINE + 1 + i,
  name: r['Board Member']!,
  interest: r['Nature of Interest']!,
  last: dmy(r['Date Last Confirmed']) ?? dmy(r['Date Declared']),
}));
const declarations = rows.filter((r) => r.interest);
const days = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 86_400_000;
const overdue = declarations.filter((r) => r.last && days(r.last, AS_OF) > 365);
const current = declarations.filter((r) => r.last && days(r.last, AS_OF) <= 365);
const undated = declarations.filter((r) => !r.last);
const people = [...new Set(rows.map((r) => r.name))];
const noDeclaration = people.filter((p) => !declarations.some((r) => r.name === p));
// Entered twice, as read in the file: the Riverside trusteeship, and Adeyemi Properties.
const TWICE = [6, 7, 12, 13];

const callsOf = (thinking: string[]) =>
  thinking.flatMap((line) => /^Running (\w+)/.exec(line)?.[1] ?? []);

async function ask(message: string, files: HistoryAttachment[] = [register()]) {
  const turn = await runTurn(builtinAgent(), 'governance', [userMessage(message, files)]);
  return { report: StructuredResponse.parse(turn.report), calls: callsOf(turn.thinking) };
}

describe('conflicts of interest register check', () => {
  it('lists what to chase in a board portal export, with a table, a CSV file and a chart', async () => {
    const { report, calls } = await ask(
      'Which directors have not refreshed their declarations of interest this year?',
    );
    expect(calls).toContain(interestsRegisterReview.name);
    expect(report.task_name).toBe('Conflicts of interest register check');
    expect(AS_OF).toBe('2026-11-15');
    expect([overdue.length, undated.length, current.length]).toEqual([5, 1, 3]);

    const answer = markdownOf(report).split('\n')[0]!;
    expect(answer).toContain(
      `${overdue.length} of ${declarations.length} declarations were last reviewed more than 12 months before ${AS_OF}`,
    );
    expect(answer).toContain(`${noDeclaration.length} of ${people.length} people`);
    expect(answer).toContain('(Helen Brooks)');

    // Every row to chase, and no other: overdue, undated, no declaration, or entered twice.
    const expected = rows
      .filter(
        (r) =>
          overdue.includes(r) ||
          undated.includes(r) ||
          noDeclaration.includes(r.name) ||
          TWICE.includes(r.row),
      )
      .map((r) => r.row);
    const shown = tableOf(report, 'Entries to chase');
    expect(shown.map((r) => Number(r.Row))).toEqual(expected);
    for (const r of overdue) {
      const line = shown.find((s) => Number(s.Row) === r.row)!;
      expect(line['Last reviewed']).toBe(r.last);
      expect(line['To chase']).toContain('over 12 months');
    }
    expect(shown.find((s) => s.Name === 'Helen Brooks')!['To chase']).toMatch(/no declaration/);
    expect(shown.find((s) => s.Row === '9')!['To chase']).toBe('no declaration or review date');
    // Row N is line N of the file as the user opens it: the entry's own line.
    for (const s of shown) expect(LINES[Number(s.Row) - 1]!.startsWith(`${s.Name},`)).toBe(true);
    for (const row of TWICE)
      expect(shown.find((s) => Number(s.Row) === row)!['To chase']).toMatch(/declared twice/);
    // Sarah Okafor confirmed both of hers in February: nothing to chase.
    expect(shown.some((s) => s.Name === 'Sarah Okafor')).toBe(false);

    // The file to chase from is the same table.
    expect(csvOf(report, 'interests-to-chase.csv')).toEqual(shown);

    const chart = report.content.find(
      (c): c is ChartItem => c.type === 'chart' && c.title === 'Declarations by review status',
    )!;
    const data = chart.config.data as { labels: string[]; datasets: Array<{ data: number[] }> };
    expect(data.labels).toEqual(['Reviewed in the last 12 months', 'Review overdue', 'No date']);
    expect(data.datasets[0]!.data).toEqual([current.length, overdue.length, undated.length]);

    const steps = report.next_steps.map((s) => s.step_description);
    expect(steps[0]).toBe(
      'Ask James Whitfield, Priya Raman, Daniel Mercer and Tom Adeyemi to confirm or update their declarations',
    );
    expect(steps).toContain('Ask Helen Brooks for a declaration, a nil return if nothing applies');
  });

  it('is what the builtin answers to the usual ways of asking, and not to a gifts register', async () => {
    for (const request of [
      'Check our register of interests',
      'Help me with: review the conflicts of interest register and tell me who to chase',
      'Are any declared interests out of date?',
    ])
      expect((await ask(request)).calls, request).toContain(interestsRegisterReview.name);
    const gifts = await ask('Review our gifts and hospitality register');
    expect(gifts.calls).not.toContain(interestsRegisterReview.name);
  });

  it('asks for the register with a template when none is attached, and reads the template filled in', async () => {
    const { report, calls } = await ask('Check the conflicts of interest register', []);
    expect(calls).not.toContain(interestsRegisterReview.name);
    expect(report.task_name).toBe('Conflicts of interest register check: register needed');
    const template = fileOf(report.content, 'register-of-interests-template.csv')!;
    expect(template.file_data.trim()).toBe(
      'Name,Role,Interest,Organisation,Date declared,Last reviewed',
    );

    const filled = `${template.file_data.trim()}\nAnna Lind,Director,None,,2026-01-10,\nBen Ito,Director,,,,\n`;
    const again = await ask('Check the conflicts of interest register', [
      attachment('register-2026-11-30.csv', filled),
    ]);
    expect(tableOf(again.report, 'Entries to chase')).toEqual([
      {
        Row: '3',
        Name: 'Ben Ito',
        Role: 'Director',
        Interest: '',
        Organisation: '',
        'Last reviewed': '',
        'To chase': 'no declaration on the register, not even a nil return',
      },
    ]);
  });

  it('is offered to every model and to the worker without anyone typing its name', () => {
    expect(governanceAgent.instructions).toContain(interestsRegisterReview.name);
    expect(governanceAgent.analystTools.map((t) => t.name)).toContain(interestsRegisterReview.name);
    expect(toolNamed(interestsRegisterReview.name)).toBe(interestsRegisterReview);
  });

  it('ties the renderer and the tool to the output schema (checked by tsc)', () => {
    type Result = z.infer<typeof InterestsRegisterOutput>;
    expectTypeOf<Parameters<typeof interestsRegister.render>[0]>().toEqualTypeOf<Result>();
    expectTypeOf(interestsRegisterReview.run).returns.resolves.toEqualTypeOf<Result>();

    // A renderer reading a field the schema does not have does not compile.
    defineGovernance({
      ...interestsRegister,
      // @ts-expect-error: `reviewers` is not in the output schema
      render: (r) => ({ title: r.reviewers, content: [], nextSteps: [] }),
    });
    // A tool whose result lacks a field of its schema does not compile either.
    withOutput(
      InterestsRegisterOutput,
      // @ts-expect-error: the result has no `duplicates`
      defineTool({
        name: 'drifted',
        description: '',
        input: z.object({}),
        run: async () => ({
          source: '',
          asOf: '',
          people: 0,
          declarations: [],
          noDeclaration: [],
          columns: {},
        }),
      }),
    );
  });
});
