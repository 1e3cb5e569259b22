import { _updateBezierControlPoints } from 'chart.js/helpers';
import { describe, expect, it } from 'vitest';
import { barChart, lineChart } from './charts';

type Dataset = { data: number[]; tension: number; cubicInterpolationMode?: string };
type Point = { x: number; y: number; skip: boolean; cp1y?: number; cp2y?: number };

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
// A monthly attrition rate as a small team has it: months with no leaver between months with one.
const RATES = [0, 1.8, 0, 1.8, 1.9, 0, 0, 1.9, 1.9, 2, 0, 2];

describe('report charts', () => {
  it('draws a line that stays between the values of the two months it joins', () => {
    const chart = lineChart('Monthly attrition rate', MONTHS, [{ label: 'Rate', data: RATES }]);
    const dataset = (chart.config.data as { datasets: Dataset[] }).datasets[0]!;
    // Chart.js's own curve: each segment is a Bézier curve, which stays within its control points.
    const points: Point[] = dataset.data.map((y, i) => ({ x: i * 100, y, skip: false }));
    const area = { left: -1e6, right: 1e6, top: -1e6, bottom: 1e6 };
    _updateBezierControlPoints(
      points as never,
      {
        tension: dataset.tension,
        cubicInterpolationMode: dataset.cubicInterpolationMode ?? 'default',
        capBezierPoints: true,
      },
      area as never,
      false,
      'x',
    );
    for (let i = 0; i + 1 < points.length; i++) {
      const [a, b] = [points[i]!, points[i + 1]!];
      const [low, high] = [Math.min(a.y, b.y), Math.max(a.y, b.y)];
      for (const cp of [a.cp2y!, b.cp1y!]) {
        expect(cp, `${MONTHS[i]} to ${MONTHS[i + 1]}`).toBeGreaterThanOrEqual(low - 1e-9);
        expect(cp, `${MONTHS[i]} to ${MONTHS[i + 1]}`).toBeLessThanOrEqual(high + 1e-9);
      }
    }
  });

  it('steps a count axis in whole numbers, and a rate axis freely', () => {
    const valueTicks = (chart: ReturnType<typeof barChart>) =>
      (chart.config.options as { scales: { y: { ticks?: { precision?: number } } } }).scales.y
        .ticks;
    const counts = barChart(
      'Declarations by review status',
      ['Current', 'Overdue', 'No date'],
      [{ label: 'Declarations', data: [3, 5, 1] }],
    );
    expect(valueTicks(counts)).toEqual({ precision: 0 });
    const rates = barChart(
      'Attrition by manager',
      ['E0007', 'E0014'],
      [{ label: 'Attrition rate', data: [20, 5.7] }],
    );
    expect(valueTicks(rates)).toBeUndefined();
  });
});
