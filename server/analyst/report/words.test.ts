import { describe, expect, it } from 'vitest';
import { STARTER_PREFILL_PREFIX } from '@contract/constants';
import { grouped, isStarterRequest, plural, withoutStarterPrefix } from './words';

describe('the small words of every report', () => {
  it('agrees the noun with the count and groups thousands', () => {
    expect(plural(1, 'risk')).toBe('1 risk');
    expect(plural(0, 'risk')).toBe('0 risks');
    expect(plural(1204, 'person', 'people')).toBe('1,204 people');
    expect(grouped(1234567.5)).toBe('1,234,567.5');
  });

  it("reads a starter's prefill as the client writes it, in any case", () => {
    const prefill = `${STARTER_PREFILL_PREFIX}tracking open audit findings`;
    expect(isStarterRequest(prefill)).toBe(true);
    expect(isStarterRequest(`  help me WITH:  x`)).toBe(true);
    expect(isStarterRequest('Please help me with this file')).toBe(false);
    expect(withoutStarterPrefix(prefill)).toBe('tracking open audit findings');
    expect(withoutStarterPrefix('HELP ME WITH:   a board pack')).toBe('a board pack');
    expect(withoutStarterPrefix('Summarise this')).toBe('Summarise this');
  });
});
