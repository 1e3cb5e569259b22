import { describe, expect, it } from 'vitest';
import { formatElapsed } from '@/features/chat/components/progress-overlay';
import { isSearchShortcut } from '../search-dialog';

const key = (
  k: string,
  mods: Partial<Record<'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey', boolean>> = {},
) => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  ...mods,
});

describe('the search shortcut', () => {
  it('is Ctrl+K or Cmd+K, any case, and nothing else', () => {
    expect(isSearchShortcut(key('k', { ctrlKey: true }))).toBe(true);
    expect(isSearchShortcut(key('K', { metaKey: true }))).toBe(true);
    expect(isSearchShortcut(key('k'))).toBe(false);
    expect(isSearchShortcut(key('k', { ctrlKey: true, shiftKey: true }))).toBe(false);
    expect(isSearchShortcut(key('k', { ctrlKey: true, altKey: true }))).toBe(false);
    expect(isSearchShortcut(key('j', { ctrlKey: true }))).toBe(false);
  });
});

describe('the time a reply has taken', () => {
  it('reads as minutes and seconds', () => {
    expect(formatElapsed(0)).toBe('0:00');
    expect(formatElapsed(9_999)).toBe('0:09');
    expect(formatElapsed(61_000)).toBe('1:01');
    expect(formatElapsed(3_725_000)).toBe('62:05');
    expect(formatElapsed(-5)).toBe('0:00');
  });
});
