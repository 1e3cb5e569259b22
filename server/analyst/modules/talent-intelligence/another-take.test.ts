import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { builtinAgent } from '../../providers/builtin';
import { fixture, runTurn, userMessage } from '../../../../test-support/analyst/turns';

/**
 * Regenerate with the builtin gives another angle on the same data (ADR 0064): the second take
 * breaks attrition down by another column the file holds, and says so; the overall figure, from
 * the same rows, is the same.
 */
describe('regenerate breaks the data down another way', () => {
  it('"whats our attrition by department": the second take is by location, stated, the rate unchanged', async () => {
    const history = [userMessage('whats our attrition by department', [fixture('workforce.csv')])];
    const signal = new AbortController().signal;
    const first = await runTurn(builtinAgent(), 'talent-intelligence', history, signal);
    const second = await runTurn(builtinAgent(), 'talent-intelligence', history, signal, 1);
    const rows = readFileSync('test-support/fixtures/workforce.csv', 'utf8').trim().split('\n');
    const column = (name: string) => {
      const i = rows[0]!.split(',').indexOf(name);
      return new Set(rows.slice(1).map((r) => r.split(',')[i]!));
    };
    const labels = (r: typeof first, title: string) => {
      const chart = r.report.content.find((c) => c.type === 'chart' && c.title === title);
      return new Set(
        (chart as { config: { data: { labels: string[] } } } | undefined)?.config.data.labels,
      );
    };
    // The first take: by department; the second: by location, every location of the file.
    expect(labels(first, 'Attrition by department')).toEqual(column('Department'));
    expect(labels(second, 'Attrition by department').size).toBe(0);
    expect(labels(second, 'Attrition by location')).toEqual(column('Location'));
    const text = (r: typeof first) =>
      r.report.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('\n');
    expect(text(second)).toContain(
      '**Another take (version 2):** This take breaks attrition down by location instead of department.',
    );
    expect(text(second)).toMatch(/^- Highest attrition by location: \*\*/m);
    // The same data: the overall rate, its first line, does not change.
    const firstLine = (r: typeof first) => text(r).split('\n')[0];
    expect(firstLine(second)).toBe(firstLine(first));
    expect(firstLine(first)).toMatch(/^Attrition over the 12 months to .*: \*\*\d+(\.\d)?%\*\*/);
  }, 120_000);
});
