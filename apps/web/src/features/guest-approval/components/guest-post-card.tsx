import type { GuestPost } from '@herald/contract';
import { CircleCheck, CircleSlash, MessageSquareWarning } from 'lucide-react';
import { useId } from 'react';
import { formatInZone } from '@/lib/zoned-time';
import { AccountPreview } from './account-preview';
import { DecisionForm } from './decision-form';

const WHEN = 'ddd, MMM D, YYYY [at] h:mm A';

/** When the post goes out, in the reader's own time zone. */
function goesOut(post: GuestPost, zone: string): string {
  if (!post.scheduledAt) return 'Goes out as soon as it is approved';
  return `Goes out ${formatInZone(post.scheduledAt, zone, WHEN) ?? 'at its set time'}`;
}

/** What the client decided, or why the post no longer waits for them. */
function Outcome({ post, zone }: { post: GuestPost; zone: string }) {
  if (post.state === 'unavailable') {
    return (
      <p className="flex gap-3 rounded-2xl border border-slate-200 bg-slate-50 p-4 text-sm text-slate-700">
        <CircleSlash className="mt-0.5 size-5 shrink-0 text-slate-500" aria-hidden="true" />
        <span>{post.unavailableReason}</span>
      </p>
    );
  }
  const approved = post.state === 'approved';
  const Icon = approved ? CircleCheck : MessageSquareWarning;
  const when = post.decidedAt ? formatInZone(post.decidedAt, zone, WHEN) : null;
  return (
    <div
      role="status"
      className={
        approved
          ? 'flex gap-3 rounded-2xl border border-emerald-200 bg-emerald-50 p-4 text-sm text-emerald-900'
          : 'flex gap-3 rounded-2xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900'
      }
    >
      <Icon className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
      <div className="min-w-0">
        <p className="font-semibold">
          {approved ? 'You approved this post.' : 'You asked for changes.'}{' '}
          <span className="font-normal">
            {approved
              ? 'The team has been told; it goes out as planned.'
              : 'The team has been told and will revise it.'}
          </span>
        </p>
        {post.comment && (
          <p className="mt-1 break-words whitespace-pre-wrap">Your comment: {post.comment}</p>
        )}
        {when && <p className="mt-1 text-xs opacity-80">{when}</p>}
      </div>
    </div>
  );
}

/** One post of the link: each account's preview and the decision, or what became of it. */
export function GuestPostCard({
  token,
  post,
  zone,
  index,
  count,
  onGone,
}: {
  token: string;
  post: GuestPost;
  zone: string;
  index: number;
  count: number;
  onGone: () => void;
}) {
  const headingId = useId();
  return (
    <li
      aria-labelledby={headingId}
      className="flex flex-col gap-4 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6"
    >
      <header>
        {count > 1 && (
          <p className="text-xs font-semibold tracking-wide text-slate-500 uppercase">
            Post {index + 1} of {count}
          </p>
        )}
        <h2 id={headingId} className="text-lg font-semibold break-words text-slate-900">
          {post.label}
        </h2>
        {post.state === 'waiting' && (
          <p className="mt-1 text-sm text-slate-600">{goesOut(post, zone)}</p>
        )}
      </header>
      {post.state === 'waiting' ? (
        <>
          <div
            className={
              post.accounts.length > 1 ? 'grid items-start gap-4 md:grid-cols-2' : 'grid gap-4'
            }
          >
            {post.accounts.map((account, i) => (
              <AccountPreview
                key={`${account.network}-${account.accountName}-${i}`}
                account={account}
              />
            ))}
          </div>
          <DecisionForm token={token} postId={post.id} label={post.label} onGone={onGone} />
        </>
      ) : (
        <Outcome post={post} zone={zone} />
      )}
    </li>
  );
}
