import { describe, expect, it } from 'vitest';
import { assistant, ask, fileOfBytes, textOf, user } from '../../../../test-support/analyst/ask';
import {
  DIMENSION_HEADERS,
  dimensionsExport,
  type DimensionRow,
} from '../../../../test-support/fixtures/hr-dimensions';
import { monthsBefore } from '../../../../test-support/fixtures/workforce';
import { headingsOf, rowOf, tableOf } from '../../../../test-support/analyst/report';

/**
 * A dimension the user names is used when a column holds it; when several columns could hold
 * it, the plain one is used, said, and the other offered as a next step that works (ADR 0047).
 * Expected figures are computed here from the generated rows.
 */

const AS_OF = '2026-10-31';
const FILE = `hr-export_${AS_OF}.csv`;
const round1 = (v: number) => Math.round(v * 10) / 10;
const employedOn = (r: DimensionRow, d: string) => r.hire <= d && (r.exit === null || r.exit > d);
const POINTS = Array.from({ length: 12 }, (_, k) => monthsBefore(AS_OF, k));
const FROM = monthsBefore(AS_OF, 12);

/** The attrition table row of a group, as the report gives it (no exit type in the file). */
function rateRow(rows: DimensionRow[], inGroup: (r: DimensionRow) => boolean) {
  const avg =
    POINTS.reduce((s, d) => s + rows.filter((r) => inGroup(r) && employedOn(r, d)).length, 0) / 12;
  const leavers = rows.filter(
    (r) => inGroup(r) && r.exit !== null && r.exit > FROM && r.exit <= AS_OF,
  ).length;
  const rate = round1((leavers / avg) * 100);
  return {
    'Average headcount': `${round1(avg)}`,
    Leavers: `${leavers}`,
    'Attrition rate': avg < 5 ? `${rate}% (small group: read with care)` : `${rate}%`,
  };
}

const countries = (rows: DimensionRow[]) => [
  ...new Set(rows.flatMap((r) => (r.country ? [r.country] : []))),
];

describe('"by country" uses the Country column, in every language', () => {
  for (const lang of Object.keys(DIMENSION_HEADERS)) {
    it(`${lang}: attrition by country breaks down by ${DIMENSION_HEADERS[lang]![4]}, not by site`, async () => {
      const { rows, csv } = dimensionsExport(31, 260, lang, AS_OF);
      const { report } = await ask([
        user('What is our attrition by country?', [fileOfBytes(FILE, csv)]),
      ]);
      const table = tableOf(report, 'Attrition by country');
      for (const c of countries(rows))
        expect(rowOf(table, c)).toMatchObject(rateRow(rows, (r) => r.country === c));
      expect(rowOf(table, 'Not stated')).toMatchObject(rateRow(rows, (r) => r.country === null));
      // Not by site: no site is a group of the answer.
      expect(headingsOf(report)).not.toContain('Attrition by location');
      expect(textOf(report.content)).not.toMatch(/\| Munich \|/);
    });
  }

  it('headcount by country counts the people employed on the as-of date per country', async () => {
    const { rows, csv } = dimensionsExport(32, 300, 'de', AS_OF);
    const { report } = await ask([user('Show headcount by country', [fileOfBytes(FILE, csv)])]);
    const text = textOf(report.content);
    const current = rows.filter((r) => employedOn(r, AS_OF));
    expect(text).toContain(`**${current.length}** people employed on ${AS_OF}`);
    const table = tableOf(report, 'Headcount by country');
    for (const c of countries(rows)) {
      const n = current.filter((r) => r.country === c).length;
      expect(rowOf(table, c)).toMatchObject({
        Headcount: `${n}`,
        Share: `${round1((n / current.length) * 100)}%`,
      });
    }
  });

  it('headcount by site and by department still use the site and the department', async () => {
    const { rows, csv } = dimensionsExport(33, 200, 'fr', AS_OF);
    const { report } = await ask([
      user('Show headcount by site and department', [fileOfBytes(FILE, csv)]),
    ]);
    const text = textOf(report.content);
    const current = rows.filter((r) => employedOn(r, AS_OF));
    const munich = current.filter((r) => r.site === 'Munich').length;
    expect(text).toContain(`| Munich | ${munich} |`);
    const sales = current.filter((r) => r.department === 'Sales').length;
    expect(text).toContain(`| Sales | ${sales} |`);
  });

  it('a file without a country column asks for it with the card, and does not pass the site off as the country', async () => {
    const { rows, csv } = dimensionsExport(34, 200, 'en', AS_OF);
    const noCountry = csv
      .split('\n')
      .map((line) =>
        line
          .split(',')
          .filter((_, i) => i !== 4)
          .join(','),
      )
      .join('\n');
    // The organisation's labels hold no comma: dropping the fifth field drops the country.
    expect(rows.every((r) => !r.organization.includes(','))).toBe(true);
    const { report } = await ask([
      user('Show headcount by country', [fileOfBytes(FILE, noCountry)]),
    ]);
    const text = textOf(report.content);
    expect(text).toContain('To answer this I need to know which column holds the country.');
    const card = report.content.find((c) => c.type === 'reading');
    expect(card?.type === 'reading' && card.needs).toEqual(['country']);
    // Every column of the file is offered in the card, the site among them.
    const headers = noCountry.split('\n')[0]!.split(',');
    expect(card?.type === 'reading' && card.readings[0]!.columns.map((c) => c.name)).toEqual(
      headers,
    );
    expect(text).not.toContain('| Munich |');
  });
});

describe('several columns could hold the department', () => {
  const { rows, csv } = dimensionsExport(41, 320, 'en', AS_OF);

  it('uses Department, says so, and offers Supervisory Organization as a next step that breaks down by it', async () => {
    const first = await ask([
      user('What is our attrition by department?', [fileOfBytes(FILE, csv)]),
    ]);
    const text = textOf(first.report.content);
    const byDepartment = tableOf(first.report, 'Attrition by department');
    for (const d of ['Manufacturing', 'Sales', 'Finance'])
      expect(rowOf(byDepartment, d)).toMatchObject(rateRow(rows, (r) => r.department === d));
    expect(text).toContain(
      'By department: the **Department** column is used; **Supervisory Organization** could hold it too.',
    );
    expect(text).not.toContain('(Daan Müller)');
    const steps = first.report.next_steps.map((s) => s.step_description);
    expect(steps).toContain('Show attrition by Supervisory Organization instead');

    const next = await ask([
      user('What is our attrition by department?', [fileOfBytes(FILE, csv)]),
      assistant(first.report),
      user('Show attrition by Supervisory Organization instead'),
    ]);
    expect(headingsOf(next.report)).not.toContain('Attrition by department');
    const byOrg = tableOf(next.report, 'Attrition by Supervisory Organization');
    for (const org of [...new Set(rows.map((r) => r.organization))])
      expect(rowOf(byOrg, org)).toMatchObject(rateRow(rows, (r) => r.organization === org));
  });

  it('German headers: Abteilung is used and Organisationseinheit offered', async () => {
    const { csv: de } = dimensionsExport(42, 200, 'de', AS_OF);
    const { report } = await ask([user('Show headcount by department', [fileOfBytes(FILE, de)])]);
    expect(textOf(report.content)).toContain(
      'By department: the **Abteilung** column is used; **Organisationseinheit** could hold it too.',
    );
    expect(report.next_steps.map((s) => s.step_description)).toContain(
      'Show headcount by Organisationseinheit instead',
    );
  });
});
