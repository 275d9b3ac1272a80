import { Bell, CreditCard, FileText, Inbox, LayoutDashboard, Settings } from 'lucide-react';
import { NavLink } from 'react-router';
import { paths } from '@/config/paths';
import { cn } from '@/lib/cn';

/** Spec §9: the inbox badge is a fixed number until the inbox has real data. */
const INBOX_BADGE = 3;

const items = [
  { to: paths.dashboard, label: 'Dashboard', icon: LayoutDashboard },
  { to: paths.inbox, label: 'Inbox', icon: Inbox, badge: INBOX_BADGE },
  { to: paths.content, label: 'Posts', icon: FileText },
  { to: paths.pricing, label: 'Pricing', icon: CreditCard },
  { to: paths.notifications, label: 'Notifications', icon: Bell },
  { to: paths.settings, label: 'Settings', icon: Settings },
];

export function navLinkClasses({ isActive }: { isActive: boolean }) {
  return cn(
    'flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium transition-colors',
    'focus-visible:outline-2 focus-visible:outline-indigo-600',
    isActive
      ? 'bg-indigo-50 text-indigo-800'
      : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900',
  );
}

/** The sidebar's page links; the caller wraps them in the Main navigation landmark. */
export function SidebarNav({ onNavigate }: { onNavigate?: () => void }) {
  return (
    <ul className="flex flex-col gap-1">
      {items.map(({ to, label, icon: Icon, badge }) => (
        <li key={to}>
          <NavLink to={to} className={navLinkClasses} onClick={onNavigate}>
            <Icon className="size-5 shrink-0" aria-hidden="true" />
            <span className="flex-1">{label}</span>
            {badge !== undefined && (
              <span className="rounded-full bg-indigo-600 px-2 py-0.5 text-xs font-semibold text-white">
                {badge}
                <span className="sr-only"> unread</span>
              </span>
            )}
          </NavLink>
        </li>
      ))}
    </ul>
  );
}
