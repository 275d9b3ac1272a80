import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { PublicPage } from '@/components/layout/public-page';

interface StatusPageProps {
  code: string;
  title: string;
  message: string;
  icon: LucideIcon;
  /** The way(s) out: every error page offers at least one. */
  actions: ReactNode;
  children?: ReactNode;
}

export function StatusPage({
  code,
  title,
  message,
  icon: Icon,
  actions,
  children,
}: StatusPageProps) {
  return (
    <PublicPage>
      <title>{`${title} · Herald`}</title>
      <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-20 text-center sm:py-28">
        <span className="grid size-16 place-items-center rounded-full bg-indigo-50 text-indigo-600">
          <Icon className="size-8" aria-hidden="true" />
        </span>
        <p className="mt-6 text-sm font-semibold tracking-widest text-indigo-700">ERROR {code}</p>
        <h1 className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
          {title}
        </h1>
        <p className="mt-4 text-lg text-slate-600">{message}</p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">{actions}</div>
        {children}
      </section>
    </PublicPage>
  );
}
