import { readFileSync } from 'node:fs';
import type { ModuleKey } from '@contract/modules';
import { StructuredResponse, type ContentItem } from '@contract/structured-response';
import { builtinAgent } from '../../server/analyst/providers/builtin';
import type { HistoryAttachment, HistoryMessage } from '../../server/analyst/types';
import { runTurn } from './turns';

/**
 * A Talent Intelligence turn of the builtin provider itself (builtinAgent, the product's path):
 * the builtin language model plans calls, the analysis worker pool runs them over the real table
 * engine, and the model writes the report from their results. `calls` are the tools it ran, in
 * order, read from the lines the user sees ("Running <tool> ...").
 */

const MIME: Record<string, string> = {
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

export function fileOfBytes(fileName: string, data: string | Buffer): HistoryAttachment {
  return {
    fileName,
    mimeType: MIME[fileName.split('.').pop() ?? ''] ?? 'application/octet-stream',
    data: Buffer.isBuffer(data) ? data : Buffer.from(data),
  };
}

export const user = (text: string, attachments: HistoryAttachment[] = []): HistoryMessage => ({
  role: 'user',
  text,
  attachments,
});
/** An earlier answer as the workspace loads it: its text and its stored report. */
export const assistant = (report: StructuredResponse): HistoryMessage => ({
  role: 'assistant',
  text: JSON.stringify(report),
  attachments: [],
  report,
});

export async function ask(history: HistoryMessage[]) {
  const turn = await runTurn(builtinAgent(), 'talent-intelligence', history);
  const calls = turn.thinking.flatMap((line) => {
    const tool = /^Running (\w+)/.exec(line)?.[1];
    return tool ? [tool] : [];
  });
  const report = StructuredResponse.parse(JSON.parse(turn.final.text));
  return { report, calls };
}

/** Every text item of a report, joined. */
export const textOf = (content: ContentItem[]) =>
  content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('\n');
export const chartOf = (content: ContentItem[], title: string) =>
  content.find((c) => c.type === 'chart' && c.title === title) as
    | {
        config: { data: { labels: string[]; datasets: Array<{ label?: string; data: number[] }> } };
      }
    | undefined;
export const fileNamed = (content: ContentItem[], name: string) =>
  content.find((c) => c.type === 'file' && c.filename === name) as
    { file_data: string } | undefined;

/** A module's starter templates, as the seed has them. */
export function startersOf(
  module: ModuleKey,
): Array<{ module: string; name: string; description: string }> {
  const all = JSON.parse(
    readFileSync(new URL('../../server/seed/starters.json', import.meta.url), 'utf8'),
  ) as Array<{ module: string; name: string; description: string }>;
  return all.filter((x) => x.module === module);
}

/** The Talent Intelligence starter template by name, as the client sends it. */
export function starter(name: string): string {
  const s = startersOf('talent-intelligence').find((x) => x.name === name);
  if (!s) throw new Error(`No starter named ${name}`);
  // The client sends a starter as "Help me with: <description>".
  return `Help me with: ${s.description}`;
}

/**
 * One typed message to a module through the builtin provider, after the earlier messages
 * `before`: its report, all its text and the thinking shown while it ran.
 */
export async function askModule(
  module: ModuleKey,
  message: string,
  attachments: HistoryAttachment[] = [],
  before: HistoryMessage[] = [],
) {
  const turn = await runTurn(builtinAgent(), module, [...before, user(message, attachments)]);
  const report = StructuredResponse.parse(turn.report);
  return { report, all: textOf(report.content), thinking: turn.thinking };
}

/** The numbered sections of a several-part report: their names and their text, in order. */
export const sectionsOf = (all: string) => ({
  names: [...all.matchAll(/^## \d+\. (.+)$/gm)].map((m) => m[1]!),
  texts: all.split(/^## \d+\. .+$/m).slice(1),
});
