import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ButtonLink } from '@/components/ui/button';
import { LogoMark } from '@/components/ui/logo';
import { paths } from '@/config/paths';

interface AuthLayoutProps {
  title: string;
  subtitle: string;
  children: ReactNode;
}

/** The centred card shared by /login and /signup. */
export function AuthLayout({ title, subtitle, children }: AuthLayoutProps) {
  return (
    <div className="flex min-h-dvh flex-col bg-gradient-to-b from-indigo-50 via-white to-white">
      <title>{`${title} · Herald`}</title>
      <header className="mx-auto w-full max-w-6xl px-4 py-4 sm:px-6">
        <ButtonLink to={paths.home} variant="ghost" size="sm">
          <ArrowLeft className="size-4" aria-hidden="true" />
          Back
        </ButtonLink>
      </header>
      <main id="main" className="flex flex-1 items-start justify-center px-4 pt-8 pb-24 sm:pt-16">
        <div className="w-full max-w-md rounded-2xl border border-slate-200 bg-white p-8 shadow-sm">
          <LogoMark className="size-10" />
          <h1 className="mt-6 text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
          <p className="mt-2 text-slate-600">{subtitle}</p>
          <div className="mt-8">{children}</div>
          <p className="mt-8 text-xs leading-relaxed text-slate-600">
            By continuing you agree to our{' '}
            <Link to={paths.termsOfService} className="font-medium text-indigo-700 underline">
              Terms of Service
            </Link>{' '}
            and{' '}
            <Link to={paths.privacyPolicy} className="font-medium text-indigo-700 underline">
              Privacy Policy
            </Link>
            .
          </p>
        </div>
      </main>
    </div>
  );
}
