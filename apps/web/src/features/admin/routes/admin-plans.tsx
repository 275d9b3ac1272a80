import { ADMIN_PAGE_SIZE, type Plan } from '@herald/contract';
import { Pencil, Plus } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { DataTable, EmptyRow } from '@/components/ui/data-table';
import { LoadError } from '@/components/ui/load-error';
import { Pagination } from '@/components/ui/pagination';
import { LoadingIndicator } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { featureRows } from '@/lib/plans';
import { useAdminPlans } from '../api/plans';
import { usePagedSearch } from '../components/admin-search';
import { AdminPageHeader, formatDate, StatusBadge } from '../components/admin-ui';
import { formatPlanPrice } from '../components/plan-form';
import { PlanModal } from '../components/plan-modal';

export const PLANS_LOAD_FAILED = 'Failed to fetch plans.';
const columns = [
  'Name',
  'Description',
  'Price',
  'Billing Cycle',
  'Features',
  'Status',
  'Created At',
  { label: 'Actions', hidden: true as const },
];

function FeatureList({ plan }: { plan: Plan }) {
  return (
    <ul className="min-w-44 text-xs text-slate-600">
      {featureRows(plan).map(({ key, label, value }) => (
        <li key={key}>
          {label}: <span className="font-medium text-slate-800">{value}</span>
        </li>
      ))}
    </ul>
  );
}

/** /admin/plans (docs/product.md#admin-plans): every plan, active or not, paged on the server. */
export function AdminPlansPage() {
  const { query, page, setPage } = usePagedSearch();
  const plans = useAdminPlans(query, page);
  // undefined: closed; null: creating; a plan: editing it.
  const [editing, setEditing] = useState<Plan | null | undefined>(undefined);
  const rows = plans.data?.plans ?? [];

  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-6">
      <AdminPageHeader
        title="Plan Management"
        description="Create, view, and update subscription plans."
        action={
          <Button onClick={() => setEditing(null)}>
            <Plus className="size-4" aria-hidden="true" />
            New Plan
          </Button>
        }
      />
      {plans.isError && (
        <LoadError
          message={errorMessage(plans.error, PLANS_LOAD_FAILED)}
          onRetry={() => void plans.refetch()}
        />
      )}
      {plans.isPending ? (
        <LoadingIndicator label="Loading plans" className="py-16" />
      ) : (
        <>
          <DataTable caption="Plans" columns={columns} busy={plans.isPlaceholderData}>
            {rows.length === 0 ? (
              <EmptyRow colSpan={columns.length}>No plans found</EmptyRow>
            ) : (
              rows.map((plan) => (
                <tr key={plan.id} className="align-top">
                  <th scope="row" className="px-4 py-3 font-semibold text-slate-900">
                    {plan.name}
                    {plan.popular && (
                      <span className="ml-2 rounded-full bg-indigo-100 px-2 py-0.5 text-xs font-semibold text-indigo-800">
                        Popular
                      </span>
                    )}
                  </th>
                  <td className="max-w-xs px-4 py-3 text-slate-700">{plan.description}</td>
                  <td className="px-4 py-3 whitespace-nowrap text-slate-900">
                    {formatPlanPrice(plan.price)}
                  </td>
                  <td className="px-4 py-3 text-slate-700">
                    {plan.billingCycle === 'YEARLY' ? 'Yearly' : 'Monthly'}
                  </td>
                  <td className="px-4 py-3">
                    <FeatureList plan={plan} />
                  </td>
                  <td className="px-4 py-3">
                    <StatusBadge active={plan.status === 'ACTIVE'} />
                  </td>
                  <td className="px-4 py-3 whitespace-nowrap text-slate-700">
                    {formatDate(plan.createdAt)}
                  </td>
                  <td className="px-4 py-3 text-right">
                    <Button variant="ghost" size="sm" onClick={() => setEditing(plan)}>
                      <Pencil className="size-4" aria-hidden="true" />
                      Edit<span className="sr-only"> {plan.name}</span>
                    </Button>
                  </td>
                </tr>
              ))
            )}
          </DataTable>
          <Pagination
            label="Plans pages"
            page={page}
            pageSize={ADMIN_PAGE_SIZE}
            totalCount={plans.data?.totalCount ?? 0}
            onPageChange={setPage}
          />
        </>
      )}
      <PlanModal
        open={editing !== undefined}
        plan={editing ?? null}
        onClose={() => setEditing(undefined)}
      />
    </div>
  );
}
