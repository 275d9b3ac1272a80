import { CircleAlert } from 'lucide-react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { paths } from '@/config/paths';
import { homePathFor, useAuth } from '@/lib/auth';
import { AuthLayout } from '../components/auth-layout';
import { SignInButton } from '../components/sign-in-button';

export function LoginPage() {
  const { isAuthenticated, currentOrgId } = useAuth();
  const [searchParams] = useSearchParams();
  const error = searchParams.get('error');

  if (isAuthenticated) return <Navigate to={homePathFor(currentOrgId)} replace />;

  return (
    <AuthLayout
      title="Sign in to Herald"
      subtitle="Use your organization's account to reach your workspace. No password to remember."
    >
      {error && (
        <div
          role="alert"
          className="mb-6 flex gap-3 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800"
        >
          <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <p>{error}</p>
        </div>
      )}
      <SignInButton />
      <p className="mt-6 text-center text-sm text-slate-600">
        New to Herald?{' '}
        <Link
          to={paths.signup}
          className="font-semibold text-indigo-700 underline-offset-4 hover:underline"
        >
          Start your free trial
        </Link>
      </p>
    </AuthLayout>
  );
}
