import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ModuleKey } from '@contract/modules';
import type { ChartItem, ContentItem, FileItem } from '@contract/structured-response';
import type {
  Agent,
  AgentEvent,
  HistoryAttachment,
  HistoryMessage,
} from '../../server/analyst/types';
import type { TurnLibrary } from '../../server/analyst/tools/knowledge';

/** Shared by the agent tests: fixture files and a turn runner that collects the events. */

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures');

const MIME: Record<string, string> = {
  csv: 'text/csv',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  txt: 'text/plain',
  json: 'application/json',
};

export function fixture(name: string): HistoryAttachment {
  return attachment(name, readFileSync(path.join(fixtures, name)));
}

/** A document from fixtures/documents, attached under its own file name. */
export function documentFixture(name: string): HistoryAttachment {
  return attachment(name, readFileSync(path.join(fixtures, 'documents', name)));
}

export function attachment(name: string, data: Buffer | string): HistoryAttachment {
  const ext = name.split('.').pop() ?? '';
  return {
    fileName: name,
    mimeType: MIME[ext] ?? 'application/octet-stream',
    data: Buffer.isBuffer(data) ? data : Buffer.from(data),
  };
}

export function userMessage(text: string, attachments: HistoryAttachment[] = []): HistoryMessage {
  return { role: 'user', text, attachments };
}

export async function runTurn(
  agent: Agent,
  module: ModuleKey,
  history: HistoryMessage[],
  signal = new AbortController().signal,
  take = 0,
  library?: TurnLibrary,
) {
  const events: AgentEvent[] = [];
  for await (const e of agent.run({
    chatId: '00000000-0000-4000-8000-000000000000',
    module,
    model: 'test',
    history,
    signal,
    ...(take ? { take } : {}),
    ...(library ? { library } : {}),
  }))
    events.push(e);
  const final = events.at(-1);
  if (!final || final.type !== 'final') throw new Error('the turn did not end with a final event');
  return {
    events,
    final,
    report: final.report!,
    thinking: events.flatMap((e) => (e.type === 'thinking' ? [e.text] : [])),
    streamed: events.flatMap((e) => (e.type === 'text' ? [e.delta] : [])).join(''),
  };
}

/** Every text item of a report, joined. */
export const texts = (content: ContentItem[]) =>
  content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('\n');

/** The chart item with this title. */
export const chart = (content: ContentItem[], title: string) =>
  content.find((c): c is ChartItem => c.type === 'chart' && c.title === title);

/** The file item with this name (or matching this pattern). */
export const fileOf = (content: ContentItem[], name: string | RegExp) =>
  content.find(
    (c): c is FileItem =>
      c.type === 'file' && (typeof name === 'string' ? c.filename === name : name.test(c.filename)),
  );

export type ChartData = { labels: string[]; datasets: Array<{ label?: string; data: number[] }> };
/** A chart's Chart.js data. */
export const dataOf = (c: ChartItem | undefined) => c?.config.data as ChartData;
