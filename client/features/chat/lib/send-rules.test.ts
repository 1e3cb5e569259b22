import { describe, expect, it } from 'vitest';
import { checkSend, isTooLarge } from './send-rules';

describe('checkSend', () => {
  it('sends text, with or without files', () => {
    expect(checkSend('hi', 0, false)).toBe('ok');
    expect(checkSend('hi', 2, false)).toBe('ok');
  });
  it('sends nothing for blank text and no files', () => {
    expect(checkSend('   \n', 0, false)).toBe('empty');
  });
  it('requires a message with files', () => {
    expect(checkSend('  ', 1, false)).toBe('message-required');
  });
  it('blocks while another send is in progress', () => {
    expect(checkSend('hi', 0, true)).toBe('busy');
  });
});

describe('isTooLarge', () => {
  it('allows exactly 10 MB and refuses a byte more', () => {
    expect(isTooLarge(10 * 1024 * 1024)).toBe(false);
    expect(isTooLarge(10 * 1024 * 1024 + 1)).toBe(true);
  });
});
