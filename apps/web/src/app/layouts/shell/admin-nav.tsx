import { LayoutDashboard, Layers, Stethoscope, Users, WalletCards } from 'lucide-react';
import { NavLink } from 'react-router';
import { paths } from '@/config/paths';
import { navLinkClasses } from './sidebar-nav';

const items = [
  { to: paths.adminDashboard, label: 'Dashboard', icon: LayoutDashboard },
  { to: paths.adminUsers, label: 'Users', icon: Users },
  { to: paths.adminPlans, label: 'Plans', icon: WalletCards },
  { to: paths.adminPlatforms, label: 'Platforms', icon: Layers },
  { to: paths.adminNetworkSetup, label: 'Network setup', icon: Stethoscope },
];

/** The back-office pages, one under the other: the sidebar's list and the phone drawer's. */
export function AdminNavLinks({ onNavigate }: { onNavigate?: () => void }) {
  return (
    <ul className="flex flex-col gap-1">
      {items.map(({ to, label, icon: Icon }) => (
        <li key={to}>
          <NavLink to={to} className={navLinkClasses} onClick={onNavigate}>
            <Icon className="size-5 shrink-0" aria-hidden="true" />
            {label}
          </NavLink>
        </li>
      ))}
    </ul>
  );
}
