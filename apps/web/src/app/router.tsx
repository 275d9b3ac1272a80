import { Navigate, type RouteObject } from 'react-router';
import { paths } from '@/config/paths';
import { FullPageSpinner } from '@/components/ui/spinner';
import { RequireAuth } from './guards/require-auth';
import { PublicLayout } from './layouts/public-layout';
import { RootLayout } from './layouts/root-layout';
import { RouteError } from './route-error';
import { adminRoutes } from '@/features/admin/admin-routes';
import { shellPlaceholders, toShellRoute } from './routes/placeholder-pages';

// Every page's code loads on demand (React Router's `lazy`), so a first visit downloads the
// shell and the page it shows, nothing else; while it loads, the previous page stays (or, on the
// first page, the spinner of `hydrateFallbackElement` shows). New feature routes follow suit.
const lazyLanding = async () => ({
  Component: (await import('@/features/landing/routes/landing')).LandingPage,
});
const lazyLogin = async () => ({
  Component: (await import('@/features/auth/routes/login')).LoginPage,
});
const lazySignup = async () => ({
  Component: (await import('@/features/auth/routes/signup')).SignupPage,
});
const lazyLoginSuccess = async () => ({
  Component: (await import('@/features/auth/routes/login-success')).LoginSuccessPage,
});
const lazyUnauthorized = async () => ({
  Component: (await import('@/features/errors/routes/unauthorized')).UnauthorizedPage,
});
const lazyForbidden = async () => ({
  Component: (await import('@/features/errors/routes/forbidden')).ForbiddenPage,
});
const lazyNotFound = async () => ({
  Component: (await import('@/features/errors/routes/not-found')).NotFoundPage,
});
const lazyShell = async () => ({ Component: (await import('./layouts/app-shell')).AppShell });
const lazyAdminShell = async () => ({
  Component: (await import('./layouts/admin-shell')).AdminShell,
});
const lazyOnboarding = async () => ({
  Component: (await import('@/features/onboarding/routes/onboarding')).OnboardingPage,
});
const lazyCreateOrganization = async () => ({
  Component: (await import('@/features/onboarding/routes/create-organization'))
    .CreateOrganizationPage,
});
const lazyAcceptInvite = async () => ({
  Component: (await import('@/features/onboarding/routes/accept-invite')).AcceptInvitePage,
});
const lazyGuestApproval = async () => ({
  Component: (await import('@/features/guest-approval/routes/guest-approval')).GuestApprovalPage,
});
const lazyTeam = async () => ({
  Component: (await import('@/features/team/routes/team')).TeamPage,
});
const lazyInviteMembers = async () => ({
  Component: (await import('@/features/team/routes/invite-members')).InviteMembersPage,
});
const lazyInviteMembersRedirect = async () => ({
  Component: (await import('@/features/team/routes/invite-members-redirect')).InviteMembersRedirect,
});
const lazyEvergreen = async () => ({
  Component: (await import('@/features/evergreen/routes/evergreen')).EvergreenPage,
});
const lazyImportPosts = async () => ({
  Component: (await import('@/features/posts/routes/import-posts')).ImportPostsPage,
});
const lazyApprovals = async () => ({
  Component: (await import('@/features/posts/routes/approvals')).ApprovalsPage,
});
const lazyAllClients = async () => ({
  Component: (await import('@/features/posts/routes/all-clients')).AllClientsPage,
});
const lazyPricing = async () => ({
  Component: (await import('@/features/billing/routes/pricing')).PricingPage,
});
const lazyDashboard = async () => ({
  Component: (await import('@/features/dashboard/routes/dashboard')).DashboardPage,
});
const lazyNotifications = async () => ({
  Component: (await import('@/features/notifications/routes/notifications')).NotificationsPage,
});
const lazySettings = async () => ({
  Component: (await import('@/features/settings/routes/settings')).SettingsPage,
});
const lazyCreatePost = async () => ({
  Component: (await import('@/features/compose/routes/create-post')).CreatePostPage,
});
const lazyEditPost = async () => ({
  Component: (await import('@/features/compose/routes/edit-post')).EditPostPage,
});
const lazyContentLibrary = async () => ({
  Component: (await import('@/features/posts/routes/content-library')).ContentLibraryPage,
});
const lazyPostDetails = async () => ({
  Component: (await import('@/features/posts/routes/post-details')).PostDetailsPage,
});
const lazyCalendar = async () => ({
  Component: (await import('@/features/posts/routes/calendar')).CalendarPage,
});
const lazyAnalytics = async () => ({
  Component: (await import('@/features/analytics/routes/analytics')).AnalyticsPage,
});
const lazyInbox = async () => ({
  Component: (await import('@/features/inbox/routes/inbox')).InboxPage,
});
const lazyPrivacy = async () => ({
  Component: (await import('@/features/legal/routes/privacy-policy')).PrivacyPolicyPage,
});
const lazyTerms = async () => ({
  Component: (await import('@/features/legal/routes/terms-of-service')).TermsOfServicePage,
});
const lazyCookies = async () => ({
  Component: (await import('@/features/legal/routes/cookie-policy')).CookiePolicyPage,
});

