import { Menu } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { ProfileMenu } from '@/components/layout/profile-menu';
import { AdminHeaderSearch, AdminSearchProvider } from '@/features/admin/components/admin-search';
import { Logo } from '@/components/ui/logo';
import { paths } from '@/config/paths';
import { AdminNavLinks } from './shell/admin-nav';

const AdminMobileNav = lazy(async () => ({
  default: (await import('./shell/admin-mobile-nav')).AdminMobileNav,
}));

/**
 * Back-office frame (docs/product.md#back-office): navigation, the header search that filters the
 * current page's table, and the profile menu with a working Logout. On phones the navigation is
 * a drawer opened from the header, as in the app shell, so no page is ever out of sight.
 */
export function AdminShell() {
  const { pathname } = useLocation();
  // As in the app shell: the drawer belongs to the page it was opened on, so navigating closes it.
  const [menuOpenedAt, setMenuOpenedAt] = useState<string | null>(null);
  const [menuUsed, setMenuUsed] = useState(false);

  return (
    <AdminSearchProvider>
      <div className="min-h-dvh bg-slate-50 md:grid md:grid-cols-[15rem_minmax(0,1fr)]">
        <nav
          aria-label="Back-office"
          className="sticky top-0 hidden h-dvh flex-col gap-4 border-r border-slate-200 bg-white p-4 md:flex"
        >
          <Logo to={paths.adminDashboard} className="px-2" />
          <AdminNavLinks />
        </nav>
        <div className="flex min-w-0 flex-col">
          <header className="flex h-16 items-center gap-3 border-b border-slate-200 bg-white px-4 sm:gap-4 sm:px-6">
            <button
              type="button"
              onClick={() => {
                setMenuUsed(true);
                setMenuOpenedAt(pathname);
              }}
              aria-label="Open navigation menu"
              className="rounded-lg p-2 text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600 md:hidden"
            >
              <Menu className="size-5" aria-hidden="true" />
            </button>
            <AdminHeaderSearch />
            <div className="ml-auto">
              <ProfileMenu />
            </div>
          </header>
          <main id="main" className="flex-1 p-4 sm:p-6 lg:p-8">
            <Outlet />
          </main>
        </div>
        {menuUsed && (
          <Suspense fallback={null}>
            <AdminMobileNav
              open={menuOpenedAt === pathname}
              onClose={() => setMenuOpenedAt(null)}
            />
          </Suspense>
        )}
      </div>
    </AdminSearchProvider>
  );
}
