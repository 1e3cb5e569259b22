import { describe, expect, it } from 'vitest';
import { HIGHLIGHT_END as E, HIGHLIGHT_START as S } from '@contract/chats';
import { chatHref, moduleName, snippetParts } from './chat-labels';

describe('snippetParts', () => {
  it('splits a snippet into plain and highlighted runs', () => {
    expect(snippetParts(`the ${S}pay${E} ${S}gap${E} is 7.4%`)).toEqual([
      { text: 'the ', match: false },
      { text: 'pay', match: true },
      { text: ' ', match: false },
      { text: 'gap', match: true },
      { text: ' is 7.4%', match: false },
    ]);
  });
  it('keeps text with no marks, and survives a mark left open', () => {
    expect(snippetParts('<b>plain</b>')).toEqual([{ text: '<b>plain</b>', match: false }]);
    expect(snippetParts(`a ${S}open`)).toEqual([
      { text: 'a ', match: false },
      { text: 'open', match: true },
    ]);
    expect(snippetParts('')).toEqual([]);
  });
});

describe('labels and links', () => {
  it('names modules and links to a message', () => {
    expect(moduleName('talent-intelligence')).toBe('Talent Intelligence');
    expect(moduleName('dashboard')).toBe('Dashboard');
    expect(chatHref('a b', 4)).toBe('/chat/a%20b?m=4');
    expect(chatHref('x', null)).toBe('/chat/x');
  });
});
