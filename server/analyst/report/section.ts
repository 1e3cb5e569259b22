import type { ChartItem, ContentItem, FileItem } from '@contract/structured-response';
import { barChart, type ChartSpec, type Series } from '../tools/charts';
import { csvText, file, markdownTable, text } from '../tools/reports';

/**
 * The one section model of every module's report (ADR 0085). A capability's renderer turns its
 * tool's result into a Section; the report writer lays sections out (one: the report; several:
 * a numbered section each, ADR 0058). Nothing else in the analyst builds report parts.
 */
export interface Section {
  /** The tool whose result it shows (absent for a section made of several results). */
  tool?: string;
  /** Its name: the report's title when it is alone, its heading among several. */
  title: string;
  /**
   * The answer in lines: the first section's first line opens the report. Absent: the section
   * opens with its content (a document, a draft).
   */
  answer?: string[];
  /** The rest in reading order: markdown texts (tables, lists), charts and files. */
  content: ContentItem[];
  /** Next steps it suggests, best first. */
  nextSteps: string[];
  /** The definitions it used: listed once, at the end of the report. */
  definitions?: string[];
  /** The report's name when this section leads it alone, instead of its title and the source. */
  reportName?: string;
}

export const section = (title: string, parts: Partial<Omit<Section, 'title'>> = {}): Section => ({
  title,
  answer: [],
  content: [],
  nextSteps: [],
  ...parts,
});

/**
 * A section's content in the order every report lays it out (ADR 0085): its charts, its markdown
 * lines joined as one text (none when there are no lines), then its files.
 */
export const laidOut = (
  lines: readonly string[],
  charts: readonly ChartItem[] = [],
  files: readonly FileItem[] = [],
): ContentItem[] => [...charts, ...(lines.length ? [text(lines.join('\n'))] : []), ...files];

export const chartsOf = (s: Section): ChartItem[] =>
  s.content.filter((c): c is ChartItem => c.type === 'chart');
export const filesOf = (s: Section): FileItem[] =>
  s.content.filter((c): c is FileItem => c.type === 'file');
/** The section's markdown texts, in order. */
export const textsOf = (s: Section): string[] =>
  s.content.flatMap((c) => (c.type === 'text' ? [c.text] : []));

type Cell = string | number | boolean | null | undefined;

/** A table's column: its header and how a row gives its cell. */
export interface Column<Row> {
  header: string;
  /** The cell's value: the CSV file and the chart series carry it. */
  value: (row: Row) => Cell;
  /** The cell as the markdown table shows it (e.g. 12,500 for 12500.4); absent: the value. */
  shown?: (row: Row) => Cell;
  /**
   * A column only one form carries (ADR 0089): the markdown table (a reading aid such as a
   * chance in words) or the CSV file (an id, the raw figure a phrase stands for). Absent: both.
   */
  only?: 'markdown' | 'csv';
  /** Its cell in the markdown table's total row, shown last when any column has one (ADR 0089). */
  total?: Cell;
}

/** A chart series: a column's values, under the column's header or a label of its own. */
export type SeriesOf = string | { header: string; label: string };

/**
 * A table declared once (columns and rows) yields its markdown table, its CSV file and its chart
 * series, so the three never drift apart (headers, order, rounding).
 */
export interface Table<Row = unknown> {
  /** The CSV file's headers. */
  headers: string[];
  /** The CSV file's cells (the values), one array per row. */
  cells: Cell[][];
  /** The markdown table, or the line saying what is missing when there are no rows (ADR 0057). */
  markdown(missing?: string): string;
  /** The same table as a CSV file's text (no total row: a sum over the file would count it). */
  csv(): string;
  /** The same table as a CSV file (a report item). */
  file(name: string): FileItem;
  /** One column's values as numbers (nulls and non-numbers become 0), for a chart series. */
  series(header: string, label?: string): Series;
  /** One column's values as text, for a chart's labels. */
  labels(header: string): string[];
  /** A bar chart of the given value columns against the label column. */
  bar(
    title: string,
    labelHeader: string,
    values: SeriesOf[],
    extra?: Partial<ChartSpec>,
  ): ChartItem;
  /** The same columns over the rows kept (a chart of some rows, one group's part of a table). */
  where(keep: (row: Row, index: number) => boolean): Table<Row>;
}

export function table<Row>(columns: Array<Column<Row>>, rows: readonly Row[]): Table<Row> {
  const inCsv = columns.filter((c) => c.only !== 'markdown');
  const inMarkdown = columns.filter((c) => c.only !== 'csv');
  const headers = inCsv.map((c) => c.header);
  const cells = rows.map((r) => inCsv.map((c) => c.value(r)));
  const shownCells = rows.map((r) => inMarkdown.map((c) => (c.shown ?? c.value)(r)));
  const total = inMarkdown.some((c) => c.total !== undefined)
    ? [inMarkdown.map((c) => c.total)]
    : [];
  const column = (header: string) => {
    const c = columns.find((x) => x.header === header);
    if (!c) throw new Error(`No column ${header} in the table`);
    return c;
  };
  const t: Table<Row> = {
    headers,
    cells,
    markdown: (missing) =>
      markdownTable(
        inMarkdown.map((c) => c.header),
        rows.length ? [...shownCells, ...total] : [],
        missing,
      ),
    csv: () => csvText(headers, cells),
    file: (name) => file(name, csvText(headers, cells)),
    series: (header, label = header) => {
      const c = column(header);
      return {
        label,
        data: rows.map((r) => {
          const v = c.value(r);
          return typeof v === 'number' ? v : Number(v) || 0;
        }),
      };
    },
    labels: (header) => {
      const c = column(header);
      return rows.map((r) => String(c.value(r) ?? ''));
    },
    bar: (title, labelHeader, values, extra = {}) =>
      barChart(
        title,
        t.labels(labelHeader),
        values.map((v) => (typeof v === 'string' ? t.series(v) : t.series(v.header, v.label))),
        extra,
      ),
    where: (keep) => table(columns, rows.filter(keep)),
  };
  return t;
}
