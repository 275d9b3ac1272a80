import type { Notification } from '@herald/contract';
import dayjs from 'dayjs';
import { BellRing, CircleAlert, FileText, Mail, MailOpen } from 'lucide-react';
import type { ReactNode } from 'react';
import { generatePath, Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { LoadingIndicator } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { errorMessage, isApiError } from '@/lib/api-error';
import { useAuth } from '@/lib/auth';
import { usePost } from '@/lib/posts';
import { useRelativeTime } from '@/lib/relative-time';
import { PriorityBadge, ResolvedTag } from './notification-item';
import { TYPE_LABELS } from './notification-format';

export const NO_SELECTION = 'No Notification Selected';
export const DETAILS_FAILED = 'Error loading details';
export const POST_UNAVAILABLE = 'Post Details Unavailable';

/** Where each kind of notification leads, besides its post. */
const followUps: Partial<Record<Notification['type'], { to: string; label: string }>> = {
  SUBSCRIPTION_UPDATE: { to: paths.pricing, label: 'View plans' },
  PAYMENT_ISSUE: { to: paths.pricing, label: 'View plans' },
  PLATFORM_DISCONNECTED: { to: paths.settings, label: 'Open connected platforms' },
  PLATFORM_EXPIRING: { to: paths.settings, label: 'Open connected platforms' },
  ORGANIZATION_INVITE: { to: paths.onboarding, label: 'See invitations' },
  POST_SUBMITTED: { to: paths.approvals, label: 'Open approvals' },
};

function Placeholder({
  icon,
  title,
  children,
}: {
  icon: ReactNode;
  title: string;
  children: ReactNode;
}) {
  return (
    <div className="flex flex-col items-center gap-3 px-6 py-16 text-center">
      <span className="grid size-12 place-items-center rounded-full bg-slate-100 text-slate-500">
        {icon}
      </span>
      <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
      <div className="max-w-sm text-sm text-slate-600">{children}</div>
    </div>
  );
}

/**
 * The post a publishing notification is about: a link to its details. A post deleted since then
 * says so calmly (it is not an error of this page).
 */
function LinkedPost({ postId }: { postId: string }) {
  const { currentOrgId } = useAuth();
  const post = usePost(currentOrgId, postId);
  if (isApiError(post.error) && post.error.status === 404) {
    return (
      <div className="rounded-xl border border-slate-200 bg-slate-50 p-4 text-sm text-slate-700">
        <p className="font-semibold text-slate-900">{POST_UNAVAILABLE}</p>
        <p className="mt-1">This post has been deleted since.</p>
      </div>
    );
  }
  return (
    <Link
      to={generatePath(paths.postDetails, { postId })}
      className="inline-flex items-center gap-2 self-start rounded-lg bg-indigo-600 px-3 py-2 text-sm font-semibold text-white shadow-sm hover:bg-indigo-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
    >
      <FileText className="size-4" aria-hidden="true" />
      View post
    </Link>
  );
}

function Details({
  notification,
  onToggleRead,
}: {
  notification: Notification;
  onToggleRead: () => void;
}) {
  const { type, priority, message, createdAt, read, postId, resolvedAt } = notification;
  const ago = useRelativeTime(createdAt);
  const followUp = followUps[type];
  return (
    <article className="flex flex-col gap-5 p-6">
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex flex-col gap-2">
          <h2 className="text-xl font-semibold text-slate-900">{TYPE_LABELS[type]}</h2>
          <p className="flex flex-wrap items-center gap-2 text-sm text-slate-600">
            <PriorityBadge priority={priority} />
            <ResolvedTag resolvedAt={resolvedAt} />
            <span>{read ? 'Read' : 'Unread'}</span>
          </p>
        </div>
        <Button variant="secondary" size="sm" onClick={onToggleRead}>
          {read ? (
            <Mail className="size-4" aria-hidden="true" />
          ) : (
            <MailOpen className="size-4" aria-hidden="true" />
          )}
          {read ? 'Mark as unread' : 'Mark as read'}
        </Button>
      </header>
      <p className="text-base whitespace-pre-line text-slate-800">{message}</p>
      {postId && <LinkedPost postId={postId} />}
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-600">Received</dt>
        <dd className="text-slate-900">
          <time dateTime={createdAt}>{dayjs(createdAt).format('MMM D, YYYY h:mm A')}</time> ({ago})
        </dd>
        {resolvedAt && (
          <>
            <dt className="text-slate-600">Resolved</dt>
            <dd className="text-slate-900">
              <time dateTime={resolvedAt}>{dayjs(resolvedAt).format('MMM D, YYYY h:mm A')}</time>{' '}
              (the post was fixed or published since)
            </dd>
          </>
        )}
      </dl>
      {followUp && (
        <Link
          to={followUp.to}
          className="self-start text-sm font-semibold text-indigo-700 underline hover:text-indigo-900"
        >
          {followUp.label}
        </Link>
      )}
    </article>
  );
}

interface NotificationDetailProps {
  selectedId: string | null;
  notification: Notification | undefined;
  isLoading: boolean;
  error: unknown;
  onRetry: () => void;
  onToggleRead: (notification: Notification) => void;
}

/** The right-hand pane (docs/product.md#notifications): placeholder, loading, error, or the chosen notification. */
export function NotificationDetail({
  selectedId,
  notification,
  isLoading,
  error,
  onRetry,
  onToggleRead,
}: NotificationDetailProps) {
  const render = () => {
    if (!selectedId) {
      return (
        <Placeholder icon={<BellRing className="size-6" aria-hidden="true" />} title={NO_SELECTION}>
          <p>Choose a notification in the list to read it here.</p>
        </Placeholder>
      );
    }
    if (isLoading) return <LoadingIndicator label="Loading details" className="py-16" />;
    if (error || !notification) {
      const detail = error
        ? errorMessage(error, 'The notification could not be loaded.')
        : 'This notification is no longer available.';
      return (
        <div role="alert">
          <Placeholder
            icon={<CircleAlert className="size-6 text-red-600" aria-hidden="true" />}
            title={DETAILS_FAILED}
          >
            <p>{detail}</p>
            {error ? (
              <Button variant="secondary" size="sm" className="mt-4" onClick={onRetry}>
                Try again
              </Button>
            ) : null}
          </Placeholder>
        </div>
      );
    }
    return <Details notification={notification} onToggleRead={() => onToggleRead(notification)} />;
  };

  return (
    <section
      aria-label="Notification details"
      className="min-h-80 rounded-2xl border border-slate-200 bg-white shadow-sm"
    >
      {render()}
    </section>
  );
}
