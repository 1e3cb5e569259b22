import type { MessagePart } from './chats';
import type { StructuredResponse } from './structured-response';

// Markdown of a report and of a whole chat: one copy, used by the client (copy a report) and
// the server (export a chat), so both read the same.

/** A code fence longer than any run of backticks inside `text`, so the block cannot end early. */
function fence(text: string): string {
  const longest = Math.max(0, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  return '`'.repeat(Math.max(3, longest + 1));
}

function codeBlock(text: string, lang = ''): string {
  const f = fence(text);
  return `${f}${lang}\n${text.replace(/\n$/, '')}\n${f}`;
}

function extensionOf(name: string): string {
  const ext = name.toLowerCase().split('.').pop() ?? '';
  return ext === name.toLowerCase() ? '' : ext;
}

/**
 * A report as Markdown: the task name as a heading, texts as they are, files as fenced blocks
 * (a Markdown file inline), charts as their configuration in a JSON block, next steps numbered.
 */
export function reportToMarkdown(report: StructuredResponse, headingLevel = 2): string {
  const h = '#'.repeat(Math.min(6, Math.max(1, headingLevel)));
  const out: string[] = [`${h} ${report.task_name}`];
  for (const item of report.content) {
    if (item.type === 'text') {
      out.push(item.text.trim());
    } else if (item.type === 'file') {
      const ext = extensionOf(item.filename);
      out.push(`**File: ${item.filename}**`);
      out.push(
        ext === 'md' || ext === 'markdown' ? item.file_data.trim() : codeBlock(item.file_data, ext),
      );
    } else if (item.type === 'reading') {
      // The card in words: each table's columns and the roles they were read as.
      out.push(
        [
          '**Check how I read this file**',
          ...item.readings.map(
            (r) =>
              `- ${r.sheet ? `${r.fileName}, sheet ${r.sheet}` : r.fileName}: ${r.columns
                .map((c) => `${c.name} → ${c.role ?? 'not used'}`)
                .join('; ')}`,
          ),
        ].join('\n'),
      );
    } else {
      const { type: _type, imageData, ...chart } = item;
      out.push(`**Chart: ${item.title}**`);
      out.push(
        imageData
          ? `![${item.title}](${imageData})`
          : codeBlock(JSON.stringify(chart, null, 2), 'json'),
      );
    }
  }
  if (report.next_steps.length > 0) {
    out.push('**Next Steps:**');
    out.push(report.next_steps.map((s, i) => `${i + 1}. ${s.step_description}`).join('\n'));
  }
  return `${out.filter(Boolean).join('\n\n')}\n`;
}

/** The readable text of a message's content: its text parts, files named. */
export function messageText(content: string | MessagePart[]): string {
  if (typeof content === 'string') return content;
  return content
    .map((p) => (p.type === 'text' ? p.text : `[Attached: ${p.filename}]`))
    .filter(Boolean)
    .join('\n');
}

export interface MarkdownChat {
  title: string;
  module: string;
  createdAt: string;
  messages: Array<{
    role: 'user' | 'assistant';
    content: string | MessagePart[];
    timestamp: string;
    status: string;
    error?: string | null | undefined;
    structuredResponse?: StructuredResponse | null | undefined;
  }>;
  savedFiles: Array<{ fileName: string; fileContent: string }>;
}

/** A whole chat as one Markdown document: messages in order, then the saved files. */
export function chatToMarkdown(chat: MarkdownChat, beside?: (text: string) => string): string {
  const out: string[] = [`# ${chat.title}`, `_Module: ${chat.module} · Started ${chat.createdAt}_`];
  for (const m of chat.messages) {
    out.push(`## ${m.role === 'user' ? 'You' : 'Assistant'} · ${m.timestamp}`);
    if (m.status === 'error') {
      out.push(`> Error: ${m.error ?? 'The reply failed'}`);
      continue;
    }
    const text = messageText(m.content).trim();
    if (m.structuredResponse) {
      const rest = beside ? beside(text).trim() : '';
      if (rest) out.push(rest);
      out.push(reportToMarkdown(m.structuredResponse, 3).trim());
    } else if (text) {
      out.push(text);
    }
    if (m.status === 'stopped') out.push('_Stopped_');
  }
  if (chat.savedFiles.length > 0) {
    out.push('## Saved files');
    for (const f of chat.savedFiles) {
      out.push(`### ${f.fileName}`);
      out.push(codeBlock(f.fileContent, extensionOf(f.fileName)));
    }
  }
  return `${out.join('\n\n')}\n`;
}