/** The whole route tree; main.tsx mounts it in a browser router, tests in a memory router. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    // Shown while the first route's code loads: never a blank screen.
    hydrateFallbackElement: <FullPageSpinner />,
    children: [
      {
        element: <PublicLayout />,
        children: [
          { index: true, lazy: lazyLanding },
          { path: paths.login, lazy: lazyLogin },
          { path: paths.signup, lazy: lazySignup },
          { path: paths.privacyPolicy, lazy: lazyPrivacy },
          { path: paths.termsOfService, lazy: lazyTerms },
          { path: paths.cookiePolicy, lazy: lazyCookies },
          { path: paths.unauthorized, lazy: lazyUnauthorized },
          { path: paths.forbidden, lazy: lazyForbidden },
          { path: paths.notFound, lazy: lazyNotFound },
          { path: '*', lazy: lazyNotFound },
        ],
      },
      { path: paths.loginSuccess, lazy: lazyLoginSuccess },
      // Visitors are told to sign in there, and come back to the link afterwards.
      { path: paths.acceptInvite, lazy: lazyAcceptInvite },
      // A client's approval link: outside the app's shell, whoever is signed in or not.
      { path: paths.guestApproval, lazy: lazyGuestApproval },
      {
        element: <RequireAuth />,
        children: [
          { path: paths.onboarding, lazy: lazyOnboarding },
          { path: paths.createOrganization, lazy: lazyCreateOrganization },
          { path: paths.inviteMembersLegacy, lazy: lazyInviteMembersRedirect },
        ],
      },
      {
        element: <RequireAuth requireOrg />,
        children: [
          {
            lazy: lazyShell,
            children: [
              { path: paths.dashboard, lazy: lazyDashboard },
              { path: paths.orgDashboard, lazy: lazyDashboard },
              { path: paths.team, lazy: lazyTeam },
              { path: paths.inviteMembers, lazy: lazyInviteMembers },
              { path: paths.pricing, lazy: lazyPricing },
              { path: paths.settings, lazy: lazySettings },
              { path: paths.notifications, lazy: lazyNotifications },
              { path: paths.createPost, lazy: lazyCreatePost },
              { path: paths.editPost, lazy: lazyEditPost },
              { path: paths.content, lazy: lazyContentLibrary },
              { path: paths.approvals, lazy: lazyApprovals },
              { path: paths.importPosts, lazy: lazyImportPosts },
              { path: paths.postDetails, lazy: lazyPostDetails },
              { path: paths.calendar, lazy: lazyCalendar },
              { path: paths.evergreen, lazy: lazyEvergreen },
              { path: paths.allClients, lazy: lazyAllClients },
              { path: paths.analytics, lazy: lazyAnalytics },
              { path: paths.inbox, lazy: lazyInbox },
              // The dashboard's "Manage" link (docs/product.md#dashboard) names the integrations part of settings.
              {
                path: paths.orgIntegrations,
                element: <Navigate to={paths.settings} replace />,
              },
              ...shellPlaceholders.map(toShellRoute),
            ],
          },
        ],
      },
      {
        element: <RequireAuth requireAdmin />,
        children: [
          {
            lazy: lazyAdminShell,
            children: [
              { path: paths.admin, element: <Navigate to={paths.adminDashboard} replace /> },
              ...adminRoutes,
            ],
          },
        ],
      },
    ],
  },
];
