import { describe, expect, it } from 'vitest';
import { lastUserMessage } from './last-user-message';

const file = (id: string, name: string) => ({
  type: 'file' as const,
  filename: name,
  attachment: { id, name, size: 10, mimeType: 'text/csv' },
});

describe('lastUserMessage', () => {
  it('takes the last user message, its text and its files', () => {
    const got = lastUserMessage({
      messages: [
        { role: 'user', content: 'first' },
        { role: 'user', content: [{ type: 'text', text: 'Review this' }, file('a1', 'data.csv')] },
        { role: 'assistant', content: 'report' },
      ],
    });
    expect(got).toEqual({
      text: 'Review this',
      attachments: [{ id: 'a1', name: 'data.csv', size: 10, mimeType: 'text/csv' }],
    });
  });

  it('handles plain text and no user message', () => {
    expect(lastUserMessage({ messages: [{ role: 'user', content: 'hi' }] })).toEqual({
      text: 'hi',
      attachments: [],
    });
    expect(lastUserMessage({ messages: [{ role: 'assistant', content: 'x' }] })).toBeUndefined();
    expect(lastUserMessage(undefined)).toBeUndefined();
  });

  it('skips files not stored yet (optimistic copies have no id)', () => {
    expect(
      lastUserMessage({
        messages: [{ role: 'user', content: [{ type: 'text', text: 't' }, file('', 'x.csv')] }],
      })?.attachments,
    ).toEqual([]);
  });
});
