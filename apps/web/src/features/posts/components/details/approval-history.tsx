import type { ApprovalEvent } from '@herald/contract';
import { useId } from 'react';
import { useApprovalEvents } from '@/lib/approvals';
import { formatPostDate } from '../post-dates';

const VERBS: Record<ApprovalEvent['action'], string> = {
  submitted: 'Submitted for approval',
  approved: 'Approved',
  rejected: 'Rejected',
};

/** A member by name; a client of an approval link by the name (or email) the link gives. */
function deciderOf(event: ApprovalEvent): string {
  if (event.guest) {
    const who = event.guest.name?.trim() || event.guest.email || 'a client';
    return `${who} (client${event.guest.name && event.guest.email ? `, ${event.guest.email}` : ''})`;
  }
  return event.user?.displayName?.trim() || 'a former member';
}

/**
 * docs/product.md#approvals: who submitted, approved or rejected the post, and when (with the
 * rejection's reason). Nothing shows for a post that never went through approval.
 */
export function ApprovalHistory({
  orgId,
  postId,
  zone,
}: {
  orgId: string;
  postId: string;
  zone: string;
}) {
  const headingId = useId();
  const events = useApprovalEvents(orgId, postId);
  if (!events.data || events.data.length === 0) return null;
  return (
    <div className="mt-4 border-t border-slate-200 pt-3">
      <h3 id={headingId} className="text-sm font-semibold text-slate-900">
        Approval history
      </h3>
      <ol aria-labelledby={headingId} className="mt-2 flex flex-col gap-2 text-sm">
        {events.data.map((event) => (
          <li key={event.id} className="text-slate-700">
            <span className="font-medium text-slate-900">{VERBS[event.action]}</span> by{' '}
            {deciderOf(event)} · {formatPostDate(event.createdAt, zone, { empty: 'Unknown' })}
            {event.reason && (
              <span className="mt-0.5 block break-words text-slate-600">
                Reason: {event.reason}
              </span>
            )}
          </li>
        ))}
      </ol>
    </div>
  );
}
