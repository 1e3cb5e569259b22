import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Markdown } from './lazy-markdown';

afterEach(cleanup);

describe('Markdown loaded on first use', () => {
  it('shows the text as written until the renderer is there, then the rendered markdown', async () => {
    const { container } = render(<Markdown text={'**Ops** leads.\n\n- one'} />);
    // First render: the renderer is not loaded yet, the reader still sees the words.
    expect(container.textContent).toBe('**Ops** leads.\n\n- one');
    expect((await screen.findByText('Ops')).tagName).toBe('STRONG');
    expect(screen.getByRole('listitem').textContent).toBe('one');
    // Loaded once: a second message renders at once, with no plain-text frame.
    render(<Markdown text="## Later" />);
    expect(screen.getByRole('heading', { name: 'Later' })).toBeTruthy();
  });
});
