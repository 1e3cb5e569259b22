import type { ChartItem, ContentItem, FileItem } from '@contract/structured-response';
import { barChart, type ChartSpec, type Series } from '../tools/charts';
import { csvText, file, markdownTable } from '../tools/reports';

/**
 * The one section model of every module's report (issue 21 item 2). A capability's renderer turns
 * its tool's result into a Section; the report writer lays sections out (one: the report; several:
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

export const chartsOf = (s: Section): ChartItem[] =>
  s.content.filter((c): c is ChartItem => c.type === 'chart');
export const filesOf = (s: Section): FileItem[] =>
  s.content.filter((c): c is FileItem => c.type === 'file');
/** The section's markdown texts, in order. */
export const textsOf = (s: Section): string[] =>
  s.content.flatMap((c) => (c.type === 'text' ? [c.text] : []));

/** A table's column: its header and how a row gives its cell. */
export interface Column<Row> {
  header: string;
  /** The cell's value: the CSV file and the chart series carry it. */
  value: (row: Row) => string | number | null | undefined;
  /** The cell as the markdown table shows it (e.g. 12,500 for 12500.4); absent: the value. */
  shown?: (row: Row) => string | number | null | undefined;
}

/**
 * A table declared once (columns and rows) yields its markdown table, its CSV file and its chart
 * series, so the three never drift apart (headers, order, rounding).
 */
export interface Table {
  headers: string[];
  /** Cells as shown (strings and numbers), one array per row. */
  cells: Array<Array<string | number | null | undefined>>;
  /** The markdown table, or the line saying what is missing when there are no rows (ADR 0057). */
  markdown(missing?: string): string;
  /** The same table as a CSV file's text. */
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
    valueHeaders: string[],
    extra?: Partial<ChartSpec>,
  ): ChartItem;
}

export function table<Row>(columns: Array<Column<Row>>, rows: readonly Row[]): Table {
  const headers = columns.map((c) => c.header);
  const cells = rows.map((r) => columns.map((c) => c.value(r)));
  const shownCells = rows.map((r) => columns.map((c) => (c.shown ?? c.value)(r)));
  const index = (header: string) => {
    const i = headers.indexOf(header);
    if (i < 0) throw new Error(`No column ${header} in the table`);
    return i;
  };
  const t: Table = {
    headers,
    cells,
    markdown: (missing) => markdownTable(headers, shownCells, missing),
    csv: () => csvText(headers, cells),
    file: (name) => file(name, csvText(headers, cells)),
    series: (header, label = header) => {
      const i = index(header);
      return {
        label,
        data: cells.map((r) => (typeof r[i] === 'number' ? (r[i] as number) : Number(r[i]) || 0)),
      };
    },
    labels: (header) => {
      const i = index(header);
      return cells.map((r) => String(r[i] ?? ''));
    },
    bar: (title, labelHeader, valueHeaders, extra = {}) =>
      barChart(
        title,
        t.labels(labelHeader),
        valueHeaders.map((h) => t.series(h)),
        extra,
      ),
  };
  return t;
}
