import { barChart } from '../../../tools/charts';
import { list } from '../../report-parts';
import { retentionReview, type RetentionReview } from '../tools/retention';
import { defineGovernance } from './define';
import { documents, tables } from './inputs';
import { laidOut, section, table, type Section } from '../../../report/section';
import { quotedFile } from './csv';

function retentionReport(r: RetentionReview): Section {
  // One declaration: the report's table of every record type, the file of those with a gap.
  const records = table<RetentionReview['records'][number]>(
    [
      { header: 'Record type', value: (x) => x.recordType },
      { header: 'Retention period', value: (x) => x.period ?? '', shown: (x) => x.period ?? '—' },
      {
        header: 'Legal basis',
        value: (x) => x.legalBasis ?? '',
        shown: (x) => x.legalBasis ?? '—',
      },
      {
        header: 'Deletion method',
        value: (x) => x.deletionMethod ?? '',
        shown: (x) => x.deletionMethod ?? '—',
      },
      {
        header: 'Issues',
        value: (x) => x.issues.join('; '),
        shown: (x) => x.issues.join('; ') || '✅ none',
      },
      { header: 'Source', value: (x) => x.source, only: 'markdown' },
    ],
    r.records,
  );
  const lines = [
    `### Every record type (${list(r.sources)})`,
    '',
    records.markdown(),
    '',
    'Periods are compared with usual UK guidance (ICO, CIPD, HMRC, the Limitation Act) for the record type; a longer period is fine when a law or a live claim needs it, so say which.',
  ];
  return section('Data retention policy review', {
    answer: [
      `${r.complete} of ${r.records.length} record types have a retention period, a legal basis and a deletion method. ${r.missingPeriod} lack a period, ${r.missingBasis} a legal basis and ${r.missingDeletion} a deletion method; ${r.tooLong} ${r.tooLong === 1 ? 'period looks' : 'periods look'} longer than needed.`,
    ],
    content: [
      ...laidOut(lines),
      barChart(
        'Record types with each gap',
        ['No period', 'No legal basis', 'No deletion method', 'Longer than needed'],
        [
          {
            label: 'Record types',
            data: [r.missingPeriod, r.missingBasis, r.missingDeletion, r.tooLong],
          },
        ],
      ),
      quotedFile(
        'retention-schedule-gaps.csv',
        records.where((x) => x.issues.length > 0),
      ),
    ],
  });
}

/** A retention policy or schedule: each record type's period, legal basis and deletion method. */
export const retention = defineGovernance({
  task: {
    key: 'retention',
    title: 'Data retention policy review',
    words: /\bretention\b/i,
    attach: 'document',
    needs: 'the retention policy or schedule',
    missingTitle: 'Data retention review: policy needed',
    sample: [
      'retention-schedule-template.csv',
      'Record type,Retention period,Legal basis,Deletion method\n',
    ],
  },
  tool: retentionReview,
  readsTables: true,
  plan: (ctx) =>
    documents(ctx).length || tables(ctx).length ? [{ tool: retentionReview.name, input: {} }] : [],
  render: retentionReport,
});
