import { Navigate, type RouteObject } from 'react-router';
import { paths } from '@/config/paths';
import { LoginPage } from '@/features/auth/routes/login';
import { LoginSuccessPage } from '@/features/auth/routes/login-success';
import { SignupPage } from '@/features/auth/routes/signup';
import { ForbiddenPage } from '@/features/errors/routes/forbidden';
import { NotFoundPage } from '@/features/errors/routes/not-found';
import { UnauthorizedPage } from '@/features/errors/routes/unauthorized';
import { LandingPage } from '@/features/landing/routes/landing';
import { FullPageSpinner } from '@/components/ui/spinner';
import { RequireAuth } from './guards/require-auth';
import { PublicLayout } from './layouts/public-layout';
import { RootLayout } from './layouts/root-layout';
import { RouteError } from './route-error';
import { adminRoutes } from '@/features/admin/admin-routes';
import { shellPlaceholders, toShellRoute } from './routes/placeholder-pages';

// Code behind sign-in (and the long legal texts) loads on demand, so a first visit to the
// landing or login page downloads only what it shows. New feature routes should follow suit.
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
const lazyTeam = async () => ({
  Component: (await import('@/features/team/routes/team')).TeamPage,
});
const lazyInviteMembers = async () => ({
  Component: (await import('@/features/team/routes/invite-members')).InviteMembersPage,
});
const lazyInviteMembersRedirect = async () => ({
  Component: (await import('@/features/team/routes/invite-members-redirect')).InviteMembersRedirect,
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
const lazyContentLibrary = async () => ({
  Component: (await import('@/features/posts/routes/content-library')).ContentLibraryPage,
});
const lazyPostDetails = async () => ({
  Component: (await import('@/features/posts/routes/post-details')).PostDetailsPage,
});
const lazyCalendar = async () => ({
  Component: (await import('@/features/posts/routes/calendar')).CalendarPage,
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
          { index: true, element: <LandingPage /> },
          { path: paths.login, element: <LoginPage /> },
          { path: paths.signup, element: <SignupPage /> },
          { path: paths.privacyPolicy, lazy: lazyPrivacy },
          { path: paths.termsOfService, lazy: lazyTerms },
          { path: paths.cookiePolicy, lazy: lazyCookies },
          { path: paths.unauthorized, element: <UnauthorizedPage /> },
          { path: paths.forbidden, element: <ForbiddenPage /> },
          { path: paths.notFound, element: <NotFoundPage /> },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
      { path: paths.loginSuccess, element: <LoginSuccessPage /> },
      // Visitors are told to sign in there, and come back to the link afterwards.
      { path: paths.acceptInvite, lazy: lazyAcceptInvite },
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
              { path: paths.content, lazy: lazyContentLibrary },
              { path: paths.postDetails, lazy: lazyPostDetails },
              { path: paths.calendar, lazy: lazyCalendar },
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
