import { JSONParser } from '@streamparser/json';
import { jsonrepair } from 'jsonrepair';
import { ChartItem, FileItem } from '@contract/structured-response';
import { reportStart } from './report-text';

export { looksLikeReport, reportStart } from './report-text';

/**
 * A report read while its JSON is still arriving (or after it stopped half-way): a streaming
 * JSON parser (@streamparser/json) is fed only the new text of each update and reports the
 * string being written, so the card shows the task name and text parts as they grow, and a
 * chart or file once its object is closed. Raw JSON never reaches the screen.
 */

export type PartialItem =
  | { type: 'text'; text: string; done: boolean }
  | { type: 'chart'; title: string; done: boolean; chart: ChartItem | null }
  | { type: 'file'; filename: string; done: boolean; file: FileItem | null }
  | { type: 'other'; done: boolean };

export interface PartialReport {
  taskName: string;
  content: PartialItem[];
  nextSteps: string[];
  /** The whole object arrived. */
  done: boolean;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const isObject = (v: unknown): v is JsonObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown) => (typeof v === 'string' ? v : '');

function viewOf(root: JsonObject | null, contentClosed: boolean, done: boolean): PartialReport {
  const items = Array.isArray(root?.content) ? root.content : [];
  const content = items.map((raw, i): PartialItem => {
    const itemDone = done || contentClosed || i < items.length - 1;
    if (typeof raw === 'string') return { type: 'text', text: raw, done: itemDone };
    if (!isObject(raw)) return { type: 'other', done: itemDone };
    switch (raw.type) {
      case 'text':
        return { type: 'text', text: str(raw.text), done: itemDone };
      case 'chart': {
        const parsed = itemDone ? ChartItem.safeParse(raw) : null;
        return {
          type: 'chart',
          title: str(raw.title),
          done: itemDone,
          chart: parsed?.success ? parsed.data : null,
        };
      }
      case 'file': {
        const parsed = itemDone ? FileItem.safeParse(raw) : null;
        return {
          type: 'file',
          filename: str(raw.filename),
          done: itemDone,
          file: parsed?.success ? parsed.data : null,
        };
      }
      default:
        return { type: 'other', done: itemDone };
    }
  });
  const steps = Array.isArray(root?.next_steps) ? root.next_steps : [];
  return {
    taskName: str(root?.task_name),
    content,
    nextSteps: steps
      .map((s) => (typeof s === 'string' ? s : isObject(s) ? str(s.step_description) : ''))
      .filter((s) => s.trim()),
    done,
  };
}

/** Reads one reply's growing text; feed it the whole text each time (it parses only what is new). */
export class PartialReportReader {
  private fed = '';
  private parser: JSONParser | null = null;
  private root: JsonObject | null = null;
  private contentClosed = false;
  private done = false;
  private failed = false;

  read(whole: string): PartialReport | null {
    // An escape cut in half (`\`, `\u00`) makes the parser report its string as empty: it waits
    // for the rest, and a stopped reply shows up to the escape.
    const text = whole.slice(0, whole.length - unfinishedEscapeLength(whole));
    if (!text.startsWith(this.fed) || !this.parser) this.reset();
    const start = reportStart(text);
    if (start < 0) return null;
    const fresh = this.fed ? text.slice(this.fed.length) : text.slice(start);
    this.fed = text;
    if (fresh && !this.failed && !this.done) {
      try {
        this.parser!.write(fresh);
      } catch {
        this.failed = true;
      }
    }
    if (this.failed) return repaired(text.slice(start));
    return viewOf(this.root, this.contentClosed, this.done);
  }

  private reset() {
    this.fed = '';
    this.root = null;
    this.contentClosed = false;
    this.done = false;
    this.failed = false;
    const parser = new JSONParser({ emitPartialTokens: true, emitPartialValues: true });
    parser.onValue = ({ value, key, parent, stack, partial }) => {
      const root = (stack.length > 1 ? stack[1]!.value : parent) as Json | undefined;
      if (isObject(root)) this.root = root;
      if (stack.length === 0 && !partial) {
        if (isObject(value)) this.root = value;
        this.done = true;
        return;
      }
      // The string being written is not in its object yet: put it there, so the view shows it
      // (the parser sets the whole string in the same place when it closes).
      if (partial && typeof value === 'string' && isObject(parent) && typeof key === 'string')
        parent[key] = value;
      if (!partial && key === 'content' && parent === this.root) this.contentClosed = true;
    };
    parser.onError = () => {
      this.failed = true;
    };
    this.parser = parser;
  }
}

/** Length of an escape sequence the text ends in the middle of (`\`, `\u`, `\u20`), else 0. */
export function unfinishedEscapeLength(text: string): number {
  const m = /(\\+)(u[0-9a-fA-F]{0,3})?$/.exec(text);
  // An even run of backslashes is escaped backslashes: complete.
  if (!m || m[1]!.length % 2 === 0) return 0;
  return 1 + (m[2]?.length ?? 0);
}

/** The fallback for JSON the streaming parser refused (a model's almost-JSON): repaired whole. */
function repaired(json: string): PartialReport | null {
  try {
    const value = JSON.parse(jsonrepair(json.replace(/```\s*$/, ''))) as unknown;
    return isObject(value) ? viewOf(value, false, false) : null;
  } catch {
    return null;
  }
}

/** The partial report in a finished text (a stopped or cut reply), or null when it is prose. */
export function partialReportOf(text: string): PartialReport | null {
  return new PartialReportReader().read(text);
}
