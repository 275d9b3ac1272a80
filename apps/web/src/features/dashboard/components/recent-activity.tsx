import { FileText, Link2 } from 'lucide-react';
import { RelativeTime } from '@/components/ui/relative-time';
import type { ActivityItem } from './activity';

export const NO_ACTIVITY = 'No recent activity yet.';

/** docs/product.md#dashboard: the 4 newest things that happened (posts created, accounts connected). */
export function RecentActivity({ items }: { items: ActivityItem[] }) {
  return (
    <section
      aria-labelledby="activity-heading"
      className="flex flex-col gap-3 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id="activity-heading" className="text-lg font-semibold text-slate-900">
        Recent Activity
      </h2>
      {items.length === 0 ? (
        <p className="text-sm text-slate-600">{NO_ACTIVITY}</p>
      ) : (
        <ol aria-label="Recent activity" className="flex flex-col gap-3">
          {items.map((item) => {
            const Icon = item.kind === 'post' ? FileText : Link2;
            return (
              <li key={item.id} className="flex items-start gap-3">
                <span className="grid size-8 shrink-0 place-items-center rounded-full bg-slate-100 text-slate-600">
                  <Icon className="size-4" aria-hidden="true" />
                </span>
                <div className="min-w-0">
                  <p className="text-sm wrap-anywhere text-slate-900">{item.text}</p>
                  <RelativeTime iso={item.at} />
                </div>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
