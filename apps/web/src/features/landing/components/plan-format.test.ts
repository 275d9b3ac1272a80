import { describe, expect, it } from 'vitest';
import { createPlan } from '@/testing/factories';
import { isMostPopular } from './plan-format';

describe('landing plan display', () => {
  it('flags the plan named Basic as the popular one', () => {
    expect(isMostPopular(createPlan({ name: 'Basic' }))).toBe(true);
    expect(isMostPopular(createPlan({ name: ' basic ' }))).toBe(true);
    expect(isMostPopular(createPlan({ name: 'Basic Plus' }))).toBe(false);
  });
});
