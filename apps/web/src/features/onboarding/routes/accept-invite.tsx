import { CircleAlert, CircleCheck } from 'lucide-react';
import { useEffect, useRef, type ReactNode } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { Button, ButtonLink } from '@/components/ui/button';
import { LogoMark } from '@/components/ui/logo';
import { LoadingIndicator } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { REDIRECT_DELAYS } from '@/config/timing';
import { errorMessage, isApiError } from '@/lib/api-error';
import { signInUrlFor, useAuth } from '@/lib/auth';
import { goToExternal } from '@/lib/browser';
import { useDelayedNavigate } from '@/lib/use-delayed-navigate';
import { useAcceptInvite } from '../api/invitations';

export const INVALID_LINK = 'Invalid invitation link.';
export const LOGIN_REQUIRED =
  'You need to be logged in to accept an invitation. Please login first.';
export const ACCEPT_PAGE_FAILED =
  'An error occurred while accepting the invitation. It might be expired or invalid.';

function Card({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main
      id="main"
      className="grid min-h-dvh place-items-center bg-gradient-to-b from-indigo-50 to-white px-4"
    >
      <title>{`${title} · Herald`}</title>
      <div className="flex w-full max-w-md flex-col items-center rounded-2xl border border-slate-200 bg-white p-8 text-center shadow-sm">
        <LogoMark className="size-10" />
        <h1 className="mt-6 text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
        {children}
      </div>
    </main>
  );
}

/**
 * /invite/accept?token=…: the link from an invitation. A signed-in user joins at once and goes
 * to the dashboard; a visitor is asked to sign in and comes back here afterwards.
 */
export function AcceptInvitePage() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token')?.trim() ?? '';
  const { pathname, search } = useLocation();
  const { isLoading, isAuthenticated } = useAuth();
  const accept = useAcceptInvite();
  const { mutate: acceptToken } = accept;
  const navigateLater = useDelayedNavigate();
  // A token is single-use: never send it twice (React runs effects twice in development).
  const submittedToken = useRef<string | null>(null);

  useEffect(() => {
    if (!token || !isAuthenticated || submittedToken.current === token) return;
    submittedToken.current = token;
    acceptToken(
      { token },
      { onSuccess: () => navigateLater(paths.dashboard, REDIRECT_DELAYS.afterAcceptPage) },
    );
  }, [token, isAuthenticated, acceptToken, navigateLater]);

  if (token && (isLoading || (isAuthenticated && !accept.isSuccess && !accept.isError))) {
    return (
      <Card title="Accepting invitation">
        <p className="mt-2 text-slate-600">Please wait while we add you to the organization…</p>
        <LoadingIndicator label="Accepting your invitation" className="mt-8" />
      </Card>
    );
  }

  if (accept.isSuccess) {
    return (
      <Card title="Invitation accepted">
        <CircleCheck className="mt-4 size-10 text-emerald-600" aria-hidden="true" />
        <p role="status" className="mt-4 text-slate-700">
          You joined <strong>{accept.data.organization.name}</strong>. Taking you to your dashboard
          in 3 seconds…
        </p>
        <ButtonLink to={paths.dashboard} className="mt-8">
          Go to Dashboard
        </ButtonLink>
      </Card>
    );
  }

  const needsLogin =
    !!token && (!isAuthenticated || (isApiError(accept.error) && accept.error.status === 401));
  const message = !token
    ? INVALID_LINK
    : needsLogin
      ? LOGIN_REQUIRED
      : errorMessage(accept.error, ACCEPT_PAGE_FAILED);

  return (
    <Card title="Could not accept invitation">
      <div
        role="alert"
        className="mt-4 flex gap-3 rounded-lg border border-red-200 bg-red-50 p-3 text-left text-sm text-red-800"
      >
        <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <p>{message}</p>
      </div>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <ButtonLink to={paths.dashboard} variant="secondary">
          Go to Dashboard
        </ButtonLink>
        {token ? (
          // Signing in (again, or as the invited address) comes back to this very link.
          <Button onClick={() => goToExternal(signInUrlFor(`${pathname}${search}`))}>
            Go to Login
          </Button>
        ) : (
          <ButtonLink to={paths.login}>Go to Login</ButtonLink>
        )}
      </div>
    </Card>
  );
}
