import { TRIAL_DAYS, type Plan, type Subscription } from '@herald/contract';
import { CircleCheck, Rocket, Sparkles, type LucideIcon } from 'lucide-react';
import { ButtonLink } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { cn } from '@/lib/cn';
import { formatPrice } from '@/lib/plans';

const DAY_MS = 24 * 60 * 60 * 1000;

/** docs/product.md#constants: ceiling of days to trialEnd, at least 0 (the server's count when it sent one). */
export function trialDaysLeft(subscription: Subscription, now = Date.now()): number {
  if (subscription.trialDaysRemaining !== null) return subscription.trialDaysRemaining;
  if (!subscription.trialEnd) return 0;
  return Math.max(0, Math.ceil((Date.parse(subscription.trialEnd) - now) / DAY_MS));
}

type Tone = 'trial' | 'active' | 'upgrade';

const tones: Record<Tone, { box: string; icon: LucideIcon }> = {
  trial: { box: 'border-blue-200 bg-blue-50 text-blue-950', icon: Sparkles },
  active: { box: 'border-emerald-200 bg-emerald-50 text-emerald-950', icon: CircleCheck },
  upgrade: { box: 'border-indigo-200 bg-indigo-50 text-indigo-950', icon: Rocket },
};

function content(subscription: Subscription | null, plans: Plan[]) {
  // docs/product.md#billing-groups: another organization of the owner pays for this one.
  const covered = subscription?.coveredBy;
  if (covered && (subscription.status === 'TRIALING' || subscription.status === 'ACTIVE')) {
    return {
      tone: subscription.status === 'TRIALING' ? ('trial' as const) : ('active' as const),
      title: `Covered by ${subscription.plan.name} (from ${covered.organizationName})`,
      detail: `${covered.organizationName} pays for this plan.`,
      action: 'View Plan',
    };
  }
  if (subscription?.status === 'TRIALING') {
    const days = trialDaysLeft(subscription);
    return {
      tone: 'trial' as const,
      title: `Free trial of ${subscription.plan.name}`,
      detail: `${days} ${days === 1 ? 'day' : 'days'} left in your trial.`,
      action: 'Manage Plan',
    };
  }
  if (subscription?.status === 'ACTIVE') {
    return {
      tone: 'active' as const,
      title: `${subscription.plan.name} plan`,
      detail: subscription.cancelAtPeriodEnd
        ? 'Your plan is active until the end of the billing period.'
        : 'Your plan is active.',
      action: 'Manage Plan',
    };
  }
  const cheapest = [...plans].sort((a, b) => a.price - b.price)[0];
  const from = cheapest ? ` Plans start at ${formatPrice(cheapest.price)}.` : '';
  return {
    tone: 'upgrade' as const,
    title: subscription
      ? `Your ${subscription.plan.name} plan is no longer active`
      : 'No active plan',
    detail: `Upgrade to invite your team and publish posts: try any plan free for ${TRIAL_DAYS} days.${from}`,
    action: 'Upgrade',
  };
}

/** docs/product.md#dashboard, #subscription-states: the plan in force (trialing or active) with Manage Plan, otherwise Upgrade. */
export function PlanBanner({
  subscription,
  plans,
}: {
  subscription: Subscription | null;
  plans: Plan[];
}) {
  const { tone, title, detail, action } = content(subscription, plans);
  const { box, icon: Icon } = tones[tone];
  return (
    <section
      aria-label="Your plan"
      data-tone={tone}
      className={cn('flex flex-wrap items-center gap-4 rounded-2xl border p-5', box)}
    >
      <Icon className="size-6 shrink-0" aria-hidden="true" />
      <div className="min-w-0 flex-1">
        <p className="font-semibold">{title}</p>
        <p className="mt-0.5 text-sm opacity-90">{detail}</p>
      </div>
      <ButtonLink to={paths.pricing} variant={action === 'Upgrade' ? 'primary' : 'secondary'}>
        {action}
      </ButtonLink>
    </section>
  );
}
