import { barChart } from '../../../tools/charts';
import { file, markdownTable, text } from '../../../tools/reports';
import { list } from '../../report-parts';
import { retentionReview, type RetentionReview } from '../tools/retention';
import { defineGovernance } from './define';
import { documents, tables } from './inputs';
import type { Section } from '../../../report/section';
import { quotedCsv } from './csv';

function retentionReport(r: RetentionReview): Section {
  const flagged = r.records.filter((x) => x.issues.length);
  return {
    title: 'Data retention policy review',
    content: [
      text(
        `${r.complete} of ${r.records.length} record types have a retention period, a legal basis and a deletion method. ${r.missingPeriod} lack a period, ${r.missingBasis} a legal basis and ${r.missingDeletion} a deletion method; ${r.tooLong} ${r.tooLong === 1 ? 'period looks' : 'periods look'} longer than needed.`,
      ),
      text(
        [
          `### Every record type (${list(r.sources)})`,
          '',
          markdownTable(
            [
              'Record type',
              'Retention period',
              'Legal basis',
              'Deletion method',
              'Issues',
              'Source',
            ],
            r.records.map((x) => [
              x.recordType,
              x.period ?? '—',
              x.legalBasis ?? '—',
              x.deletionMethod ?? '—',
              x.issues.join('; ') || '✅ none',
              x.source,
            ]),
          ),
          '',
          'Periods are compared with usual UK guidance (ICO, CIPD, HMRC, the Limitation Act) for the record type; a longer period is fine when a law or a live claim needs it, so say which.',
        ].join('\n'),
      ),
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
      file(
        'retention-schedule-gaps.csv',
        quotedCsv(
          'Record type,Retention period,Legal basis,Deletion method,Issues',
          flagged.map((x) => [
            x.recordType,
            x.period ?? '',
            x.legalBasis ?? '',
            x.deletionMethod ?? '',
            x.issues.join('; '),
          ]),
        ),
      ),
    ],
    nextSteps: [],
  };
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
