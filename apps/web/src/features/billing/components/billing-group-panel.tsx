import type { BillingGroup, CoverageState } from '@herald/contract';
import { Building2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/cn';
import { featureLabel } from '@/lib/plans';
import { toast, toastError } from '@/lib/toast';
import { useChooseCoverage } from '../api/subscription';

type PayerView = Extract<BillingGroup, { role: 'payer' }>;

const organizationsWord = (n: number) => `organization${n === 1 ? '' : 's'}`;

/** "3 of 10 organizations covered" (docs/product.md#billing-groups). */
export const coveredCount = (covered: number, limit: number) =>
  `${covered} of ${limit} ${organizationsWord(limit)} covered`;

export const STATE_LABELS: Record<CoverageState, string> = {
  payer: 'Pays for the plan',
  covered: 'Covered',
  not_covered: 'Not covered',
  own_plan: 'Has its own plan',
};

const stateClasses: Record<CoverageState, string> = {
  payer: 'bg-indigo-100 text-indigo-900',
  covered: 'bg-emerald-100 text-emerald-900',
  not_covered: 'bg-slate-200 text-slate-800',
  own_plan: 'bg-blue-100 text-blue-900',
};

/** How the plan spreads over the group, in a sentence or two. */
export function groupExplanation(group: PayerView, payerName: string): string {
  const who = group.isSubscriber
    ? `Your ${group.plan.name} plan covers the organizations you own, oldest first, up to ${group.limit}. New ones join it on creation.`
    : `The ${group.plan.name} plan covers the organizations owned by the owner of ${payerName}, oldest first, up to ${group.limit}.`;
  const limits =
    group.pooled.length > 0
      ? ` Shared by all of them: ${group.pooled.map(featureLabel).join(', ')}; the other limits apply to each organization.`
      : ' Its limits apply to each organization.';
  return who + limits;
}

export const chooseNote = (room: number) =>
  `You own more organizations than your plan covers. Choose the ${room === 1 ? 'one' : room} to cover besides this one, or upgrade to cover more.`;
export const notSubscriberNote = (payerName: string) =>
  `Only the owner of ${payerName} chooses which organizations are covered.`;

/**
 * The paying organization's billing group (docs/product.md#billing-groups): how many of the
 * plan's organizations are covered, which, and for the subscriber, when they own more than it
 * covers, the choice of which.
 */
export function BillingGroupPanel({
  orgId,
  group,
  canChoose,
}: {
  orgId: string;
  group: PayerView;
  /** The caller owns the paying organization and may manage its subscription. */
  canChoose: boolean;
}) {
  const choose = useChooseCoverage(orgId);
  const payer = group.organizations.find((o) => o.state === 'payer');
  const payerName = payer?.name ?? '';
  const candidates = group.organizations.filter(
    (o) => o.state === 'covered' || o.state === 'not_covered',
  );
  const overLimit = group.organizations.some((o) => o.state === 'not_covered');
  const room = group.limit - 1;
  const [choosing, setChoosing] = useState(false);
  const [chosen, setChosen] = useState<string[]>([]);

  const startChoosing = () => {
    setChosen(candidates.filter((o) => o.state === 'covered').map((o) => o.id));
    setChoosing(true);
  };
  const toggle = (id: string, on: boolean) =>
    setChosen((previous) => (on ? [...previous, id] : previous.filter((x) => x !== id)));
  const save = () =>
    choose.mutate(chosen, {
      onSuccess: () => {
        toast.success('Covered organizations saved.');
        setChoosing(false);
      },
      onError: (error) => toastError(error, 'Could not save the covered organizations.'),
    });

  return (
    <section
      aria-labelledby="billing-group-title"
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="billing-group-title" className="text-lg font-semibold text-slate-900">
          Organizations covered
        </h2>
        <p className="text-sm font-semibold text-slate-900">
          {coveredCount(group.coveredCount, group.limit)}
        </p>
      </div>
      <p className="mt-1 text-sm text-slate-600">{groupExplanation(group, payerName)}</p>
      {overLimit && (
        <p className="mt-2 text-sm text-slate-700">
          {canChoose ? chooseNote(room) : notSubscriberNote(payerName)}
        </p>
      )}

      <ul
        aria-label="Organizations of the billing group"
        className="mt-4 divide-y divide-slate-100"
      >
        {group.organizations.map((o) => {
          const selectable = choosing && (o.state === 'covered' || o.state === 'not_covered');
          const checked = chosen.includes(o.id);
          return (
            <li key={o.id} className="flex items-center gap-3 py-2.5">
              {selectable ? (
                <input
                  type="checkbox"
                  aria-label={`Cover ${o.name}`}
                  checked={checked}
                  disabled={!checked && chosen.length >= room}
                  onChange={(event) => toggle(o.id, event.target.checked)}
                  className="size-4 rounded border-slate-300 text-indigo-600"
                />
              ) : (
                <Building2 className="size-4 shrink-0 text-slate-500" aria-hidden="true" />
              )}
              <span className="min-w-0 flex-1 truncate text-sm font-medium text-slate-900">
                {o.name}
              </span>
              <span
                className={cn(
                  'shrink-0 rounded-full px-2.5 py-0.5 text-xs font-semibold',
                  stateClasses[o.state],
                )}
              >
                {STATE_LABELS[o.state]}
              </span>
            </li>
          );
        })}
      </ul>

      {canChoose && overLimit && (
        <div className="mt-4 flex flex-wrap gap-2">
          {choosing ? (
            <>
              <Button onClick={save} disabled={choose.isPending}>
                {choose.isPending && <Spinner className="size-4 text-current" />}
                Save covered organizations
              </Button>
              <Button
                variant="secondary"
                onClick={() => setChoosing(false)}
                disabled={choose.isPending}
              >
                Cancel
              </Button>
            </>
          ) : (
            <Button variant="secondary" onClick={startChoosing}>
              Choose covered organizations
            </Button>
          )}
        </div>
      )}
    </section>
  );
}
