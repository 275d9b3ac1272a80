import { Check } from 'lucide-react';
import { Link, Navigate } from 'react-router';
import { paths } from '@/config/paths';
import { homePathFor, useAuth } from '@/lib/auth';
import { AuthLayout } from '../components/auth-layout';
import { SignInButton } from '../components/sign-in-button';

const promises = [
  '7-day free trial of every feature',
  'No credit card required',
  'Cancel anytime, in one click',
];

/**
 * Herald has no separate registration: the first sign-in creates the account, so this page
 * explains the trial and then uses the same button as /login.
 */
export function SignupPage() {
  const { isAuthenticated, currentOrgId } = useAuth();
  if (isAuthenticated) return <Navigate to={homePathFor(currentOrgId)} replace />;

  return (
    <AuthLayout
      title="Start your free trial"
      subtitle="Create your Herald account with the identity provider you already use. Your account is ready the moment you sign in."
    >
      <ul className="mb-8 space-y-3">
        {promises.map((promise) => (
          <li key={promise} className="flex items-center gap-3 text-sm text-slate-700">
            <span className="grid size-6 place-items-center rounded-full bg-emerald-100 text-emerald-700">
              <Check className="size-4" aria-hidden="true" />
            </span>
            {promise}
          </li>
        ))}
      </ul>
      <SignInButton />
      <p className="mt-6 text-center text-sm text-slate-600">
        Already have an account?{' '}
        <Link
          to={paths.login}
          className="font-semibold text-indigo-700 underline-offset-4 hover:underline"
        >
          Sign in
        </Link>
      </p>
    </AuthLayout>
  );
}
