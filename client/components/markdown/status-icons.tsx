import { CircleCheckIcon, CircleXIcon, TriangleAlertIcon } from 'lucide-react';

/**
 * Status emoji in answers (✅ ⚠️ ❌, the writers' and models' marks) drawn as icons with a name:
 * a system without an emoji font (Debian's Chromium) draws them as empty boxes, and the mark
 * is often the meaning of a table cell.
 */

export type StatusKind = 'ok' | 'warning' | 'no';

const STATUS_EMOJI = /(✅|✔|☑|🟢|⚠|🟡|🟠|❌|✖|🔴|⛔|🚫)\uFE0F?/gu;

const KIND_OF: Record<string, StatusKind> = {
  '✅': 'ok',
  '✔': 'ok',
  '☑': 'ok',
  '🟢': 'ok',
  '⚠': 'warning',
  '🟡': 'warning',
  '🟠': 'warning',
  '❌': 'no',
  '✖': 'no',
  '🔴': 'no',
  '⛔': 'no',
  '🚫': 'no',
};

/** The text as pieces: plain strings and status marks, in order. */
export function splitStatusEmoji(text: string): Array<string | { status: StatusKind }> {
  const out: Array<string | { status: StatusKind }> = [];
  let at = 0;
  for (const m of text.matchAll(STATUS_EMOJI)) {
    if (m.index > at) out.push(text.slice(at, m.index));
    out.push({ status: KIND_OF[m[1]!]! });
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

// The smallest hast shapes the plugin walks (react-markdown's tree).
interface HastText {
  type: 'text';
  value: string;
}
interface HastElement {
  type: 'element';
  tagName: string;
  properties: Record<string, unknown>;
  children: HastNode[];
}
type HastNode = HastText | HastElement | { type: string; children?: HastNode[] };

/** Data attribute that marks a status icon's span for the `span` component below. */
export const STATUS_ATTRIBUTE = 'dataStatusIcon';

/** A rehype plugin: status emoji outside code become spans the `span` component draws as icons. */
export function rehypeStatusIcons() {
  const walk = (node: HastNode) => {
    if (!('children' in node) || !node.children) return;
    if (node.type === 'element' && ['code', 'pre'].includes((node as HastElement).tagName)) return;
    node.children = node.children.flatMap((child): HastNode[] => {
      if (child.type !== 'text') {
        walk(child);
        return [child];
      }
      const pieces = splitStatusEmoji((child as HastText).value);
      if (pieces.length === 1 && typeof pieces[0] === 'string') return [child];
      return pieces.map((p) =>
        typeof p === 'string'
          ? { type: 'text', value: p }
          : {
              type: 'element',
              tagName: 'span',
              properties: { [STATUS_ATTRIBUTE]: p.status },
              children: [],
            },
      );
    });
  };
  return (tree: HastNode) => walk(tree);
}

const ICONS = {
  ok: { Icon: CircleCheckIcon, label: 'OK', className: 'text-emerald-700 dark:text-emerald-400' },
  warning: {
    Icon: TriangleAlertIcon,
    label: 'Warning',
    className: 'text-amber-700 dark:text-amber-400',
  },
  no: { Icon: CircleXIcon, label: 'No', className: 'text-red-700 dark:text-red-400' },
} as const;

export function StatusIcon({ kind }: { kind: StatusKind }) {
  const { Icon, label, className } = ICONS[kind];
  return (
    <Icon
      role="img"
      aria-label={label}
      className={`inline-block size-[1.1em] shrink-0 align-[-0.2em] ${className}`}
    />
  );
}
