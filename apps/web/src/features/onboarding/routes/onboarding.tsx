import { Building2, MailOpen, type LucideIcon } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { ProfileMenu } from '@/components/layout/profile-menu';
import { Alert } from '@/components/ui/alert';
import { Button, ButtonLink } from '@/components/ui/button';
import { Logo } from '@/components/ui/logo';
import { LoadingIndicator } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-error';
import { useAuth } from '@/lib/auth';
import { usePendingInvites } from '../api/invitations';
import { useMyOrganizations } from '@/lib/organization';
import { CreateOrganizationDialog } from '../components/create-organization-dialog';
import { OrganizationList } from '../components/organization-list';
import { PendingInvitationsDialog } from '../components/pending-invitations-dialog';

export const ONBOARDING_LOAD_FAILED =
  'Failed to load your onboarding data. Please refresh the page.';

function StepCard({
  icon: Icon,
  title,
  children,
  action,
}: {
  icon: LucideIcon;
  title: string;
  children: ReactNode;
  action: ReactNode;
}) {
  return (
    <section
      aria-label={title}
      className="flex flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <span className="grid size-11 place-items-center rounded-xl bg-indigo-50 text-indigo-700">
        <Icon className="size-5" aria-hidden="true" />
      </span>
      <h2 className="mt-4 text-lg font-semibold text-slate-900">{title}</h2>
      <div className="mt-1 flex-1 text-slate-600">{children}</div>
      <div className="mt-6">{action}</div>
    </section>
  );
}

/**
 * Where a signed-in user chooses where to work (docs/product.md#onboarding): create an organization,
 * answer invitations, or switch to one of their organizations.
 */
export function OnboardingPage() {
  const { user, currentOrgId } = useAuth();
  const organizations = useMyOrganizations();
  const invites = usePendingInvites();
  const [openDialog, setOpenDialog] = useState<'create' | 'invites' | null>(null);
  const name = user?.displayName?.trim() || user?.email || '';
  const pending = invites.data ?? [];
  const loadError = organizations.error ?? invites.error;

  return (
    <div className="min-h-dvh bg-slate-50">
      <title>Welcome · Herald</title>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-5xl items-center justify-between gap-3 px-4 py-3 sm:px-6">
          <Logo />
          <div className="flex items-center gap-3">
            {currentOrgId && (
              <ButtonLink to={paths.dashboard} variant="ghost" size="sm">
                Go to Dashboard
              </ButtonLink>
            )}
            <ProfileMenu />
          </div>
        </div>
      </header>
      <main id="main" className="mx-auto max-w-5xl px-4 py-12 sm:px-6">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900">Welcome, {name}!</h1>
        <p className="mt-2 text-lg text-slate-600">
          Let&apos;s get your workspace ready. Herald works inside an organization.
        </p>
        {loadError && (
          <Alert className="mt-6">{errorMessage(loadError, ONBOARDING_LOAD_FAILED)}</Alert>
        )}

        <div className="mt-10 grid gap-6 md:grid-cols-2">
          <StepCard
            icon={Building2}
            title="Create Organization"
            action={<Button onClick={() => setOpenDialog('create')}>Create Organization</Button>}
          >
            Start a new workspace for your team, connected accounts and posts. You become its Admin.
          </StepCard>
          <StepCard
            icon={MailOpen}
            title="Pending Invitations"
            action={
              <Button
                variant="secondary"
                onClick={() => setOpenDialog('invites')}
                disabled={pending.length === 0}
              >
                View Invitations
              </Button>
            }
          >
            {invites.isPending ? (
              <LoadingIndicator label="Loading invitations" className="justify-start" />
            ) : pending.length > 0 ? (
              <p>
                You have {pending.length} pending invitation{pending.length === 1 ? '' : 's'}.
              </p>
            ) : (
              <p>No pending invitations. Invitations sent to {user?.email} will appear here.</p>
            )}
          </StepCard>
        </div>

        <section aria-labelledby="your-organizations" className="mt-12">
          <h2 id="your-organizations" className="text-xl font-semibold text-slate-900">
            Your Organizations
          </h2>
          <div className="mt-4">
            {organizations.isPending ? (
              <LoadingIndicator label="Loading your organizations" className="justify-start" />
            ) : (
              <OrganizationList organizations={organizations.data ?? []} />
            )}
          </div>
        </section>
      </main>

      <CreateOrganizationDialog
        open={openDialog === 'create'}
        onOpenChange={(open) => setOpenDialog(open ? 'create' : null)}
      />
      <PendingInvitationsDialog
        open={openDialog === 'invites'}
        onOpenChange={(open) => setOpenDialog(open ? 'invites' : null)}
        invites={pending}
      />
    </div>
  );
}
