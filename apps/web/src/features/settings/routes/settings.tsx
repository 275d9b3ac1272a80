import { X } from 'lucide-react';
import { Alert } from '@/components/ui/alert';
import { ButtonLink } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { useAuth } from '@/lib/auth';
import { useCan } from '@/lib/permissions';
import { AccountPickerDialog } from '../components/account-picker-dialog';
import { ApiKeysCard } from '../components/api-keys-card';
import { BrandingCard } from '../components/branding-card';
import { ConnectedPlatforms } from '../components/connected-platforms';
import { OrganizationCard } from '../components/organization-card';
import { LinkTrackingCard } from '../components/link-tracking-card';
import { NotificationPreferencesCard } from '../components/notification-preferences-card';
import { NotificationWebhookCard } from '../components/notification-webhook-card';
import { OutgoingWebhooksCard } from '../components/outgoing-webhooks-card';
import { FeedsCard } from '../components/feeds-card';
import { ProfileCard } from '../components/profile-card';
import { ReportSchedulesCard } from '../components/report-schedules-card';
import { PostingQueueCard } from '../components/posting-queue-card';
import { useConnectReturn, type ConnectFailure } from './connect-return';

/** Connecting needs a trial or a paid plan: the refusal then offers the way to get one. */
const needsSubscription = (message: string) => /subscri/i.test(message);

function ConnectFailureAlert({
  failure,
  onDismiss,
}: {
  failure: ConnectFailure;
  onDismiss: () => void;
}) {
  return (
    <Alert className="items-start">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <p>
          {failure.platform && <strong>{`Could not connect ${failure.platform}. `}</strong>}
          {failure.message}
        </p>
        {needsSubscription(failure.message) && (
          <ButtonLink to={paths.pricing} size="sm">
            View Plans
          </ButtonLink>
        )}
        <button
          type="button"
          aria-label="Dismiss"
          onClick={onDismiss}
          className="rounded p-0.5 hover:bg-red-100"
        >
          <X className="size-4" aria-hidden="true" />
        </button>
      </div>
    </Alert>
  );
}

/** /settings (docs/product.md#settings): the profile and the organization's social accounts. */
export function SettingsPage() {
  const { user, member, currentOrgId } = useAuth();
  const connectReturn = useConnectReturn(currentOrgId);
  const orgName = member?.organization.name ?? 'your organization';
  const canManageOrg = useCan('PATCH /organizations/:orgId');
  const canManageWebhooks = useCan('GET /organizations/:orgId/webhooks');
  const canUseFeeds = useCan('GET /organizations/:orgId/feeds');

  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-6">
      <title>Account Settings · Herald</title>
      <div>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">Account Settings</h1>
        <p className="mt-1 text-slate-600">
          Your profile, and the social accounts {orgName} publishes to.
        </p>
      </div>
      {connectReturn.failure && (
        <ConnectFailureAlert
          failure={connectReturn.failure}
          onDismiss={connectReturn.dismissFailure}
        />
      )}
      {user && <ProfileCard key={user.id} user={user} />}
      {currentOrgId && <NotificationPreferencesCard orgId={currentOrgId} />}
      {currentOrgId && canManageOrg && <OrganizationCard orgId={currentOrgId} orgName={orgName} />}
      {currentOrgId && canManageOrg && <BrandingCard orgId={currentOrgId} />}
      {currentOrgId && canManageOrg && <ReportSchedulesCard orgId={currentOrgId} />}
      {currentOrgId && canManageOrg && <LinkTrackingCard orgId={currentOrgId} />}
      {currentOrgId && canManageOrg && <NotificationWebhookCard orgId={currentOrgId} />}
      {currentOrgId && canManageWebhooks && <OutgoingWebhooksCard orgId={currentOrgId} />}
      {currentOrgId && canManageOrg && (
        <ApiKeysCard orgId={currentOrgId} holds={member?.permissions ?? []} />
      )}
      <ConnectedPlatforms orgId={currentOrgId} orgName={orgName} />
      {currentOrgId && <PostingQueueCard orgId={currentOrgId} />}
      {currentOrgId && canUseFeeds && <FeedsCard orgId={currentOrgId} />}
      {currentOrgId && (
        <AccountPickerDialog
          orgId={currentOrgId}
          pendingId={connectReturn.choice?.pendingId ?? null}
          platformName={connectReturn.choice?.platform ?? ''}
          onClose={connectReturn.closeChoice}
        />
      )}
    </div>
  );
}
