import { describe, expect, it } from 'vitest';
import { X_LONG_POST_LENGTH, X_USER_FIELDS, xTextLimitOf } from './limits.js';

describe('the text limit of one X account', () => {
  it('gives Premium and Premium+ subscribers long posts, and everyone else the network’s 280', () => {
    expect(X_LONG_POST_LENGTH).toBe(25_000);
    expect(xTextLimitOf({ subscription_type: 'Premium', verified_type: 'blue' })).toBe(25_000);
    expect(xTextLimitOf({ subscription_type: 'PremiumPlus' })).toBe(25_000);
    // null: the network's rule (280 weighted) applies.
    expect(xTextLimitOf({ subscription_type: 'None', verified_type: 'none' })).toBeNull();
    expect(xTextLimitOf({ subscription_type: 'Basic' })).toBeNull();
    // A business or government check mark is not a subscription.
    expect(xTextLimitOf({ subscription_type: 'None', verified_type: 'business' })).toBeNull();
  });

  it('reads the blue check mark as the subscription when X leaves subscription_type out', () => {
    expect(xTextLimitOf({ verified_type: 'blue' })).toBe(25_000);
    expect(xTextLimitOf({ verified_type: 'government' })).toBeNull();
    expect(xTextLimitOf({})).toBeNull();
  });

  it('asks X for both fields when reading the connected account', () => {
    expect(X_USER_FIELDS).toEqual(expect.arrayContaining(['verified_type', 'subscription_type']));
  });
});
