import { InviteEmailSchema, type Permission, type Role } from '@herald/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Plus, Send } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button, ButtonLink } from '@/components/ui/button';
import { Modal, ModalActions } from '@/components/ui/modal';
import { LoadingIndicator, Spinner } from '@/components/ui/spinner';
import { SubscriptionRequiredDialog } from '@/components/ui/subscription-required-dialog';
import { paths } from '@/config/paths';
import { REDIRECT_DELAYS } from '@/config/timing';
import { SCREEN_TOAST_DURATIONS } from '@/config/toast';
import { errorMessage } from '@/lib/api-error';
import { usePermissions } from '@/lib/permissions';
import { toast } from '@/lib/toast';
import { useDelayedNavigate } from '@/lib/use-delayed-navigate';
import { inviteMember } from '../api/members';
import { usePermissionCatalog, useRoles } from '../api/roles';
import { teamKeys } from '../api/team-keys';
import { InviteBlock, type InviteDraft } from '../components/invite-block';
import { InviteLinks, type InviteLink } from '../components/invite-links';
import { INVALID_EMAIL } from '../components/invite-modal';
import { roleDefaults } from '../components/permission-checkboxes';

const DEFAULT_ROLE = 'SocialMediaManager';
const NO_SUBSCRIPTION = 'No active subscription';
/** docs/product.md#messages: inviting needs a plan; the dialog leads to the pricing page. */
export const SUBSCRIPTION_REQUIRED =
  'You need an active subscription to invite team members. Please subscribe to a plan to continue.';

/** /org/{orgId}/invite-members (docs/product.md#invite-members, #invite-rules, docs/product.md#messages): several invitations at once. */
export function InviteMembersPage() {
  const { orgId = '' } = useParams();
  const roles = useRoles(orgId);
  const catalog = usePermissionCatalog();
  const permissions = usePermissions();
  // Permissions are known for the current organization only; elsewhere the server decides.
  const mayInvite =
    permissions.organizationId !== orgId || permissions.canCall('POST /member/invite/:orgId');
  const loadError = roles.error ?? catalog.error;

  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-6">
      <title>Invite Members · Herald</title>
      <div>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">Invite Members</h1>
        <p className="mt-1 text-slate-600">
          Each teammate gets a role; untick permissions to give them less than the role allows.
        </p>
      </div>
      {!mayInvite && <Alert>You do not have permission to invite members.</Alert>}
      {loadError ? (
        <Alert>{errorMessage(loadError, 'Failed to load team data')}</Alert>
      ) : !roles.data || !catalog.data ? (
        <LoadingIndicator label="Loading roles" className="py-16" />
      ) : (
        <InviteMembersForm
          orgId={orgId}
          roles={roles.data}
          catalog={catalog.data}
          mayInvite={mayInvite}
        />
      )}
    </div>
  );
}

interface FormProps {
  orgId: string;
  roles: Role[];
  catalog: Permission[];
  mayInvite: boolean;
}

