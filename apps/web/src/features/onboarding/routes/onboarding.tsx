import { Building2, MailOpen } from 'lucide-react';
import { ProfileMenu } from '@/components/layout/profile-menu';
import { Logo } from '@/components/ui/logo';
import { useAuth } from '@/lib/auth';

const steps = [
  {
    icon: Building2,
    title: 'Create an organization',
    text: 'An organization holds your team, connected accounts and posts.',
  },
  {
    icon: MailOpen,
    title: 'Join your team',
    text: 'Invitations sent to your email address will be listed here to accept.',
  },
];

/**
 * Where a signed-in user without an organization lands. The organizations issue adds the
 * create, invitation and switch cards; until then the page greets the user and says so.
 */
export function OnboardingPage() {
  const { user } = useAuth();
  const name = user?.displayName?.trim() || user?.email || '';

  return (
    <div className="min-h-dvh bg-slate-50">
      <title>Welcome · Herald</title>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-5xl items-center justify-between px-4 py-3 sm:px-6">
          <Logo />
          <ProfileMenu />
        </div>
      </header>
      <main id="main" className="mx-auto max-w-5xl px-4 py-12 sm:px-6">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900">Welcome, {name}!</h1>
        <p className="mt-2 text-lg text-slate-600">
          Let&apos;s get your workspace ready. Herald works inside an organization.
        </p>
        <ul className="mt-10 grid gap-6 md:grid-cols-2">
          {steps.map(({ icon: Icon, title, text }) => (
            <li key={title} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
              <span className="grid size-11 place-items-center rounded-xl bg-indigo-50 text-indigo-700">
                <Icon className="size-5" aria-hidden="true" />
              </span>
              <h2 className="mt-4 text-lg font-semibold text-slate-900">{title}</h2>
              <p className="mt-1 text-slate-600">{text}</p>
              <p className="mt-4 text-sm font-medium text-slate-600">
                Not available yet — coming soon.
              </p>
            </li>
          ))}
        </ul>
      </main>
    </div>
  );
}
