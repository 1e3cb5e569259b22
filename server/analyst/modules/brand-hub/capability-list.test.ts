import { describe, expect, it } from 'vitest';
import { brandHubAgent } from './brand-hub';
import { BRAND_CAPABILITIES } from './capability-list';
import { brandTaskOf } from './plan';
import { BRAND_HUB_TOOLS } from './tool-list';

describe('the Brand Hub capability list', () => {
  it('offers each capability tool once, and the instructions name every one', () => {
    const names = BRAND_HUB_TOOLS.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(names)).toEqual(new Set(BRAND_CAPABILITIES.map((c) => c.tool.name)));
    for (const n of names) expect(brandHubAgent.instructions).toContain(n);
  });

  it('classifies a request by the first capability whose words it uses, else as a copy review', () => {
    expect(brandTaskOf('Write a competitor messaging teardown of their homepage')).toBe('teardown');
    expect(brandTaskOf('Turn this fact sheet into a positioning statement')).toBe('launch');
    expect(brandTaskOf('Do a tone audit of our landing page copy')).toBe('tone-audit');
    expect(brandTaskOf('Is this any good?')).toBe('review');
  });
});
