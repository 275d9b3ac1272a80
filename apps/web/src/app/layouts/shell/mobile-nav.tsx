import { paths } from '@/config/paths';
import { CurrentOrgLink } from './current-org-link';
import { NavDrawer } from './nav-drawer';
import { SidebarNav } from './sidebar-nav';

/** The sidebar as a drawer on small screens. */
export function MobileNav({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <NavDrawer
      open={open}
      onClose={onClose}
      home={paths.dashboard}
      title="Navigation"
      description="Pages of your workspace"
      hiddenFrom="lg"
    >
      <nav aria-label="Main menu" className="flex flex-1 flex-col gap-6 overflow-hidden">
        <div className="flex-1 overflow-y-auto">
          <SidebarNav onNavigate={onClose} />
        </div>
        <CurrentOrgLink onNavigate={onClose} />
      </nav>
    </NavDrawer>
  );
}
