import { Link } from 'react-router';
import { Logo } from '@/components/ui/logo';
import { contactEmails, paths } from '@/config/paths';

const legalLinks = [
  { to: paths.privacyPolicy, label: 'Privacy Policy' },
  { to: paths.termsOfService, label: 'Terms of Service' },
  { to: paths.cookiePolicy, label: 'Cookie Policy' },
];

/** Footer of every public page: the legal pages must be one click away everywhere. */
export function SiteFooter() {
  return (
    <footer className="border-t border-slate-200 bg-slate-50">
      <div className="mx-auto flex max-w-6xl flex-col gap-8 px-4 py-10 sm:px-6 md:flex-row md:items-start md:justify-between">
        <div className="max-w-sm">
          <Logo />
          <p className="mt-3 text-sm text-slate-600">
            Plan, publish and answer across every social network from one calm workspace.
          </p>
        </div>
        <nav aria-label="Legal">
          <ul className="flex flex-col gap-2 text-sm sm:flex-row sm:gap-6">
            {legalLinks.map((link) => (
              <li key={link.to}>
                <Link
                  to={link.to}
                  className="text-slate-700 underline-offset-4 hover:text-indigo-700 hover:underline"
                >
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <div className="border-t border-slate-200">
        <p className="mx-auto max-w-6xl px-4 py-4 text-sm text-slate-600 sm:px-6">
          © {new Date().getFullYear()} Herald. Questions?{' '}
          <a
            href={`mailto:${contactEmails.support}`}
            className="font-medium text-indigo-700 underline-offset-4 hover:underline"
          >
            {contactEmails.support}
          </a>
        </p>
      </div>
    </footer>
  );
}
