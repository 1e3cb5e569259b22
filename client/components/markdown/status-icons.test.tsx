import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Markdown } from './markdown';

afterEach(cleanup);

describe('status emoji in answers', () => {
  it('are drawn as named icons, in text and tables, never as characters a font must have', () => {
    render(
      <Markdown
        text={
          'Policy check: ✅ Covered, ⚠️ Mentioned only\n\n| Area | Status |\n|---|---|\n| Leave | ❌ Missing |\n| Pay | ✅ |'
        }
      />,
    );
    expect(screen.getAllByRole('img', { name: 'OK' })).toHaveLength(2);
    expect(screen.getAllByRole('img', { name: 'Warning' })).toHaveLength(1);
    expect(screen.getAllByRole('img', { name: 'No' })).toHaveLength(1);
    expect(document.body.textContent).not.toMatch(/[✅⚠❌]/u);
    expect(screen.getByText(/Covered/)).toBeTruthy();
  });

  it('stay as written inside code', () => {
    render(<Markdown text={'`✅ done`'} />);
    expect(document.querySelector('code')!.textContent).toBe('✅ done');
    expect(screen.queryByRole('img')).toBeNull();
  });
});
