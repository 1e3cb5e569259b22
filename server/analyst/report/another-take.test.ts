import { describe, expect, it } from 'vitest';
import { builtinAgent } from '../providers/builtin';
import { fixture, runTurn, userMessage } from '../../../test-support/analyst/turns';

/** Regenerate with the builtin: another angle on the same figures, never the same bytes (ADR 0059). */
describe('regenerate gives another take', () => {
  it('the same question with one earlier version leads with another chart and says so', async () => {
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
    // The same figures: the same charts with the same data, in another order and orientation.
    expect(
      charts(second)
        .map((c) => c.title)
        .sort(),
    ).toEqual(
      charts(first)
        .map((c) => c.title)
        .sort(),
    );
    const data = (r: typeof first) =>
      Object.fromEntries(
        charts(r).map((c) => [c.title, JSON.stringify((c.config as { data: unknown }).data)]),
      );
    expect(data(second)).toEqual(data(first));
    const note = second.report.content.find(
      (c) => c.type === 'text' && c.text.startsWith('**Another take (version 2):**'),
    );
    expect(note).toBeDefined();
    expect((note as { text: string }).text).toMatch(/draws the bar charts horizontally/);
    const bar = charts(second).find((c) => (c.config as { type: string }).type === 'bar')!;
    expect((bar.config as { options: { indexAxis?: string } }).options.indexAxis).toBe('y');
    // The answer still comes first.
    expect(second.report.content[0]).toEqual(first.report.content[0]);
  }, 120_000);
});
