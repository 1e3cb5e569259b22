import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { ask, fileOfBytes, starter, user } from '../../../../../test-support/analyst/ask';
import { tableOf } from '../../../../../test-support/analyst/report';
import { workforceCsv } from '../../../../../test-support/fixtures/starters';
import {
  AS_OF,
  isVoluntary,
  monthsBefore,
  workforce,
} from '../../../../../test-support/fixtures/workforce';
import { closeToolPool } from '../../../tools/runner';

afterAll(() => closeToolPool());

/** The monthly attrition table of the Attrition hotspots starter, as the reader sees it. */
async function monthlyOf(fileName: string, data: string | Buffer) {
  const { report } = await ask([
    user(starter('Attrition hotspots'), [fileOfBytes(fileName, data)]),
  ]);
  return tableOf(report, 'Monthly attrition');
}

describe('monthly attrition', () => {
  it('counts voluntary leavers per month when the file gives exit reasons', async () => {
    const people = workforce();
    const rows = await monthlyOf('hr-export.csv', workforceCsv(people));
    const from = monthsBefore(AS_OF, 12);
    const voluntary = people.filter(
      (p) =>
        p.exit !== null &&
        p.exit > from &&
        p.exit <= AS_OF &&
        (isVoluntary(p.exitReason) || p.exitReason === 'Resignation'),
    );
    expect(rows.reduce((sum, r) => sum + Number(r.Voluntary), 0)).toBe(voluntary.length);
  });

  it('has no voluntary column when the file does not say which exits were voluntary', async () => {
    // An export with hire and exit dates but no exit reason or type.
    const csv = readFileSync(
      new URL('../../../../../test-support/fixtures/workforce.csv', import.meta.url),
    );
    const rows = await monthlyOf('workforce.csv', csv);
    expect(rows).toHaveLength(12);
    expect(Object.keys(rows[0]!)).toEqual(['Month', 'Leavers', 'Rate']);
  });
});
