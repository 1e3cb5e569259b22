import { plural } from '../../../report/words';
import { makeChart } from '../../../tools/charts';
import { escapeHtml, file, htmlPage } from '../../../tools/reports';
import { riskRegisterReview, type RiskRegisterReview } from '../tools/risk-register-review';
import { columnsRead } from './columns';
import { defineGovernance } from './define';
import { tables } from './inputs';
import { laidOut, section, table, type Section } from '../../../report/section';

const truncateWords = (s: string, n: number) => {
  const w = s.split(/\s+/);
  return w.length > n ? `${w.slice(0, n).join(' ')}…` : s;
};

function heatMapHtml(title: string, heat: number[][]): string {
  const colour = (l: number, i: number) => {
    const s = l * i;
    return s >= 15 ? '#fecaca' : s >= 8 ? '#fde68a' : '#bbf7d0';
  };
  const rows = [5, 4, 3, 2, 1]
    .map(
      (i) =>
        `<tr><th>Impact ${i}</th>${[1, 2, 3, 4, 5].map((l) => `<td style="background:${colour(l, i)};text-align:center">${heat[i - 1]![l - 1] || ''}</td>`).join('')}</tr>`,
    )
    .join('\n');
  return htmlPage(
    title,
    `<h1>${escapeHtml(title)}</h1>\n<p>Number of risks in each cell. Score = likelihood × impact: red 15 and above, amber 8–14, green below 8.</p>\n<table>\n<thead><tr><th></th>${[1, 2, 3, 4, 5].map((l) => `<th>Likelihood ${l}</th>`).join('')}</tr></thead>\n<tbody>\n${rows}\n</tbody>\n</table>`,
  );
}

function riskReviewReport(r: RiskRegisterReview): Section {
  const gaps = new Set([...r.noOwner, ...r.noDueDate, ...r.noMitigation]);
  // Impact down the rows (5 first), likelihood across: the counts of risks in each cell.
  const heatTable = table<number>(
    [
      { header: 'Impact ↓ / Likelihood →', value: (i) => `${i}` },
      ...[1, 2, 3, 4, 5].map((l) => ({
        header: `${l}`,
        value: (i: number) => r.heatMap[i - 1]![l - 1] || '',
      })),
    ],
    [5, 4, 3, 2, 1],
  );
  const high = r.risks.filter((x) => (x.score ?? 0) >= 15).length;
  const driftLine =
    r.drift.basis === null
      ? "Score drift cannot be computed: the register has no previous score or previous likelihood and impact columns (add last quarter's scores to see drift)."
      : `Score drift against ${r.drift.basis}: ${r.drift.up.length} risk${r.drift.up.length === 1 ? '' : 's'} worsened, ${r.drift.down.length} improved, ${r.drift.compared - r.drift.up.length - r.drift.down.length} unchanged.`;
  const withGaps = table<RiskRegisterReview['risks'][number]>(
    [
      { header: 'ID', value: (x) => x.id },
      { header: 'Risk', value: (x) => x.risk },
      { header: 'Owner', value: (x) => x.owner ?? '—' },
      { header: 'Due / review', value: (x) => x.due ?? '—' },
      {
        header: 'Mitigation',
        value: (x) => (x.mitigation ? truncateWords(x.mitigation, 8) : '—'),
      },
      { header: 'Gaps', value: (x) => x.issues.join('; ') },
    ],
    r.risks.filter((x) => x.issues.length),
  );
  const drift = table<RiskRegisterReview['drift']['up'][number]>(
    [
      { header: 'ID', value: (x) => x.id },
      { header: 'Risk', value: (x) => x.risk },
      { header: 'Previous score', value: (x) => x.previousScore },
      { header: 'Score now', value: (x) => x.score },
      { header: 'Change', value: (x) => (x.drift! > 0 ? `+${x.drift}` : x.drift) },
    ],
    [...r.drift.up, ...r.drift.down],
  );
  const lines = [
    '### Risks with gaps',
    '',
    withGaps.markdown(),
    '',
    '### Score drift since last quarter',
    '',
    r.drift.basis === null ? driftLine : drift.markdown(),
    '',
    '### Heat map: likelihood against impact (number of risks)',
    '',
    heatTable.markdown(),
    ...(r.unscored.length
      ? [
          '',
          `Not on the map (likelihood or impact missing or unreadable): ${r.unscored.join('; ')}.`,
        ]
      : []),
    ...(r.unreadable.length
      ? [
          '',
          `⚠️ ${r.unreadable.map((u) => `${u.cells} cell${u.cells === 1 ? '' : 's'} of "${u.column}"`).join(' and ')} could not be read as a score (a word such as "High" among numbers): those risks are left off the map and the drift rather than guessed. Use one scale per column.`,
        ]
      : []),
    '',
    `Columns used: ${columnsRead(r.columns)}.`,
  ];
  return section(`Risk register health check: ${r.source}`, {
    answer: [
      `Of ${plural(r.total, 'risk')} in ${r.source}, ${gaps.size} ${gaps.size === 1 ? 'has' : 'have'} a gap: ${r.noOwner.length} without an owner, ${r.noDueDate.length} without a due or review date, ${r.noMitigation.length} without a mitigation${r.overdueReview.length ? `; ${r.overdueReview.length} past their review date (as of ${r.asOf})` : ''}. ${high} ${high === 1 ? 'risk scores' : 'risks score'} 15 or more. ${driftLine}`,
    ],
    content: [
      ...laidOut(lines),
      makeChart({
        title: 'Risks by likelihood and impact',
        kind: 'bar',
        labels: ['Likelihood 1', 'Likelihood 2', 'Likelihood 3', 'Likelihood 4', 'Likelihood 5'],
        series: [5, 4, 3, 2, 1].map((i) => ({
          label: `Impact ${i}`,
          data: [0, 1, 2, 3, 4].map((l) => r.heatMap[i - 1]![l]!),
        })),
        yTitle: 'Risks',
      }),
      file('risk-heat-map.html', heatMapHtml(`Risk heat map: ${r.source}`, r.heatMap)),
    ],
    nextSteps: ['Draft reminder notes to the owners of risks past their review date'],
  });
}

/** A risk register's health: gaps, score drift and the heat map. */
export const riskReview = defineGovernance({
  task: {
    key: 'risk-review',
    title: 'Risk register health check',
    words: /\b(risk register|risk log|heat ?map|risks? without (an )?owner)\b/i,
    attach: 'table',
    needs: 'the risk register',
    missingTitle: 'Risk register health check: register needed',
    sample: [
      'risk-register-template.csv',
      'Risk ID,Risk,Owner,Likelihood,Impact,Previous score,Mitigation,Review date\n',
    ],
  },
  tool: riskRegisterReview,
  readsTables: true,
  // Reviewing a register needs the register: without one the report says so.
  plan: (ctx) => (tables(ctx).length ? [{ tool: riskRegisterReview.name, input: {} }] : []),
  render: riskReviewReport,
});
