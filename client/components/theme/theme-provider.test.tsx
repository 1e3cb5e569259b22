import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ThemeProvider, useTheme } from '@/components/theme/theme-provider';
import { ThemeToggle } from '@/components/theme/theme-toggle';

const KEY = 'vite-ui-theme';

/** jsdom has no matchMedia: a controllable stand-in for `(prefers-color-scheme: dark)`. */
function stubMatchMedia(initialDark: boolean) {
  let dark = initialDark;
  const listeners = new Set<() => void>();
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => ({
      get matches() {
        return query === '(prefers-color-scheme: dark)' ? dark : false;
      },
      media: query,
      onchange: null,
      addEventListener: (_: string, cb: () => void) => listeners.add(cb),
      removeEventListener: (_: string, cb: () => void) => listeners.delete(cb),
      addListener: (cb: () => void) => listeners.add(cb),
      removeListener: (cb: () => void) => listeners.delete(cb),
      dispatchEvent: () => true,
    })),
  );
  return {
    setDark(next: boolean) {
      dark = next;
      act(() => listeners.forEach((cb) => cb()));
    },
  };
}

function ThemeProbe() {
  const { theme, resolvedTheme } = useTheme();
  return <p data-testid="probe">{`${theme}/${resolvedTheme}`}</p>;
}

function renderWithTheme() {
  return render(
    <ThemeProvider>
      <ThemeProbe />
      <ThemeToggle />
    </ThemeProvider>,
  );
}

const htmlClasses = () => document.documentElement.className.split(/\s+/).filter(Boolean);

beforeEach(() => {
  localStorage.clear();
  document.documentElement.className = '';
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('ThemeProvider', () => {
  it('defaults to system and follows the operating system preference', () => {
    const media = stubMatchMedia(true);
    renderWithTheme();

    expect(screen.getByTestId('probe').textContent).toBe('system/dark');
    expect(htmlClasses()).toEqual(['dark']);
    expect(localStorage.getItem(KEY)).toBeNull();

    media.setDark(false);
    expect(screen.getByTestId('probe').textContent).toBe('system/light');
    expect(htmlClasses()).toEqual(['light']);
  });

  it('toggles from system to the opposite of the shown theme, then back, storing each choice', async () => {
    stubMatchMedia(false);
    const user = userEvent.setup();
    renderWithTheme();
    const toggle = screen.getByRole('button', { name: 'Toggle theme' });

    await user.click(toggle);
    expect(localStorage.getItem(KEY)).toBe('dark');
    expect(htmlClasses()).toEqual(['dark']);

    await user.click(toggle);
    expect(localStorage.getItem(KEY)).toBe('light');
    expect(htmlClasses()).toEqual(['light']);
  });

  it('uses a stored preference and ignores the operating system then', () => {
    localStorage.setItem(KEY, 'light');
    const media = stubMatchMedia(true);
    renderWithTheme();

    expect(screen.getByTestId('probe').textContent).toBe('light/light');
    expect(htmlClasses()).toEqual(['light']);
    media.setDark(true);
    expect(htmlClasses()).toEqual(['light']);
  });
});
