import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { apiClient } from '@/lib/api-client';
import { meQueryKey, type Session } from '@/lib/auth';
import { clearCurrentOrgId } from '@/lib/current-org';

// Loads right after the first paint (it shows nothing until a toast is raised), keeping
// react-hot-toast out of the first download.
const AppToaster = lazy(async () => ({
  default: (await import('@/components/ui/toaster')).AppToaster,
}));

export function AppProvider({
  queryClient,
  children,
}: {
  queryClient: QueryClient;
  children: ReactNode;
}) {
  // A failed refresh means the session is over: the guards must see a visitor at once. Only the
  // session entry is replaced (not the whole cache) because /auth/me may be the very query
  // whose 401 started the refresh.
  useEffect(
    () =>
      apiClient.setSessionExpiredHandler(() => {
        queryClient.setQueryData<Session>(meQueryKey, null);
        clearCurrentOrgId();
      }),
    [queryClient],
  );

  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <Suspense fallback={null}>
        <AppToaster />
      </Suspense>
    </QueryClientProvider>
  );
}
