import { paths } from '@/config/paths';
import { useAuth } from '@/lib/auth';
import type { Plan } from '@herald/contract';

/** docs/product.md#landing-page: the plan named Basic is the one flagged 'Most Popular'. */
export function isMostPopular(plan: Plan): boolean {
  return plan.name.trim().toLowerCase() === 'basic';
}

/**
 * docs/product.md#landing-page: where a trial call to action leads. Pricing needs a session, so a
 * visitor starts at sign-up (which creates the account); a member picks a plan on pricing; a
 * signed-in user without an organization finishes onboarding first.
 */
export function trialPath(isAuthenticated: boolean, currentOrgId: string | null): string {
  if (!isAuthenticated) return paths.signup;
  return currentOrgId ? paths.pricing : paths.onboarding;
}

export function useTrialPath(): string {
  const { isAuthenticated, currentOrgId } = useAuth();
  return trialPath(isAuthenticated, currentOrgId);
}
