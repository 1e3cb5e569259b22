import { describe, expect, it } from 'vitest';
import { appendingWriter, tailWriter } from './live-text';

const blocks = (el: HTMLElement) => [...el.children].map((b) => b.textContent);

describe('appendingWriter', () => {
  it('shows the text as one block per line, touching only the open last line as it grows', () => {
    const el = document.createElement('div');
    const write = appendingWriter();
    write(el, 'First para');
    const first = el.firstElementChild;
    write(el, 'First paragraph.\n\nSecond');
    write(el, 'First paragraph.\n\nSecond line\n- item');
    expect(blocks(el)).toEqual(['First paragraph.\n', '\n', 'Second line\n', '- item']);
    expect(el.textContent).toBe('First paragraph.\n\nSecond line\n- item');
    // The first line's block is the one written first: finished lines are not written again.
    expect(el.firstElementChild).toBe(first);
  });

  it('writes again from the start when the text did not only grow', () => {
    const el = document.createElement('div');
    const write = appendingWriter();
    write(el, 'Draft one\nmore');
    write(el, 'Another\ntext');
    expect(blocks(el)).toEqual(['Another\n', 'text']);
    write(el, 'Another\ntext');
    expect(el.textContent).toBe('Another\ntext');
  });

  it('starts over in a new element', () => {
    const write = appendingWriter();
    const a = document.createElement('div');
    const b = document.createElement('div');
    write(a, 'Hello');
    write(b, 'Hello there');
    expect(b.textContent).toBe('Hello there');
    expect(a.textContent).toBe('Hello');
  });
});

describe('tailWriter', () => {
  it('shows only the last characters', () => {
    const el = document.createElement('p');
    const write = tailWriter(5);
    write(el, '{"task');
    write(el, '{"task_name": "Headcount"');
    expect(el.textContent).toBe('ount"');
    expect(el.childNodes).toHaveLength(1);
  });
});
