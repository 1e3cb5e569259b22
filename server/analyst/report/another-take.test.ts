import { describe, expect, it } from 'vitest';
import { builtinAgent } from '../providers/builtin';
import { fixture, runTurn, userMessage } from '../../../test-support/analyst/turns';

/** Regenerate with the builtin: another angle on the same data, never the same bytes (ADR 0059, 0064). */
describe('regenerate gives another take', () => {
  it('the same question with one earlier version breaks the data down another way, draws it another way and says so', async () => {
    const history = [
      userMessage('headcount by department and site pls', [fixture('workforce.csv')]),
    ];
    const signal = new AbortController().signal;
    const first = await runTurn(builtinAgent(), 'talent-intelligence', history, signal);
    const second = await runTurn(builtinAgent(), 'talent-intelligence', history, signal, 1);
    const third = await runTurn(builtinAgent(), 'talent-intelligence', history, signal, 2);
    expect(second.final.text).not.toBe(first.final.text);
    expect(third.final.text).not.toBe(second.final.text);
    const charts = (r: typeof first) =>
      r.report.content.flatMap((c) => (c.type === 'chart' ? [c] : []));
    // Another breakdown of the same file (ADR 0064): headcount led by another column.
    expect(charts(first).map((c) => c.title)).toEqual(['Headcount by department']);
    expect(charts(second).map((c) => c.title)).toEqual(['Headcount by grade']);
    const note = second.report.content.find(
      (c) => c.type === 'text' && c.text.startsWith('**Another take (version 2):**'),
    );
    expect(note).toBeDefined();
    expect((note as { text: string }).text).toMatch(
      /^\*\*Another take \(version 2\):\*\* This take breaks headcount down by grade instead of department\. .*draws the bar charts horizontally/,
    );
    const bar = charts(second).find((c) => (c.config as { type: string }).type === 'bar')!;
    expect((bar.config as { options: { indexAxis?: string } }).options.indexAxis).toBe('y');
    // The answer still comes first, its total from the same rows.
    const lead = (r: typeof first) => (r.report.content[0] as { text: string }).text.split('\n')[0];
    expect(lead(second)).toBe(lead(first));
  }, 120_000);
});
