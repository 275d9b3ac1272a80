import type { PendingInvite } from '@herald/contract';
import dayjs from 'dayjs';
import { Check, X } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Modal } from '@/components/ui/modal';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { REDIRECT_DELAYS } from '@/config/timing';
import { toast, toastError } from '@/lib/toast';
import { useDelayedNavigate } from '@/lib/use-delayed-navigate';
import { useAcceptInvite, useDeclineInvite } from '../api/invitations';
import { roleLabel } from '@/lib/role-label';

export const ACCEPT_FAILED = 'Failed to accept invitation. Please try again.';

interface PendingInvitationsDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  invites: PendingInvite[];
}

function inviterOf(invite: PendingInvite): string {
  return invite.inviter.displayName?.trim() || invite.inviter.email || 'a team member';
}

export function PendingInvitationsDialog({
  open,
  onOpenChange,
  invites,
}: PendingInvitationsDialogProps) {
  const accept = useAcceptInvite();
  const decline = useDeclineInvite();
  const navigateLater = useDelayedNavigate();
  const isBusy = accept.isPending || accept.isSuccess || decline.isPending;

  const onAccept = (invite: PendingInvite) =>
    accept.mutate(
      { invitationId: invite.id },
      {
        onSuccess: (member) => {
          toast.success(`You joined ${member.organization.name}!`);
          navigateLater(paths.dashboard, REDIRECT_DELAYS.afterAcceptOnboarding);
        },
        onError: (error) => toastError(error, ACCEPT_FAILED),
      },
    );

  const onDecline = (invite: PendingInvite) =>
    decline.mutate(invite.id, {
      onSuccess: () => toast(`Invitation to ${invite.organization.name} declined.`),
      onError: (error) => toastError(error, 'Failed to decline invitation. Please try again.'),
    });

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title="Pending Invitations"
      description="Join an organization that invited you, or decline the invitation."
    >
      {invites.length === 0 ? (
        <p className="text-sm text-slate-600">You have no pending invitations.</p>
      ) : (
        <ul className="divide-y divide-slate-200">
          {invites.map((invite) => {
            const isAccepting =
              accept.isPending &&
              accept.variables !== undefined &&
              'invitationId' in accept.variables &&
              accept.variables.invitationId === invite.id;
            return (
              <li key={invite.id} className="flex flex-wrap items-center gap-3 py-3">
                <div className="min-w-0 flex-1">
                  <p className="font-semibold text-slate-900">{invite.organization.name}</p>
                  <p className="text-sm text-slate-600">
                    Invited by {inviterOf(invite)}
                    {invite.role && ` as ${roleLabel(invite.role.name)}`}
                  </p>
                  <p className="text-xs text-slate-500">
                    Expires {dayjs(invite.expiresAt).format('MMM D, YYYY')}
                  </p>
                </div>
                <div className="flex gap-2">
                  <Button
                    size="sm"
                    onClick={() => onAccept(invite)}
                    disabled={isBusy}
                    aria-label={`Accept invitation to ${invite.organization.name}`}
                  >
                    {isAccepting ? (
                      <Spinner className="size-4 text-white" />
                    ) : (
                      <Check className="size-4" aria-hidden="true" />
                    )}
                    Accept
                  </Button>
                  <Button
                    size="sm"
                    variant="secondary"
                    onClick={() => onDecline(invite)}
                    disabled={isBusy}
                    aria-label={`Decline invitation to ${invite.organization.name}`}
                  >
                    <X className="size-4" aria-hidden="true" />
                    Decline
                  </Button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </Modal>
  );
}
