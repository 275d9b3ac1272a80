import { Navigate, Outlet } from 'react-router';
import { FullPageSpinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { useAuth } from '@/lib/auth';

interface RequireAuthProps {
  /** The route works inside an organization: without one, go choose or create it. */
  requireOrg?: boolean;
  /** The route belongs to the back-office (platform operators only). */
  requireAdmin?: boolean;
}

/**
 * docs/product.md#access-rules as a layout route: visitors go to /login, signed-in users without a
 * current organization to /onboarding, non-operators on admin routes to /403.
 */
export function RequireAuth({ requireOrg = false, requireAdmin = false }: RequireAuthProps) {
  const { isLoading, user, currentOrgId } = useAuth();

  if (isLoading) return <FullPageSpinner label="Checking your session…" />;
  if (!user) return <Navigate to={paths.login} replace />;
  if (requireAdmin && !user.isAdmin) return <Navigate to={paths.forbidden} replace />;
  if (requireOrg && !currentOrgId) return <Navigate to={paths.onboarding} replace />;
  return <Outlet />;
}
