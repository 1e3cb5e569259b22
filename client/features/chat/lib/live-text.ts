/**
 * Writers of a reply's streamed text into the DOM, outside React (see useLiveEffect). Each
 * keeps the text node it wrote, so a call with the same text costs nothing.
 */
export type TextWriter = (el: HTMLElement, text: string) => void;

/**
 * The whole text, one block per line, appended to as it grows. A browser lays out a paragraph
 * again from its first line whenever its text changes (appending 35 characters to a 30,000-
 * character paragraph costs milliseconds), so each line of the reply is its own block: finished
 * lines are never touched again, and only the open last line takes the new text (appendData).
 * In `white-space: pre-wrap` this renders exactly as the text in one element: a block that ends
 * with its line's "\n" shows no extra line, and an empty line is a block holding only "\n".
 * Text that did not only grow (a replay, a correction) is written again from the start.
 */
export function appendingWriter(): TextWriter {
  let written = '';
  let container: HTMLElement | null = null;
  /** The text node of the last line while it has no "\n" yet. */
  let open: Text | null = null;

  const add = (el: HTMLElement, part: string) => {
    if (!open) {
      const block = document.createElement('div');
      open = document.createTextNode('');
      block.append(open);
      el.append(block);
    }
    open.appendData(part);
    if (part.endsWith('\n')) open = null;
  };

  return (el, text) => {
    if (container !== el || !text.startsWith(written)) {
      el.replaceChildren();
      container = el;
      written = '';
      open = null;
    }
    let rest = text.slice(written.length);
    written = text;
    while (rest) {
      const end = rest.indexOf('\n');
      const part = end < 0 ? rest : rest.slice(0, end + 1);
      add(el, part);
      rest = rest.slice(part.length);
    }
  };
}

/** The last `max` characters of the text (a report being written shows its tail). */
export function tailWriter(max: number): TextWriter {
  let node: Text | null = null;
  return (el, text) => {
    const tail = text.slice(-max);
    if (node && node.parentNode === el) {
      if (node.data !== tail) node.data = tail;
      return;
    }
    node = document.createTextNode(tail);
    el.replaceChildren(node);
  };
}
