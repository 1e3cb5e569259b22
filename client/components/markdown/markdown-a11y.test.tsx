import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Markdown } from './markdown';

describe('markdown task lists', () => {
  afterEach(() => cleanup());

  it('gives each task checkbox a name saying whether it is done', () => {
    render(<Markdown text={'- [x] Draft the policy\n- [ ] Review with legal\n\nPlain *text*'} />);
    const boxes = screen.getAllByRole('checkbox');
    expect(boxes.map((b) => b.getAttribute('aria-label'))).toEqual(['Done', 'Not done']);
    expect(screen.getByRole('checkbox', { name: 'Done' })).toHaveProperty('checked', true);
  });
});
