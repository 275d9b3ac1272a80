import { ChevronRight, Inbox, PenSquare, Settings, Users, type LucideIcon } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { usePermissions } from '@/lib/permissions';

const memberLine = (count: number) => `${count} ${count === 1 ? 'member' : 'members'}`;

/**
 * docs/product.md#dashboard: shortcuts to /create-post, /inbox (for members who may read
 * messages), /team and /settings.
 */
export function QuickActions({ memberCount }: { memberCount: number }) {
  const canViewInbox = usePermissions().has('dm:view');
  const actions: Array<{ to: string; label: string; hint: string; icon: LucideIcon }> = [
    { to: paths.createPost, label: 'Create a post', hint: 'Write and schedule', icon: PenSquare },
    ...(canViewInbox
      ? [{ to: paths.inbox, label: 'Open the inbox', hint: 'Messages and comments', icon: Inbox }]
      : []),
    { to: paths.team, label: 'Manage the team', hint: memberLine(memberCount), icon: Users },
    { to: paths.settings, label: 'Settings', hint: 'Profile and accounts', icon: Settings },
  ];
  return (
    <section
      aria-labelledby="quick-actions-heading"
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id="quick-actions-heading" className="text-lg font-semibold text-slate-900">
        Quick Actions
      </h2>
      <ul className="mt-3 grid gap-2 sm:grid-cols-2">
        {actions.map(({ to, label, hint, icon: Icon }) => (
          <li key={to}>
            <Link
              to={to}
              className="flex items-center gap-3 rounded-xl border border-slate-200 p-3 hover:border-indigo-300 hover:bg-indigo-50 focus-visible:outline-2 focus-visible:outline-indigo-600"
            >
              <Icon className="size-5 shrink-0 text-indigo-700" aria-hidden="true" />
              <span className="min-w-0 flex-1">
                <span className="block text-sm font-semibold text-slate-900">{label}</span>
                <span className="block text-xs text-slate-600">{hint}</span>
              </span>
              <ChevronRight className="size-4 text-slate-400" aria-hidden="true" />
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
