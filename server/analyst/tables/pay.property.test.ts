import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadTables } from './load';
import { convertPay, payColumnsSql, WEEKS_PER_YEAR, type PayInput } from './pay';

/** Pay conversions (ADR 0046): laws of the TypeScript formulas, and the SQL held to them. */

const amount = fc.double({ min: 1, max: 500_000, noNaN: true });
const hours = fc.double({ min: 4, max: 48, noNaN: true });
const fullTime = fc.constantFrom(35, 37.5, 38, 40);
const close = (a: number, b: number) =>
  expect(Math.abs(a - b)).toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(b)));

/** convertPay of an amount for the person's own hours, or (`alreadyFte`) already full-time equivalent. */
const convert = (
  amount: number,
  basis: PayInput['basis'],
  weeklyHours: number,
  fullTimeHours: number,
  alreadyFte = false,
) => convertPay({ amount, basis, weeklyHours, fullTimeHours, alreadyFte });

describe('convertPay', () => {
  it('leaves a full-timer’s annual pay as it is, and gives it per hour over full-time hours × 52.14', () => {
    fc.assert(
      fc.property(amount, fullTime, (a, ft) => {
        const r = convert(a, 'annual', ft, ft);
        close(r.annualFte, a);
        close(r.hourly, a / (ft * WEEKS_PER_YEAR));
      }),
    );
  });

  it('keeps an hourly rate as the hourly pay and scales it to full time for the annual FTE', () => {
    fc.assert(
      fc.property(amount, hours, fullTime, (a, h, ft) => {
        const r = convert(a, 'hourly', h, ft);
        close(r.hourly, a);
        close(r.annualFte, a * ft * WEEKS_PER_YEAR);
      }),
    );
  });

  it('gives a part-timer the UK hourly pay (annual ÷ (hours × 52.14)) and an FTE that scales back to their pay', () => {
    fc.assert(
      fc.property(amount, hours, fullTime, (a, h, ft) => {
        const r = convert(a, 'annual', h, ft);
        close(r.hourly, a / (h * WEEKS_PER_YEAR));
        close((r.annualFte * h) / ft, a);
      }),
    );
  });

  it('reads twelve monthly amounts as one annual amount, and an FTE amount without scaling', () => {
    fc.assert(
      fc.property(amount, hours, fullTime, (a, h, ft) => {
        const m = convert(a / 12, 'monthly', h, ft);
        const y = convert(a, 'annual', h, ft);
        close(m.annualFte, y.annualFte);
        close(m.hourly, y.hourly);
        const fte = convert(a, 'annual', h, ft, true);
        close(fte.annualFte, a);
      }),
    );
  });
});

describe('payColumnsSql', () => {
  it('computes in SQL what convertPay computes, row by row', async () => {
    const row = fc.record({
      basis: fc.constantFrom<PayInput['basis']>('hourly', 'annual', 'monthly', 'weekly'),
      amount: fc.integer({ min: 10, max: 200_000 }),
      hours: fc.constantFrom(16, 20, 24.5, 30, 37.5),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(row, { minLength: 3, maxLength: 12 }), async (rows) => {
        const csv = [
          'Employee ID,Pay Frequency,Base Pay,Weekly Hours',
          'E0,Annual,50000,37.5',
          ...rows.map((r, i) => `E${i + 1},${r.basis},${r.amount},${r.hours}`),
        ].join('\n');
        const set = await loadTables([
          { fileName: 'pay.csv', mimeType: 'text/csv', data: Buffer.from(csv) },
        ]);
        try {
          const t = set.tables[0]!;
          const sql = payColumnsSql(t, t.pay);
          const out = await set.query(
            `SELECT ${sql.annualFte} AS fte, ${sql.hourly} AS hourly FROM ${t.sql} ORDER BY rowid`,
          );
          const ft = t.pay!.fullTimeHours;
          [{ basis: 'annual' as const, amount: 50000, hours: 37.5 }, ...rows].forEach((r, i) => {
            const want = convert(r.amount, r.basis, r.hours, ft);
            close(Number(out[i]!.fte), want.annualFte);
            close(Number(out[i]!.hourly), want.hourly);
          });
        } finally {
          set.close();
        }
      }),
      { numRuns: 5 },
    );
  }, 240_000);
});
