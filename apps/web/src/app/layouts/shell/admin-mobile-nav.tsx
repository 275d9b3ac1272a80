import { paths } from '@/config/paths';
import { AdminNavLinks } from './admin-nav';
import { NavDrawer } from './nav-drawer';

/** The back-office sidebar as a drawer on phones: every page one under the other, none out of sight. */
export function AdminMobileNav({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <NavDrawer
      open={open}
      onClose={onClose}
      home={paths.adminDashboard}
      title="Back-office navigation"
      description="Pages of the back-office"
      hiddenFrom="md"
    >
      <nav aria-label="Back-office menu" className="flex-1 overflow-y-auto">
        <AdminNavLinks onNavigate={onClose} />
      </nav>
    </NavDrawer>
  );
}
