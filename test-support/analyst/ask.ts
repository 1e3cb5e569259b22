import { stepCountIs, streamText } from 'ai';
import { readFileSync } from 'node:fs';
import { StructuredResponse, type ContentItem } from '@contract/structured-response';
import { builtinModel } from '../../server/analyst/providers/builtin-model';
import { aiToolSet } from '../../server/analyst/tools/runner';
import { tableKindOf } from '../../server/analyst/tables/read-sources';
import type { HistoryAttachment, HistoryMessage } from '../../server/analyst/types';
import { attachmentsInScope } from '../../server/analyst/modules/module';
import { talentIntelligenceAgent } from '../../server/analyst/modules/talent-intelligence/talent-intelligence';

/**
 * A Talent Intelligence turn the way the builtin provider runs it: the builtin language model
 * plans calls, streamText runs them in the analysis worker pool over the real table engine, and
 * the model writes the report from their results.
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
export const assistant = (report: StructuredResponse): HistoryMessage => ({
  role: 'assistant',
  text: JSON.stringify(report),
  attachments: [],
});

export async function ask(history: HistoryMessage[]) {
  const attachments = attachmentsInScope(history);
  const request = history.at(-1)!.text;
  const model = builtinModel({
    module: talentIntelligenceAgent,
    request,
    history,
    files: attachments.map((a) => ({
      fileName: a.fileName,
      mimeType: a.mimeType,
      bytes: a.data.length,
      kind: tableKindOf(a) ? 'table' : 'other',
    })),
  });
  const result = streamText({
    model,
    prompt: request,
    tools: aiToolSet(talentIntelligenceAgent.analystTools!, attachments),
    stopWhen: stepCountIs(10),
  });
  const calls: string[] = [];
  for await (const part of result.fullStream)
    if (part.type === 'tool-call') calls.push(part.toolName);
  const report = StructuredResponse.parse(JSON.parse(await result.text));
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

/** The starter templates of the module, by name, from the seed. */
export function starter(name: string): string {
  const all = JSON.parse(
    readFileSync(new URL('../../server/seed/starters.json', import.meta.url), 'utf8'),
  ) as Array<{ module: string; name: string; description: string }>;
  const s = all.find((x) => x.module === 'talent-intelligence' && x.name === name);
  if (!s) throw new Error(`No starter named ${name}`);
  // The client sends a starter as "Help me with: <description>".
  return `Help me with: ${s.description}`;
}
