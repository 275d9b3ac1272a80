import { lazy, Suspense, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { Logo } from '@/components/ui/logo';
import { paths } from '@/config/paths';
import { useAuth } from '@/lib/auth';
import { useNotificationStream } from '@/lib/use-notification-stream';
import { CurrentOrgLink } from './shell/current-org-link';
import { SidebarNav } from './shell/sidebar-nav';
import { TopBar } from './shell/top-bar';

const MobileNav = lazy(async () => ({ default: (await import('./shell/mobile-nav')).MobileNav }));

/** The authenticated shell: sidebar, top bar and the page (docs/product.md#shell). */
export function AppShell() {
  const { pathname } = useLocation();
  const { currentOrgId } = useAuth();
  // One live stream for every page of the shell: the sidebar badge and /notifications read it.
  useNotificationStream(currentOrgId);
  // The menu remembers the page it was opened on, so any route change closes it without an
  // effect (and without a frame where the old page's menu covers the new page).
  const [menuOpenedAt, setMenuOpenedAt] = useState<string | null>(null);
  const isMenuOpen = menuOpenedAt === pathname;
  // The drawer (a Radix dialog) loads when it is first opened, and then stays mounted.
  const [menuUsed, setMenuUsed] = useState(false);

  return (
    <div className="min-h-dvh bg-slate-50 lg:grid lg:grid-cols-[16rem_minmax(0,1fr)] print:block print:min-h-0 print:bg-white">
      <nav
        aria-label="Main"
        className="sticky top-0 hidden h-dvh flex-col gap-6 border-r border-slate-200 bg-white p-4 lg:flex print:hidden"
      >
        <Logo to={paths.dashboard} className="px-2 pt-1" />
        <div className="flex-1 overflow-y-auto">
          <SidebarNav />
        </div>
        <CurrentOrgLink />
      </nav>
      <div className="flex min-h-dvh min-w-0 flex-col print:block print:min-h-0">
        <TopBar
          onOpenMenu={() => {
            setMenuUsed(true);
            setMenuOpenedAt(pathname);
          }}
        />
        <main id="main" className="flex-1 p-4 sm:p-6 lg:p-8 print:p-0">
          <Outlet />
        </main>
      </div>
      {menuUsed && (
        <Suspense fallback={null}>
          <MobileNav open={isMenuOpen} onClose={() => setMenuOpenedAt(null)} />
        </Suspense>
      )}
    </div>
  );
}
