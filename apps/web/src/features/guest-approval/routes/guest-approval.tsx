import { brandTextColor, type GuestApproval } from '@herald/contract';
import { CircleAlert, CircleCheck, Clock, Link2Off } from 'lucide-react';
import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import { initialsOf } from '@/components/ui/avatar';
import { LoadError } from '@/components/ui/load-error';
import { LogoMark } from '@/components/ui/logo';
import { LoadingIndicator } from '@/components/ui/spinner';
import { errorMessage, isApiError } from '@/lib/api-error';
import { browserTimeZone, timeZoneLabel } from '@/lib/time-zone';
import { formatInZone } from '@/lib/zoned-time';
import { goneState, useGuestApproval } from '../api/guest-approval';
import { GuestPostCard } from '../components/guest-post-card';

export const ALL_DECIDED =
  'Thank you: nothing else waits for your decision. The team has been told; you can close this page.';
export const LINK_UNKNOWN_TITLE = 'This link does not work';
export const LINK_REVOKED_TITLE = 'This link was withdrawn';
export const LINK_EXPIRED_TITLE = 'This link has expired';
export const LOAD_FAILED = 'The posts could not be loaded. Check your connection and try again.';

/** A page of its own, outside the app: the Herald mark at the foot, nothing to sign in to. */
function GuestShell({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col bg-gradient-to-b from-indigo-50 to-slate-50">
      <title>{`${title} · Herald`}</title>
      {/* The link is a secret: no search engine should keep the page. */}
      <meta name="robots" content="noindex, nofollow" />
      <main id="main" className="mx-auto w-full max-w-3xl flex-1 px-4 py-6 sm:py-10">
        {children}
      </main>
      <footer className="flex items-center justify-center gap-2 py-6 text-xs text-slate-500">
        <LogoMark className="h-4 w-4" />
        Sent with Herald
      </footer>
    </div>
  );
}

/** Why the link shows nothing: unknown, withdrawn, expired. */
function LinkProblem({ title, message }: { title: string; message: string }) {
  const Icon =
    title === LINK_EXPIRED_TITLE ? Clock : title === LINK_REVOKED_TITLE ? Link2Off : CircleAlert;
  return (
    <GuestShell title={title}>
      <div className="mx-auto mt-10 flex max-w-md flex-col items-center rounded-2xl border border-slate-200 bg-white p-8 text-center shadow-sm">
        <Icon className="size-10 text-slate-400" aria-hidden="true" />
        <h1 className="mt-4 text-xl font-bold tracking-tight text-slate-900">{title}</h1>
        <p className="mt-2 text-slate-600">{message}</p>
      </div>
    </GuestShell>
  );
}

/**
 * The organization as the client knows it (docs/reports.md#branding): its logo, else its
 * initials on its brand colour (Herald's indigo without one), the text colour chosen for contrast.
 */
function OrganizationBadge({ organization }: { organization: GuestApproval['organization'] }) {
  const { logoUrl, color } = organization.branding;
  if (logoUrl)
    return (
      <span className="grid h-12 max-w-40 shrink-0 place-items-center rounded-xl border border-slate-200 bg-white p-1.5">
        <img
          src={logoUrl}
          alt={`${organization.name} logo`}
          className="max-h-full max-w-full object-contain"
        />
      </span>
    );
  return (
    <span
      aria-hidden="true"
      className="grid size-12 shrink-0 place-items-center rounded-xl bg-indigo-600 text-lg font-bold text-white"
      style={color ? { backgroundColor: color, color: brandTextColor(color) } : undefined}
    >
      {initialsOf(organization.name)}
    </span>
  );
}

function Header({ page, zone }: { page: GuestApproval; zone: string }) {
  const count = page.posts.length;
  const until = formatInZone(page.expiresAt, zone, 'MMM D, YYYY [at] h:mm A');
  return (
    <header className="flex flex-col gap-4">
      <div className="flex items-center gap-3">
        <OrganizationBadge organization={page.organization} />
        <div className="min-w-0">
          <p className="truncate text-sm font-semibold text-slate-700">{page.organization.name}</p>
          <h1 className="text-2xl font-bold tracking-tight text-slate-900">
            {count === 1 ? 'Please review this post' : `Please review these ${count} posts`}
          </h1>
        </div>
      </div>
      <p className="text-sm text-slate-700">
        {page.approverName ? `Hello ${page.approverName}, ` : ''}
        {page.sentBy ? `${page.sentBy} ` : 'The team '}
        asks you to approve {count === 1 ? 'it' : 'them'} before{' '}
        {count === 1 ? 'it goes' : 'they go'} out. Each account’s post is shown as it will be
        published.
      </p>
      {page.message && (
        <blockquote className="rounded-xl border-l-4 border-indigo-300 bg-white p-3 text-sm break-words whitespace-pre-wrap text-slate-800 shadow-sm">
          {page.message}
        </blockquote>
      )}
      <p className="text-xs text-slate-600">
        Times are in {timeZoneLabel(zone)}. This link works until {until ?? 'its end date'}.
      </p>
    </header>
  );
}

/**
 * /approve/{token} (docs/product.md#client-approval-links): a client without an account reads
 * each post as it will go out and approves it or asks for changes, once per post.
 */
export function GuestApprovalPage() {
  const token = useParams().token ?? '';
  const link = useGuestApproval(token);
  const zone = browserTimeZone() ?? 'UTC';

  if (link.isPending) {
    return (
      <GuestShell title="Review posts">
        <LoadingIndicator label="Loading the posts" className="py-20" />
      </GuestShell>
    );
  }
  if (link.isError) {
    const gone = goneState(link.error);
    if (gone === 'revoked')
      return <LinkProblem title={LINK_REVOKED_TITLE} message={link.error.message} />;
    if (gone === 'expired')
      return <LinkProblem title={LINK_EXPIRED_TITLE} message={link.error.message} />;
    if (isApiError(link.error) && link.error.status === 404)
      return <LinkProblem title={LINK_UNKNOWN_TITLE} message={link.error.message} />;
    return (
      <GuestShell title="Review posts">
        <LoadError
          title="Could not load the posts"
          titleAs="h1"
          message={errorMessage(link.error, LOAD_FAILED)}
          onRetry={() => void link.refetch()}
          isRetrying={link.isFetching}
        />
      </GuestShell>
    );
  }

  const page = link.data;
  const waiting = page.posts.filter((post) => post.state === 'waiting').length;
  const decided = page.posts.filter(
    (post) => post.state === 'approved' || post.state === 'changes_requested',
  ).length;
  return (
    <GuestShell title={`Review posts for ${page.organization.name}`}>
      <div className="flex flex-col gap-6">
        <Header page={page} zone={zone} />
        <p aria-live="polite" className="sr-only">
          {`${decided} of ${page.posts.length} decided`}
        </p>
        {waiting === 0 && decided > 0 && (
          <p
            role="status"
            className="flex gap-3 rounded-2xl border border-emerald-200 bg-emerald-50 p-4 text-sm font-medium text-emerald-900"
          >
            <CircleCheck className="size-5 shrink-0" aria-hidden="true" />
            {ALL_DECIDED}
          </p>
        )}
        <ol aria-label="Posts to review" className="flex flex-col gap-6">
          {page.posts.map((post, index) => (
            <GuestPostCard
              key={post.id}
              token={token}
              post={post}
              zone={zone}
              index={index}
              count={page.posts.length}
              onGone={() => void link.refetch()}
            />
          ))}
        </ol>
      </div>
    </GuestShell>
  );
}
