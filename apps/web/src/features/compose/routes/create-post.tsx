import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { LoadingIndicator } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { useAuth } from '@/lib/auth';
import { useIntegrations, useSupportedPlatforms } from '@/lib/integrations';
import { useCan } from '@/lib/permissions';
import { useTimeZoneRule } from '@/lib/use-time-zone';
import { Composer } from '../components/composer';
import { composePlatforms } from '../utils/compose-platforms';
import { scheduleFromSearch } from '../utils/schedule';

export const NO_PERMISSION =
  'You do not have permission to create posts. Ask an organization admin for the “Create Posts” permission.';
export const LOAD_FAILED = 'Failed to load connected accounts.';

/** /create-post (docs/product.md#create-post); the calendar links here with `?date=&time=`. */
export function CreatePostPage() {
  const { currentOrgId } = useAuth();
  const canCreate = useCan('POST /organizations/:orgId/post');
  const [search] = useSearchParams();
  const orgId = canCreate ? currentOrgId : null;
  const integrations = useIntegrations(orgId);
  const supported = useSupportedPlatforms();
  const timeZone = useTimeZoneRule();
  const platforms = useMemo(
    () => composePlatforms(integrations.data ?? [], supported.data ?? []),
    [integrations.data, supported.data],
  );

  const body = () => {
    if (!currentOrgId) {
      return <Alert>Select an organization before creating a post.</Alert>;
    }
    if (!canCreate) return <Alert>{NO_PERMISSION}</Alert>;
    const failed = integrations.error ?? supported.error;
    if (failed) {
      return (
        <div
          role="alert"
          className="flex flex-col items-center gap-4 rounded-2xl border border-red-200 bg-red-50 p-8 text-center text-red-900"
        >
          <p className="font-semibold">{errorMessage(failed, LOAD_FAILED)}</p>
          <Button
            variant="secondary"
            onClick={() => {
              void integrations.refetch();
              void supported.refetch();
            }}
          >
            Try Again
          </Button>
        </div>
      );
    }
    // The picker's time is read in the zone that applies: known before the form starts.
    if (!integrations.data || !supported.data || !timeZone.settled) {
      return <LoadingIndicator label="Loading your connected platforms" className="py-16" />;
    }
    return (
      <Composer
        orgId={currentOrgId}
        platforms={platforms}
        initialScheduleAt={scheduleFromSearch(search)}
      />
    );
  };

  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-6">
      <title>Create Social Post · Herald</title>
      <div>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">Create Social Post</h1>
        <p className="mt-1 text-slate-600">
          Write once, adjust per platform, add media, and publish now or later.
        </p>
      </div>
      {body()}
    </div>
  );
}
