import { describe, expect, it } from 'vitest';
import { structuredDataOf } from './data-message';

describe('structuredDataOf', () => {
  it('recognises a JSON object or array sent as a message', () => {
    expect(structuredDataOf(' {"employees": [1, 2]} ')).toEqual({ employees: [1, 2] });
    expect(structuredDataOf('[{"a":1}]')).toEqual([{ a: 1 }]);
  });
  it('leaves ordinary text alone, braces included', () => {
    expect(structuredDataOf('Please analyse {this}')).toBeNull();
    expect(structuredDataOf('{not json}')).toBeNull();
    expect(structuredDataOf('42')).toBeNull();
  });
});
