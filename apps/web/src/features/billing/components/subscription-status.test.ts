import { describe, expect, it } from 'vitest';
import { activeSubscription, createSubscription, seededPlans } from '@/testing/billing-fixtures';
import { bannerContent, teamLine } from './subscription-banner';
import { isCancellable, planState, trialDaysLeft } from './subscription-status';

const plans = seededPlans();
const starter = plans.find((p) => p.name === 'Starter')!;
const basic = plans.find((p) => p.name === 'Basic')!;

describe('subscription display rules', () => {
  it('counts trial days as the ceiling of days to trialEnd, never below 0', () => {
    const now = Date.parse('2026-03-01T12:00:00.000Z');
    const at = (trialEnd: string) =>
      trialDaysLeft(createSubscription({ trialDaysRemaining: null, trialEnd }), now);
    expect(at('2026-03-08T12:00:00.000Z')).toBe(7);
    expect(at('2026-03-02T11:00:00.000Z')).toBe(1);
    expect(at('2026-02-28T12:00:00.000Z')).toBe(0);
    expect(trialDaysLeft(createSubscription({ trialDaysRemaining: 3 }), now)).toBe(3);
  });

  it('offers one set of actions per state, never a disabled trial', () => {
    // None: trial and subscribe.
    expect(planState(basic, null)).toEqual({
      activeTrial: false,
      current: false,
      showTrial: true,
      showSubscribe: true,
    });
    // Trialing: no trial anywhere; subscribe everywhere, the tried plan included.
    expect(planState(basic, createSubscription())).toEqual({
      activeTrial: true,
      current: false,
      showTrial: false,
      showSubscribe: true,
    });
    expect(planState(starter, createSubscription()).showTrial).toBe(false);
    // Active: nothing on the plan paid for, subscribe on the others, no trial.
    expect(planState(basic, activeSubscription())).toEqual({
      activeTrial: false,
      current: true,
      showTrial: false,
      showSubscribe: false,
    });
    expect(planState(starter, activeSubscription())).toMatchObject({
      showTrial: false,
      showSubscribe: true,
    });
    // Cancelled at period end: subscribe again to keep it.
    expect(planState(basic, activeSubscription({ cancelAtPeriodEnd: true }))).toMatchObject({
      current: true,
      showTrial: false,
      showSubscribe: true,
    });
    // Ended after a trial: the trial is used up.
    expect(planState(basic, createSubscription({ status: 'EXPIRED' }))).toMatchObject({
      showTrial: false,
      showSubscribe: true,
    });
    expect(planState({ ...basic, trialEligible: false }, null).showTrial).toBe(false);
  });

  it('offers cancelling only what is still running', () => {
    expect(isCancellable(null)).toBe(false);
    expect(isCancellable(createSubscription())).toBe(true);
    expect(isCancellable(activeSubscription({ status: 'PAST_DUE' }))).toBe(true);
    expect(isCancellable(activeSubscription({ cancelAtPeriodEnd: true }))).toBe(false);
    expect(isCancellable(createSubscription({ status: 'CANCELED' }))).toBe(false);
  });

  it('words the banner by status', () => {
    expect(bannerContent(null)).toMatchObject({ tone: 'grey', title: 'No active subscription.' });
    expect(bannerContent(createSubscription({ status: 'EXPIRED' }))).toMatchObject({
      tone: 'grey',
      title: 'No active subscription. (EXPIRED)',
    });
    expect(bannerContent(activeSubscription()).title).toBe('You are currently on the Basic plan');
    expect(teamLine(undefined)).toBeNull();
    expect(teamLine(1)).toBe('Just you (1 team member)');
    expect(teamLine(2)).toBe('2 team members');
  });
});
