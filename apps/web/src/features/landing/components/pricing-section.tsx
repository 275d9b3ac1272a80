import { usePlans } from '@/lib/plans';
import { PlanCard } from './plan-card';

export const PLANS_UNAVAILABLE = 'Pricing plans are currently unavailable. Please try again later.';
export const NO_PLANS = 'No pricing plans available at the moment.';

function PlanSkeleton() {
  return (
    <li className="flex animate-pulse flex-col gap-4 rounded-2xl border border-slate-200 bg-white p-8">
      <div className="h-5 w-24 rounded bg-slate-200" />
      <div className="h-4 w-full rounded bg-slate-200" />
      <div className="h-8 w-32 rounded bg-slate-200" />
      <div className="space-y-2 pt-2">
        {[0, 1, 2, 3].map((i) => (
          <div key={i} className="h-3 w-3/4 rounded bg-slate-200" />
        ))}
      </div>
      <div className="mt-4 h-10 w-full rounded-lg bg-slate-200" />
    </li>
  );
}

function PlanList() {
  const plans = usePlans();

  if (plans.isPending) {
    return (
      <div role="status" aria-label="Loading pricing plans">
        <ul className="grid gap-8 md:grid-cols-3" aria-hidden="true">
          <PlanSkeleton />
          <PlanSkeleton />
          <PlanSkeleton />
        </ul>
      </div>
    );
  }
  // docs/product.md#messages: on failure no stale list stays on screen, only the notice.
  if (plans.isError) {
    return (
      <p className="rounded-xl bg-slate-50 p-6 text-center text-slate-700">{PLANS_UNAVAILABLE}</p>
    );
  }
  if (plans.data.length === 0) {
    return <p className="rounded-xl bg-slate-50 p-6 text-center text-slate-700">{NO_PLANS}</p>;
  }
  return (
    <ul
      aria-label="Pricing plans"
      className="grid items-stretch gap-8 pt-4 md:grid-cols-2 lg:grid-cols-3"
    >
      {plans.data.map((plan) => (
        <PlanCard key={plan.id} plan={plan} />
      ))}
    </ul>
  );
}

export function PricingSection({ id }: { id: string }) {
  return (
    <section
      id={id}
      aria-labelledby="pricing-title"
      className="scroll-mt-20 bg-white py-20 sm:py-28"
    >
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="mx-auto max-w-2xl text-center">
          <p className="text-sm font-semibold tracking-wide text-indigo-700 uppercase">Pricing</p>
          <h2
            id="pricing-title"
            className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl"
          >
            Plans that grow with your team
          </h2>
          <p className="mt-4 text-lg text-slate-600">
            Every plan starts with a 7-day free trial. No credit card required, cancel anytime.
          </p>
        </div>
        <div className="mt-14">
          <PlanList />
        </div>
      </div>
    </section>
  );
}
