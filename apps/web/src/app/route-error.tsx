import { isRouteErrorResponse, useRouteError } from 'react-router';
import { Button, ButtonLink } from '@/components/ui/button';
import { contactEmails, paths } from '@/config/paths';

/** Last line of defence: a render error shows a way out instead of a white page. */
export function RouteError() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : null;
  return (
    <main id="main" className="grid min-h-dvh place-items-center bg-slate-50 px-4">
      <div className="max-w-md text-center">
        <title>Something went wrong · Herald</title>
        <h1 className="text-2xl font-bold text-slate-900">Something went wrong</h1>
        <p className="mt-3 text-slate-600">
          This page hit an unexpected problem. Reloading usually helps; if it keeps happening, write
          to{' '}
          <a
            className="font-medium text-indigo-700 underline"
            href={`mailto:${contactEmails.support}`}
          >
            {contactEmails.support}
          </a>
          .
        </p>
        {detail && <p className="mt-2 text-sm text-slate-600">{detail}</p>}
        <div className="mt-6 flex justify-center gap-3">
          <Button onClick={() => window.location.reload()}>Reload page</Button>
          <ButtonLink to={paths.home} variant="secondary">
            Return Home
          </ButtonLink>
        </div>
      </div>
    </main>
  );
}
