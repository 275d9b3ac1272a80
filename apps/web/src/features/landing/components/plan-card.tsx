import type { Plan } from '@herald/contract';
import { ButtonLink } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import { featureRows, formatPrice } from '@/lib/plans';
import { FeatureItem } from '@/components/ui/feature-item';
import { isMostPopular, useTrialPath } from './plan-format';

export function PlanCard({ plan }: { plan: Plan }) {
  const popular = isMostPopular(plan);
  const trialTo = useTrialPath();

  return (
    <li
      className={cn(
        'relative flex flex-col rounded-2xl border bg-white p-8 shadow-sm',
        popular ? 'border-indigo-600 ring-2 ring-indigo-600' : 'border-slate-200',
      )}
    >
      {popular && (
        <p className="absolute -top-3.5 left-1/2 -translate-x-1/2 rounded-full bg-indigo-600 px-3 py-1 text-xs font-semibold text-white">
          Most Popular
        </p>
      )}
      <h3 className="text-lg font-semibold text-slate-900">{plan.name}</h3>
      <p className="mt-2 text-sm text-slate-600">{plan.description}</p>
      <p className="mt-6 text-3xl font-bold tracking-tight text-slate-900">
        {formatPrice(plan.price)}
      </p>
      <ul className="mt-6 flex-1 space-y-3 text-sm text-slate-700">
        {featureRows(plan).map(({ key, ...row }) => (
          <FeatureItem key={key} {...row} />
        ))}
      </ul>
      <ButtonLink to={trialTo} variant={popular ? 'primary' : 'secondary'} className="mt-8 w-full">
        {popular ? 'Get Basic Now' : 'Start Free Trial'}
      </ButtonLink>
    </li>
  );
}
