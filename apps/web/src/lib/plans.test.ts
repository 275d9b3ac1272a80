import { describe, expect, it } from 'vitest';
import { createPlan } from '@/testing/factories';
import { featureLabel, featureRows, featureValue, formatPrice } from './plans';

describe('plan display', () => {
  it('shows monthly prices with two decimals', () => {
    expect(formatPrice(0)).toBe('$0.00/month');
    expect(formatPrice(9.5)).toBe('$9.50/month');
    expect(formatPrice(1234.567)).toBe('$1234.57/month');
  });

  it('splits camelCase feature keys and shows booleans as Yes/No', () => {
    expect(featureLabel('postsPerDay')).toBe('Posts Per Day');
    expect(featureLabel('invites')).toBe('Invites');
    expect(featureValue(true)).toBe('Yes');
    expect(featureValue(false)).toBe('No');
    expect(featureValue(10)).toBe('10');
  });

  it('turns a plan into feature rows in the order the server sent them', () => {
    const rows = featureRows(createPlan());
    expect(rows.map((r) => `${r.label}: ${r.value}`)).toEqual([
      'Invites: 1',
      'Posts Per Day: 5',
      'Organizations: 1',
      'Connected Platforms: 2',
      'Priority Support: No',
    ]);
    expect(rows.filter((r) => !r.included).map((r) => r.label)).toEqual(['Priority Support']);
  });
});
