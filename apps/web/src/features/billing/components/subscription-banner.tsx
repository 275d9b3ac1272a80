import { TRIAL_DAYS, type Subscription } from '@herald/contract';
import { CircleCheck, Info, Sparkles, Users, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';
import { daysRemaining, formatDate, trialDaysLeft } from './subscription-status';

type Tone = 'blue' | 'green' | 'grey';

const tones: Record<Tone, { box: string; icon: LucideIcon; iconClass: string }> = {
  blue: {
    box: 'border-blue-200 bg-blue-50 text-blue-950',
    icon: Sparkles,
    iconClass: 'text-blue-700',
  },
  green: {
    box: 'border-emerald-200 bg-emerald-50 text-emerald-950',
    icon: CircleCheck,
    iconClass: 'text-emerald-700',
  },
  grey: {
    box: 'border-slate-200 bg-slate-100 text-slate-900',
    icon: Info,
    iconClass: 'text-slate-600',
  },
};

export const NO_SUBSCRIPTION = 'No active subscription.';

function pastStatusDetail(subscription: Subscription): string {
  const plan = subscription.plan.name;
  switch (subscription.status) {
    case 'PAST_DUE':
      return `The last payment for your ${plan} plan failed. Update your payment method to keep it.`;
    case 'EXPIRED':
      return subscription.trialEnd
        ? `Your free trial of ${plan} ended on ${formatDate(subscription.trialEnd)}. Subscribe to keep inviting and publishing.`
        : `Your ${plan} plan has expired. Subscribe to keep inviting and publishing.`;
    default:
      return subscription.canceledAt
        ? `Your ${plan} plan was cancelled on ${formatDate(subscription.canceledAt)}. Subscribe to keep inviting and publishing.`
        : `Your ${plan} plan was cancelled. Subscribe to keep inviting and publishing.`;
  }
}

/** docs/product.md#billing-groups: the title of an organization another one pays for. */
export const coveredTitle = (plan: string, payer: string) => `Covered by ${plan} (from ${payer})`;

/** A covered organization's banner: whose plan, and until when (the payer's trial or period). */
function coveredContent(
  subscription: Subscription,
  payer: NonNullable<Subscription['coveredBy']>,
): { tone: Tone; title: string; detail: string | null } {
  const title = coveredTitle(subscription.plan.name, payer.organizationName);
  if (subscription.status === 'TRIALING') {
    return {
      tone: 'blue',
      title,
      detail: `${payer.organizationName}'s free trial — ${daysRemaining(trialDaysLeft(subscription))}.`,
    };
  }
  const end = subscription.currentPeriodEnd;
  let detail = `${payer.organizationName} pays for this plan.`;
  if (end) {
    detail += subscription.cancelAtPeriodEnd
      ? ` It ends on ${formatDate(end)}.`
      : ` It renews on ${formatDate(end)}.`;
  }
  return { tone: 'green', title, detail };
}

/** docs/product.md#subscription-states: trialing is blue with days remaining, active green, anything else grey. */
export function bannerContent(subscription: Subscription | null): {
  tone: Tone;
  title: string;
  detail: string | null;
} {
  if (!subscription) {
    return {
      tone: 'grey',
      title: NO_SUBSCRIPTION,
      detail: `Start a ${TRIAL_DAYS}-day free trial or subscribe to a plan to invite teammates and publish posts.`,
    };
  }
  const plan = subscription.plan.name;
  if (subscription.coveredBy) return coveredContent(subscription, subscription.coveredBy);
  if (subscription.status === 'TRIALING') {
    return {
      tone: 'blue',
      title: `Free trial of ${plan} — ${daysRemaining(trialDaysLeft(subscription))}`,
      detail: subscription.trialEnd
        ? `Your trial ends on ${formatDate(subscription.trialEnd)}.`
        : null,
    };
  }
  if (subscription.status === 'ACTIVE') {
    const end = subscription.currentPeriodEnd;
    let detail: string | null = null;
    if (subscription.cancelAtPeriodEnd) {
      detail = end ? `Ends on ${formatDate(end)}` : 'Ends at the end of the billing period';
    } else if (end) {
      detail = `Renews on ${formatDate(end)}`;
    }
    return { tone: 'green', title: `You are currently on the ${plan} plan`, detail };
  }
  return {
    tone: 'grey',
    title: `${NO_SUBSCRIPTION} (${subscription.status})`,
    detail: pastStatusDetail(subscription),
  };
}

/**
 * docs/product.md#pricing: the organization's size in plain words. The one member of an
 * organization of one is the reader.
 */
export function teamLine(memberCount: number | undefined): string | null {
  if (memberCount === undefined || memberCount < 1) return null;
  return memberCount === 1 ? 'Just you (1 team member)' : `${memberCount} team members`;
}

interface SubscriptionBannerProps {
  subscription: Subscription | null;
  memberCount: number | undefined;
  /** Buttons at the banner's end (Cancel Plan, Manage billing), already filtered. */
  actions?: ReactNode;
}

export function SubscriptionBanner({
  subscription,
  memberCount,
  actions,
}: SubscriptionBannerProps) {
  const { tone, title, detail } = bannerContent(subscription);
  const { box, icon: Icon, iconClass } = tones[tone];
  const team = teamLine(memberCount);
  return (
    <section
      aria-label="Current subscription"
      data-tone={tone}
      className={cn('flex flex-wrap items-center gap-4 rounded-2xl border p-5', box)}
    >
      <Icon className={cn('size-6 shrink-0', iconClass)} aria-hidden="true" />
      <div className="min-w-0 flex-1 basis-52">
        <p className="font-semibold">{title}</p>
        {detail && <p className="mt-0.5 text-sm opacity-90">{detail}</p>}
        {team && (
          <p className="mt-1 flex items-center gap-1.5 text-sm">
            <Users className="size-4" aria-hidden="true" />
            {team}
          </p>
        )}
      </div>
      {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
    </section>
  );
}
