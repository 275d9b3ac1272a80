import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths';

/**
 * The back-office pages, for the admin shell in the router. Each page's code loads on first
 * visit, so people who never open the back-office never download it.
 */
export const adminRoutes: RouteObject[] = [
  {
    path: paths.adminDashboard,
    lazy: async () => ({
      Component: (await import('./routes/admin-dashboard')).AdminDashboardPage,
    }),
  },
  {
    path: paths.adminUsers,
    lazy: async () => ({ Component: (await import('./routes/admin-users')).AdminUsersPage }),
  },
  {
    path: paths.adminPlans,
    lazy: async () => ({ Component: (await import('./routes/admin-plans')).AdminPlansPage }),
  },
  {
    path: paths.adminPlatforms,
    lazy: async () => ({
      Component: (await import('./routes/admin-platforms')).AdminPlatformsPage,
    }),
  },
  {
    path: paths.adminNetworkSetup,
    lazy: async () => ({
      Component: (await import('./routes/admin-network-setup')).AdminNetworkSetupPage,
    }),
  },
];
