import type { ReactNode } from 'react';
import { PublicPage } from '@/components/layout/public-page';

/** The date the legal texts were last revised; change it with every edit of their meaning. */
export const LEGAL_LAST_UPDATED = 'November 21, 2026';

interface LegalPageProps {
  title: string;
  summary: string;
  children: ReactNode;
}

/**
 * Long-form reading layout. Tailwind resets typography, so the prose spacing of paragraphs,
 * lists and headings inside the article is set once here.
 */
export function LegalPage({ title, summary, children }: LegalPageProps) {
  return (
    <PublicPage>
      <title>{`${title} · Herald`}</title>
      <article
        className={[
          'mx-auto max-w-3xl px-4 py-12 text-slate-700 sm:px-6 sm:py-16',
          '[&_h2]:mt-10 [&_h2]:text-xl [&_h2]:font-semibold [&_h2]:text-slate-900',
          '[&_h3]:mt-6 [&_h3]:font-semibold [&_h3]:text-slate-900',
          '[&_p]:mt-3 [&_p]:leading-7 [&_ul]:mt-3 [&_ul]:list-disc [&_ul]:space-y-2 [&_ul]:pl-6',
          '[&_li]:leading-7 [&_a]:font-medium [&_a]:text-indigo-700 [&_a]:underline',
          '[&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1.5 [&_code]:py-0.5 [&_code]:text-sm',
        ].join(' ')}
      >
        <header className="border-b border-slate-200 pb-6">
          <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">{title}</h1>
          <p className="mt-2! text-sm text-slate-600">Last updated: {LEGAL_LAST_UPDATED}</p>
          <p className="text-lg">{summary}</p>
        </header>
        {children}
      </article>
    </PublicPage>
  );
}

/** A mailto link for the contact addresses quoted in the texts. */
export function Mail({ to }: { to: string }) {
  return <a href={`mailto:${to}`}>{to}</a>;
}
