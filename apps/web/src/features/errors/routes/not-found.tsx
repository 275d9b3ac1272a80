import { Compass } from 'lucide-react';
import { ButtonLink } from '@/components/ui/button';
import { contactEmails, paths } from '@/config/paths';
import { StatusPage } from '../components/status-page';

export function NotFoundPage() {
  return (
    <StatusPage
      code="404"
      title="Page Not Found"
      message="The page you are looking for does not exist or has moved."
      icon={Compass}
      actions={<ButtonLink to={paths.home}>Go Home</ButtonLink>}
    >
      <p className="mt-10 text-sm text-slate-600">
        Followed a link that should work? Tell us at{' '}
        <a
          href={`mailto:${contactEmails.support}`}
          className="font-medium text-indigo-700 underline underline-offset-4"
        >
          {contactEmails.support}
        </a>
        .
      </p>
    </StatusPage>
  );
}