function InviteMembersForm({ orgId, roles, catalog, mayInvite }: FormProps) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const navigateLater = useDelayedNavigate();
  const nextKey = useRef(1);
  const defaultRole =
    roles.find((r) => r.name === DEFAULT_ROLE) ?? roles.find((r) => !r.isAdmin) ?? roles[0];
  const newDraft = (): InviteDraft => ({
    key: nextKey.current++,
    email: '',
    roleId: defaultRole?.id ?? '',
    permissions: roleDefaults(defaultRole),
  });
  const [drafts, setDrafts] = useState<InviteDraft[]>(() => [newDraft()]);
  const [status, setStatus] = useState<'editing' | 'sending' | 'done'>('editing');
  const [links, setLinks] = useState<InviteLink[]>([]);
  const [needsSubscription, setNeedsSubscription] = useState(false);

  const canSend =
    mayInvite && Boolean(orgId) && status === 'editing' && drafts.every((d) => d.email.trim());

  const update = (key: number, draft: InviteDraft) =>
    setDrafts((all) => all.map((d) => (d.key === key ? draft : d)));

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!canSend) return;
    const checked = drafts.map((d) => {
      const email = InviteEmailSchema.safeParse(d.email);
      return email.success ? { ...d, email: email.data } : { ...d, error: INVALID_EMAIL };
    });
    setDrafts(checked);
    if (checked.some((d) => d.error)) return;

    setStatus('sending');
    const failed: InviteDraft[] = [];
    const created: InviteLink[] = [];
    let blocked = false;
    for (const draft of checked) {
      if (blocked) {
        failed.push(draft);
        continue;
      }
      try {
        const { email, roleId, permissions } = draft;
        const result = await inviteMember(orgId, { email, roleId, permissions });
        toast.success(`Invite sent to ${email} successfully!`, {
          duration: SCREEN_TOAST_DURATIONS.inviteSuccess,
        });
        if (result.inviteUrl) created.push({ email, url: result.inviteUrl });
      } catch (error) {
        const message = errorMessage(error, 'Failed to invite member');
        failed.push(draft);
        if (message.includes(NO_SUBSCRIPTION)) {
          // Every other invitation would be refused the same way: stop and explain.
          blocked = true;
          setNeedsSubscription(true);
          toast.error(message, { duration: SCREEN_TOAST_DURATIONS.inviteError });
        } else {
          toast.error(`Failed to invite ${draft.email}: ${message}`, {
            duration: SCREEN_TOAST_DURATIONS.inviteError,
          });
        }
      }
    }
    void queryClient.invalidateQueries({ queryKey: teamKeys.org(orgId) });
    setLinks(created);
    if (failed.length > 0) {
      // Only the invitations that did not go out stay in the form, ready to fix and resend.
      setDrafts(failed);
      setStatus('editing');
      return;
    }
    setStatus('done');
    // Links must reach the inviter: then the dialog's Done button moves on instead.
    if (created.length === 0) navigateLater(paths.team, REDIRECT_DELAYS.afterInvites);
  };

  return (
    <>
      <form onSubmit={(event) => void onSubmit(event)} noValidate className="flex flex-col gap-4">
        {drafts.map((draft, index) => (
          <InviteBlock
            key={draft.key}
            index={index}
            draft={draft}
            roles={roles}
            catalog={catalog}
            disabled={status !== 'editing'}
            onChange={(next) => update(draft.key, next)}
            onRemove={
              drafts.length > 1
                ? () => setDrafts((all) => all.filter((d) => d.key !== draft.key))
                : undefined
            }
          />
        ))}
        <div>
          <Button
            variant="secondary"
            onClick={() => setDrafts((all) => [...all, newDraft()])}
            disabled={status !== 'editing'}
          >
            <Plus className="size-4" aria-hidden="true" />
            Add another member
          </Button>
        </div>
        <div className="flex flex-wrap justify-end gap-3 border-t border-slate-200 pt-4">
          <ButtonLink to={paths.team} variant="secondary">
            Cancel
          </ButtonLink>
          <Button type="submit" disabled={!canSend}>
            {status === 'sending' ? (
              <Spinner className="size-4 text-white" />
            ) : (
              <Send className="size-4" aria-hidden="true" />
            )}
            Send invites
          </Button>
        </div>
      </form>

      <Modal
        open={links.length > 0}
        onOpenChange={(open) => {
          if (open) return;
          setLinks([]);
          if (status === 'done') void navigate(paths.team);
        }}
        title="Share the invitation links"
      >
        <InviteLinks links={links} />
        <ModalActions>
          <Button
            onClick={() => {
              setLinks([]);
              if (status === 'done') void navigate(paths.team);
            }}
          >
            {status === 'done' ? 'Done — go to Team' : 'Done'}
          </Button>
        </ModalActions>
      </Modal>
      <SubscriptionRequiredDialog
        open={needsSubscription}
        onOpenChange={setNeedsSubscription}
        message={SUBSCRIPTION_REQUIRED}
        dismissLabel="Cancel"
      />
    </>
  );
}
