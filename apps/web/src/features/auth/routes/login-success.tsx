import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { generatePath, useNavigate, useSearchParams } from 'react-router';
import { LogoMark } from '@/components/ui/logo';
import { LoadingIndicator } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { fetchMe, meQueryKey, useAuth } from '@/lib/auth';
import { setCurrentOrgId } from '@/lib/current-org';

export const SIGN_IN_INCOMPLETE = 'Sign-in did not complete. Please try again.';

/**
 * The server sends the browser here after sign-in. The session cookie is brand new, so the
 * cached "visitor" answer of /auth/me is refetched before moving on; otherwise the guard of
 * the next page would still see a visitor and bounce back to /login.
 */
export function LoginSuccessPage() {
  const [searchParams] = useSearchParams();
  const orgId = searchParams.get('orgId');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { user } = useAuth();

  useEffect(() => {
    let isCancelled = false;
    if (orgId) setCurrentOrgId(orgId);
    void queryClient
      .fetchQuery({ queryKey: meQueryKey, queryFn: fetchMe, staleTime: 0 })
      .then((session) => {
        if (isCancelled) return;
        if (!session) {
          void navigate(`${paths.login}?error=${encodeURIComponent(SIGN_IN_INCOMPLETE)}`, {
            replace: true,
          });
          return;
        }
        const next = orgId ? generatePath(paths.orgDashboard, { orgId }) : paths.onboarding;
        void navigate(next, { replace: true });
      });
    return () => {
      isCancelled = true;
    };
  }, [orgId, queryClient, navigate]);

  const name = user?.displayName?.trim();
  return (
    <main
      id="main"
      className="grid min-h-dvh place-items-center bg-gradient-to-b from-indigo-50 to-white px-4"
    >
      <title>Signing you in · Herald</title>
      <div className="flex max-w-md flex-col items-center text-center">
        <LogoMark className="size-12" />
        <h1 className="mt-6 text-2xl font-bold tracking-tight text-slate-900">
          {name ? `Welcome, ${name}!` : 'Welcome to Herald!'}
        </h1>
        <p className="mt-2 text-slate-600">We&apos;re setting things up for you...</p>
        <LoadingIndicator label="Signing you in" className="mt-8" />
      </div>
    </main>
  );
}
