import { HIGHLIGHT_END, HIGHLIGHT_START } from '@contract/constants';
import { MODULES } from '@contract/module-list';
import type { ModuleKey } from '@contract/modules';

/** The module's display name ("Dashboard" for the dashboard key, the key itself if unknown). */
export function moduleName(module: string): string {
  if (module === 'dashboard') return 'Dashboard';
  return module in MODULES ? MODULES[module as ModuleKey].name : module;
}

export interface SnippetPart {
  text: string;
  match: boolean;
}

/** A search snippet split into plain and matched runs (the server marks matches). */
export function snippetParts(snippet: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  let rest = snippet;
  while (rest.length > 0) {
    const start = rest.indexOf(HIGHLIGHT_START);
    if (start === -1) {
      parts.push({ text: rest, match: false });
      break;
    }
    if (start > 0) parts.push({ text: rest.slice(0, start), match: false });
    const end = rest.indexOf(HIGHLIGHT_END, start + 1);
    const stop = end === -1 ? rest.length : end;
    const text = rest.slice(start + HIGHLIGHT_START.length, stop);
    if (text) parts.push({ text, match: true });
    rest = end === -1 ? '' : rest.slice(end + HIGHLIGHT_END.length);
  }
  // Neighbouring matches ("pay" "gap") read as one highlighted run.
  return parts.reduce<SnippetPart[]>((out, p) => {
    const last = out.at(-1);
    if (last && last.match === p.match) last.text += p.text;
    else out.push({ ...p });
    return out;
  }, []);
}

/** The address that opens a chat, at a message when one is given. */
export function chatHref(chatId: string, seq?: number | null): string {
  const base = `/chat/${encodeURIComponent(chatId)}`;
  return seq ? `${base}?m=${seq}` : base;
}
