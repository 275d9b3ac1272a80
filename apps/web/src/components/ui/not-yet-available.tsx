import { Construction } from 'lucide-react';
import { ButtonLink } from './button';

interface NotYetAvailableProps {
  /** The page's own title, e.g. "Team Management". */
  title: string;
  /** One sentence on what the page will do. */
  description: string;
  backTo?: string;
  backLabel?: string;
}

/**
 * Stands in for a screen that a later release delivers, so a link never lands on a blank page.
 */
export function NotYetAvailable({
  title,
  description,
  backTo = '/',
  backLabel = 'Back to home',
}: NotYetAvailableProps) {
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-16 text-center">
      <title>{`${title} · Herald`}</title>
      <span className="grid size-14 place-items-center rounded-full bg-indigo-50 text-indigo-600">
        <Construction className="size-7" aria-hidden="true" />
      </span>
      <h1 className="mt-6 text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
      <p className="mt-3 text-slate-600">{description}</p>
      <p className="mt-2 text-sm text-slate-600">
        This page is not available yet. It arrives in an upcoming release of Herald.
      </p>
      <ButtonLink to={backTo} variant="secondary" className="mt-8">
        {backLabel}
      </ButtonLink>
    </section>
  );
}
