import { NotYetAvailable } from '@/components/ui/not-yet-available';
import { paths } from '@/config/paths';

interface Placeholder {
  path: string;
  title: string;
  description: string;
}

/**
 * Screens that later issues deliver. Each route already exists, so links and guards can be
 * tested now; an issue replaces its entry with the feature's real route component.
 */
export const shellPlaceholders: Placeholder[] = [
  {
    path: paths.createPost,
    title: 'Create Social Post',
    description: 'Write one post, add media and schedule it for every connected platform.',
  },
  {
    path: paths.inbox,
    title: 'Inbox',
    description: 'Read and answer the conversations of all your networks in one list.',
  },
  {
    path: paths.content,
    title: 'Content Library',
    description: 'Browse, search and filter every draft, scheduled and published post.',
  },
  {
    path: paths.postDetails,
    title: 'Post Details',
    description: 'See a post, edit it, publish it and follow its comments.',
  },
  {
    path: paths.calendar,
    title: 'Calendar',
    description: "See the week's posts day by day and plan new ones.",
  },
];

export const adminPlaceholders: Placeholder[] = [
  {
    path: paths.adminDashboard,
    title: 'Admin Dashboard',
    description: 'Counts of users, platforms and plans, with shortcuts to each.',
  },
  {
    path: paths.adminUsers,
    title: 'User Management',
    description: 'View and manage all users in the system.',
  },
  {
    path: paths.adminPlans,
    title: 'Plan Management',
    description: 'Create, view, and update subscription plans.',
  },
  {
    path: paths.adminPlatforms,
    title: 'Supported Platforms',
    description: 'Create, activate, or deactivate platforms.',
  },
];

export function toShellRoute({ path, title, description }: Placeholder) {
  return {
    path,
    element: (
      <NotYetAvailable
        title={title}
        description={description}
        backTo={paths.dashboard}
        backLabel="Back to Dashboard"
      />
    ),
  };
}

export function toAdminRoute({ path, title, description }: Placeholder) {
  const isHome = path === paths.adminDashboard;
  return {
    path,
    element: (
      <NotYetAvailable
        title={title}
        description={description}
        backTo={isHome ? paths.home : paths.adminDashboard}
        backLabel={isHome ? 'Back to home' : 'Back to Admin Dashboard'}
      />
    ),
  };
}
