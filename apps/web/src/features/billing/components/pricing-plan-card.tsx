import type { Plan } from '@herald/contract';
import { useId } from 'react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/cn';
import { featureRows, formatPrice } from '@/lib/plans';
import { FeatureItem } from '@/components/ui/feature-item';
import type { PlanState } from './subscription-status';

export type PlanAction = 'trial' | 'subscribe';

interface PricingPlanCardProps {
  plan: Plan;
  /** Badges and buttons, already narrowed to what the member may do. */
  state: PlanState;
  /** The action running for this card, if any; every button waits while any action runs. */
  pending: PlanAction | null;
  busy: boolean;
  /** "Ends on {date}" when the plan in force was cancelled at period end. */
  note?: string | null;
  onAction: (action: PlanAction, plan: Plan) => void;
}

function Badge({ children, className }: { children: string; className: string }) {
  return (
    <span className={cn('rounded-full px-2.5 py-0.5 text-xs font-semibold', className)}>
      {children}
    </span>
  );
}

export function PricingPlanCard({
  plan,
  state,
  pending,
  busy,
  note,
  onAction,
}: PricingPlanCardProps) {
  const titleId = useId();
  const highlighted = state.current || state.activeTrial;
  const spinner = (action: PlanAction) =>
    pending === action && <Spinner className="size-4 text-current" />;

  return (
    <li
      aria-labelledby={titleId}
      className={cn(
        'flex flex-col rounded-2xl border bg-white p-6 shadow-sm',
        highlighted ? 'border-indigo-600 ring-2 ring-indigo-600' : 'border-slate-200',
      )}
    >
      <div className="flex min-h-6 flex-wrap gap-2">
        {plan.popular && <Badge className="bg-indigo-600 text-white">Popular</Badge>}
        {state.activeTrial && <Badge className="bg-blue-100 text-blue-900">Active Trial</Badge>}
        {state.current && <Badge className="bg-emerald-100 text-emerald-900">Current Plan</Badge>}
      </div>
      <h2 id={titleId} className="mt-3 text-lg font-semibold text-slate-900">
        {plan.name}
      </h2>
      <p className="mt-1 text-sm text-slate-600">{plan.description}</p>
      <p className="mt-5 text-3xl font-bold tracking-tight text-slate-900">
        {formatPrice(plan.price)}
      </p>
      <ul
        aria-label={`${plan.name} features`}
        className="mt-5 flex-1 space-y-2.5 text-sm text-slate-700"
      >
        {featureRows(plan).map(({ key, ...row }) => (
          <FeatureItem key={key} {...row} />
        ))}
      </ul>
      {note && <p className="mt-4 text-sm font-medium text-slate-700">{note}</p>}
      {(state.showTrial || state.showSubscribe) && (
        <div className="mt-6 flex flex-col gap-2">
          {state.showTrial && (
            <Button onClick={() => onAction('trial', plan)} disabled={busy}>
              {spinner('trial')}
              Start free trial
            </Button>
          )}
          {state.showSubscribe && (
            <Button
              variant={state.showTrial ? 'secondary' : 'primary'}
              onClick={() => onAction('subscribe', plan)}
              disabled={busy}
            >
              {spinner('subscribe')}
              Subscribe
            </Button>
          )}
        </div>
      )}
    </li>
  );
}
