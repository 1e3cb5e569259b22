import { plural } from '../../../report/words';
import { barChart } from '../../../tools/charts';
import { file, markdownTable, text } from '../../../tools/reports';
import { list } from '../../report-parts';
import { supplierRiskReview, type SupplierReview } from '../tools/supplier-review';
import { defineGovernance } from './define';
import { tables } from './inputs';
import type { Section } from '../../../report/section';

function supplierReport(s: SupplierReview): Section {
  const high = s.suppliers.filter((x) => x.overall === 'High');
  const counts = ['High', 'Medium', 'Low', 'Unknown'].map(
    (r) => s.suppliers.filter((x) => x.overall === r).length,
  );
  return {
    title: 'Third-party supplier risk review',
    content: [
      text(
        `${plural(high.length, 'supplier')} of ${s.suppliers.length} ${high.length === 1 ? 'is' : 'are'} high risk on at least one dimension${high.length ? ` (${list(high.slice(0, 5).map((x) => x.supplier))})` : ''}, and ${plural(s.refresh.length, 'contract')} ${s.refresh.length === 1 ? 'needs' : 'need'} a due diligence refresh as of ${s.asOf}.`,
      ),
      text(
        [
          '### Rating per supplier (High = more risk)',
          '',
          markdownTable(
            [
              'Supplier',
              'Data access',
              'Concentration',
              'Financial health',
              'Exit plan',
              'Overall',
              'Share of spend',
            ],
            s.suppliers.map((x) => [
              x.supplier,
              x.dataAccess,
              x.concentration,
              x.financialHealth,
              x.exitPlan,
              x.overall,
              x.spendShare === null ? '—' : `${x.spendShare}%`,
            ]),
          ),
          '',
          '### Contracts that need a due diligence refresh',
          '',
          s.refresh.length
            ? markdownTable(
                ['Supplier', 'Why'],
                s.refresh.map((x) => [x.supplier, x.dueDiligence]),
              )
            : 'None.',
          '',
          `Columns used: ${Object.entries(s.columns)
            .filter(([, v]) => v)
            .map(([k, v]) => `${k} = "${v}"`)
            .join(', ')}. "Unknown" means the list has no usable value for it.`,
        ].join('\n'),
      ),
      barChart(
        'Suppliers by overall risk',
        ['High', 'Medium', 'Low', 'Unknown'],
        [{ label: 'Suppliers', data: counts }],
      ),
      file(
        'supplier-due-diligence-refresh.csv',
        `Supplier,Overall risk,Reason\n${s.refresh.map((x) => `"${x.supplier.replace(/"/g, '""')}",${x.overall},"${(x.dueDiligence ?? '').replace(/"/g, '""')}"`).join('\n')}\n`,
      ),
    ],
    nextSteps: [],
  };
}

/** Third-party suppliers rated on data access, concentration, financial health and exit plans. */
export const supplierReview = defineGovernance({
  task: {
    key: 'supplier-review',
    title: 'Third-party supplier risk review',
    words: /\b(suppliers?|vendors?|third[- ]party risk|outsourc\w*)\b/i,
    attach: 'table',
    needs: 'the supplier list',
    missingTitle: 'Supplier risk review: supplier list needed',
    sample: [
      'supplier-list-template.csv',
      'Supplier,Data access,Annual spend,Sole supplier,Financial health,Exit plan,Last due diligence,Contract end\n',
    ],
  },
  tool: supplierRiskReview,
  readsTables: true,
  plan: (ctx) => (tables(ctx).length ? [{ tool: supplierRiskReview.name, input: {} }] : []),
  render: supplierReport,
});
