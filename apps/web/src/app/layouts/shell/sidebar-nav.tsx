import {
  BarChart3,
  Bell,
  ClipboardCheck,
  CreditCard,
  FileText,
  Inbox,
  LayoutDashboard,
  Recycle,
  Settings,
  type LucideIcon,
} from 'lucide-react';
import { NavLink } from 'react-router';
import { paths } from '@/config/paths';
import type { OrgRoute, PermissionName } from '@herald/contract';
import { useApprovalQueue } from '@/lib/approvals';
import { useAuth } from '@/lib/auth';
import { cn } from '@/lib/cn';
import { useInboxSummary } from '@/lib/inbox';
import { useUnreadCount } from '@/lib/notifications';
import { usePermissions } from '@/lib/permissions';

type BadgeSource = 'notifications' | 'approvals' | 'inbox';

/**
 * The badges are real counts: the inbox's open unread conversations the member may see, unread
 * notifications, posts waiting for approval.
 */
const items: Array<{
  to: string;
  label: string;
  icon: LucideIcon;
  badge?: BadgeSource;
  /** Shown only to members who may call this route. */
  needs?: OrgRoute;
  /** Shown only to members who hold this permission (the page would only say they may not). */
  needsPermission?: PermissionName;
  /** Shown only to members who may approve posts (docs/product.md#approvals). */
  approversOnly?: boolean;
}> = [
  { to: paths.dashboard, label: 'Dashboard', icon: LayoutDashboard },
  { to: paths.inbox, label: 'Inbox', icon: Inbox, badge: 'inbox', needsPermission: 'dm:view' },
  { to: paths.content, label: 'Posts', icon: FileText },
  {
    to: paths.evergreen,
    label: 'Evergreen',
    icon: Recycle,
    needs: 'GET /organizations/:orgId/evergreen-collections',
  },
  {
    to: paths.analytics,
    label: 'Analytics',
    icon: BarChart3,
    needs: 'GET /organizations/:orgId/analytics/overview',
  },
  {
    to: paths.approvals,
    label: 'Approvals',
    icon: ClipboardCheck,
    badge: 'approvals',
    approversOnly: true,
  },
  { to: paths.pricing, label: 'Pricing', icon: CreditCard },
  { to: paths.notifications, label: 'Notifications', icon: Bell, badge: 'notifications' },
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

/** A count badge; nothing at zero. Large counts read "99+". */
function CountBadge({ count, noun }: { count: number | undefined; noun: string }) {
  if (!count) return null;
  return (
    <span className="rounded-full bg-indigo-600 px-2 py-0.5 text-xs font-semibold text-white">
      {count > 99 ? '99+' : count}
      <span className="sr-only"> {noun}</span>
    </span>
  );
}

/** The sidebar's page links; the caller wraps them in the Main navigation landmark. */
export function SidebarNav({ onNavigate }: { onNavigate?: () => void }) {
  const { currentOrgId } = useAuth();
  const unread = useUnreadCount(currentOrgId);
  const { canCall, has } = usePermissions();
  const canApprove = has('post:approve');
  const pending = useApprovalQueue(currentOrgId, { enabled: canApprove });
  const canViewInbox = has('dm:view');
  const inbox = useInboxSummary(currentOrgId, { enabled: canViewInbox });
  const counts: Record<BadgeSource, number | undefined> = {
    notifications: unread.data,
    approvals: pending.data?.count,
    inbox: canViewInbox ? inbox.data?.unreadCount : undefined,
  };
  const nouns: Record<BadgeSource, string> = {
    notifications: 'unread',
    approvals: 'pending',
    inbox: 'unread conversations',
  };

  return (
    <ul className="flex flex-col gap-1">
      {items
        .filter((item) => !item.needs || canCall(item.needs))
        .filter((item) => !item.needsPermission || has(item.needsPermission))
        .filter((item) => !item.approversOnly || canApprove)
        .map(({ to, label, icon: Icon, badge }) => (
          <li key={to}>
            <NavLink to={to} className={navLinkClasses} onClick={onNavigate}>
              <Icon className="size-5 shrink-0" aria-hidden="true" />
              <span className="flex-1">{label}</span>
              {badge && <CountBadge count={counts[badge]} noun={nouns[badge]} />}
            </NavLink>
          </li>
        ))}
    </ul>
  );
}
