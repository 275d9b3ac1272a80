import { describe, expect, it } from 'vitest';
import { createPlan } from '@/testing/factories';
import { niceMax } from './activity-chart';
import { EMPTY_PLAN_FORM, formatPlanPrice, planToForm, validatePlanForm } from './plan-form';
import {
  CONSTRAINTS_NOT_JSON,
  CONSTRAINTS_NOT_OBJECT,
  NAME_REQUIRED,
  validatePlatformForm,
} from './platform-form';
import { validateUserForm } from './user-form';

describe('the plan form', () => {
  const filled = { ...EMPTY_PLAN_FORM, name: 'Team', description: 'For teams', price: '10' };

  it('refuses prices that are not numbers, negative or finer than cents', () => {
    expect(validatePlanForm({ ...filled, price: 'ten' }).errors?.price).toBe(
      'Price must be a number.',
    );
    expect(validatePlanForm({ ...filled, price: '-1' }).errors?.price).toBe(
      'Price cannot be negative.',
    );
    expect(validatePlanForm({ ...filled, price: '9.999' }).errors?.price).toBe(
      'Price can have at most two decimals.',
    );
    expect(validatePlanForm({ ...filled, price: '0' }).request?.price).toBe(0);
  });

  it('wants whole counts of at least 1, blank included', () => {
    const result = validatePlanForm({ ...filled, postsPerDay: '', organizations: '2.5' });
    expect(result.errors).toEqual({
      postsPerDay: 'Posts per day must be a whole number of at least 1.',
      organizations: 'Organizations must be a whole number of at least 1.',
    });
  });

  it('round-trips a plan, and shows Free for 0', () => {
    const plan = createPlan({ price: 12.5, stripePriceId: 'price_1', popular: true });
    expect(validatePlanForm(planToForm(plan)).request).toMatchObject({
      price: 12.5,
      stripePriceId: 'price_1',
      popular: true,
      features: plan.features,
    });
    expect(formatPlanPrice(0)).toBe('Free');
    expect(formatPlanPrice(12.5)).toBe('$12.50');
  });
});

describe('the platform form', () => {
  it('checks the JSON before the name, and wants an object', () => {
    expect(validatePlatformForm('', '{oops')).toMatchObject({ error: CONSTRAINTS_NOT_JSON });
    expect(validatePlatformForm('', '[1, 2]')).toMatchObject({ error: CONSTRAINTS_NOT_OBJECT });
    expect(validatePlatformForm('  ', '')).toMatchObject({ error: NAME_REQUIRED });
    expect(validatePlatformForm(' Bluesky ', '  ').request).toEqual({
      name: 'Bluesky',
      mediaConstraints: {},
    });
  });
});

describe('the user form', () => {
  it('sends a trimmed name, no picture as null, and no zone when none is chosen', () => {
    expect(
      validateUserForm({ displayName: ' Ada ', avatarUrl: ' ', timezone: '' }).changes,
    ).toEqual({ displayName: 'Ada', avatarUrl: null });
    expect(
      validateUserForm({ displayName: 'Ada', avatarUrl: 'ftp://x.example/a.png', timezone: 'UTC' })
        .errors,
    ).toEqual({ avatarUrl: 'Enter a web address starting with http:// or https://.' });
  });
});

describe('the chart scale', () => {
  it('rounds the top up to 1, 2 or 5 times a power of ten', () => {
    expect([0, 1, 3, 7, 12, 51, 480].map(niceMax)).toEqual([1, 1, 5, 10, 20, 100, 500]);
  });
});
