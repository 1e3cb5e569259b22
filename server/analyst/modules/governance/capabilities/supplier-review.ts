import { plural } from '../../../report/words';
import { barChart } from '../../../tools/charts';
import { file } from '../../../tools/reports';
import { list } from '../../report-parts';
import { supplierRiskReview, type SupplierReview } from '../tools/supplier-review';
import { columnsRead } from './columns';
import { defineGovernance } from './define';
import { tables } from './inputs';
import { laidOut, section, table, type Section } from '../../../report/section';

function supplierReport(s: SupplierReview): Section {
  const high = s.suppliers.filter((x) => x.overall === 'High');
  const counts = ['High', 'Medium', 'Low', 'Unknown'].map(
    (r) => s.suppliers.filter((x) => x.overall === r).length,
  );
  const ratings = table<SupplierReview['suppliers'][number]>(
    [
      { header: 'Supplier', value: (x) => x.supplier },
      { header: 'Data access', value: (x) => x.dataAccess },
      { header: 'Concentration', value: (x) => x.concentration },
      { header: 'Financial health', value: (x) => x.financialHealth },
      { header: 'Exit plan', value: (x) => x.exitPlan },
      { header: 'Overall', value: (x) => x.overall },
      {
        header: 'Share of spend',
        value: (x) => x.spendShare,
        shown: (x) => (x.spendShare === null ? '—' : `${x.spendShare}%`),
      },
    ],
    s.suppliers,
  );
  const refresh = table<SupplierReview['refresh'][number]>(
    [
      { header: 'Supplier', value: (x) => x.supplier },
      { header: 'Why', value: (x) => x.dueDiligence },
    ],
    s.refresh,
  );
  const lines = [
    '### Rating per supplier (High = more risk)',
    '',
    ratings.markdown(),
    '',
    '### Contracts that need a due diligence refresh',
    '',
    s.refresh.length ? refresh.markdown() : 'None.',
    '',
    `Columns used: ${columnsRead(s.columns)}. "Unknown" means the list has no usable value for it.`,
  ];
  return section('Third-party supplier risk review', {
    answer: [
      `${plural(high.length, 'supplier')} of ${s.suppliers.length} ${high.length === 1 ? 'is' : 'are'} high risk on at least one dimension${high.length ? ` (${list(high.slice(0, 5).map((x) => x.supplier))})` : ''}, and ${plural(s.refresh.length, 'contract')} ${s.refresh.length === 1 ? 'needs' : 'need'} a due diligence refresh as of ${s.asOf}.`,
    ],
    content: [
      ...laidOut(lines),
      barChart(
        'Suppliers by overall risk',
        ['High', 'Medium', 'Low', 'Unknown'],
        [{ label: 'Suppliers', data: counts }],
      ),
      // Its own quoting (the supplier and reason quoted, the rating not): the file stays the same.
      file(
        'supplier-due-diligence-refresh.csv',
        `Supplier,Overall risk,Reason\n${s.refresh.map((x) => `"${x.supplier.replace(/"/g, '""')}",${x.overall},"${(x.dueDiligence ?? '').replace(/"/g, '""')}"`).join('\n')}\n`,
      ),
    ],
  });
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
