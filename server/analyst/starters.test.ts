import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ModuleKey } from '@contract/modules';
import { StructuredResponse } from '@contract/structured-response';
import { builtinAgent } from './providers/builtin';
import { runTurn, userMessage } from '../../test-support/analyst/turns';

/** Every seeded starter template, sent the way the client sends it, gets a useful, valid report. */
const starters = JSON.parse(
  readFileSync(new URL('../seed/starters.json', import.meta.url), 'utf8'),
) as Array<{
  module: string;
  name: string;
  description: string;
}>;

describe('builtin answers to every seeded starter template', () => {
  it('has templates for every module', () => {
    for (const m of ModuleKey.options)
      expect(starters.filter((s) => s.module === m).length).toBeGreaterThan(0);
  });

  // Governance and Brand Hub starters are tested with realistic files, promise by promise, in
  // modules/governance/governance.test.ts and modules/brand-hub/brand-hub.test.ts.
  for (const starter of starters.filter((s) => s.module === 'talent-intelligence')) {
    it(`${starter.module}: ${starter.name}`, async () => {
      const module = ModuleKey.parse(starter.module);
      const turn = await runTurn(builtinAgent(), module, [
        userMessage(`Help me with: ${starter.description}`),
      ]);
      const report = StructuredResponse.parse(turn.report);
      expect(report.task_name.trim()).not.toBe('');
      // Useful: explains what to do, hands over a deliverable (file or chart), and suggests follow-ups.
      expect(report.content.some((c) => c.type === 'text' && c.text.length > 80)).toBe(true);
      expect(report.content.some((c) => c.type === 'file' || c.type === 'chart')).toBe(true);
      expect(report.next_steps.length).toBeGreaterThan(0);
      expect(JSON.parse(turn.final.text)).toEqual(report);
    });
  }
});
