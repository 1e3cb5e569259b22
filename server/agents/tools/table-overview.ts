import type { ContentItem } from '@contract/structured-response';
import { barChart } from './charts';
import { markdownTable, text } from './reports';
import { groupBy, round, sum } from './stats';
import { asNumber, asText, profileTable, type Table } from './tables';

/**
 * A generic look at any table (campaign results, survey answers, mention counts): the column
 * profile and, when there is a category and a measure, the measure's total per category.
 */
export function tableOverview(table: Table): ContentItem[] {
  const profiles = profileTable(table);
  const items: ContentItem[] = [
    text(
      `### Data: ${table.source}\n\n${table.rows.length} rows, ${table.columns.length} columns.\n\n${markdownTable(
        ['Column', 'Kind', 'Filled', 'Distinct', 'Summary'],
        profiles.map((p) => [
          p.name,
          p.kind,
          p.filled,
          p.distinct,
          p.numbers
            ? `total ${round(p.numbers.mean * p.numbers.count, 2)}, median ${round(p.numbers.median, 2)}`
            : p.dates
              ? `${p.dates.first} to ${p.dates.last}`
              : (p.top ?? [])
                  .slice(0, 3)
                  .map(([v, n]) => `${v} (${n})`)
                  .join(', '),
        ]),
      )}`,
    ),
  ];
  const category = profiles.find((p) => p.kind === 'text' && p.distinct > 1 && p.distinct <= 30);
  const measures = profiles.filter((p) => p.kind === 'number').slice(0, 3);
  if (category && measures.length) {
    const ci = table.columns.indexOf(category.name);
    const groups = [...groupBy(table.rows, (r) => asText(r[ci] ?? null))];
    const series = measures.map((m) => {
      const mi = table.columns.indexOf(m.name);
      return {
        label: m.name,
        data: groups.map(([, rows]) =>
          round(sum(rows.map((r) => asNumber(r[mi] ?? null) ?? 0)), 2),
        ),
      };
    });
    items.push(
      barChart(
        `${measures.map((m) => m.name).join(', ')} by ${category.name}`,
        groups.map(([g]) => g),
        series,
      ),
    );
  }
  return items;
}
