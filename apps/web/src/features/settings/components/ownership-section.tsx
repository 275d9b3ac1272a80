import type { Member } from '@herald/contract';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { SelectField } from '@/components/ui/form-field';
import { toast, toastError } from '@/lib/toast';
import { useOwnershipMembers, useTransferOwnership } from '../api/ownership';

export const OWNERSHIP_FAILED = 'Failed to transfer the organization. Please try again.';
export const NO_OTHER_ADMIN =
  'To hand this organization on, first give the person who takes it over the Admin role on the Team page.';

const nameOf = (member: Member) => member.user?.displayName ?? member.email;

/**
 * docs/product.md#billing-groups: who owns the organization, and for its owner the hand-over to
 * another active Admin (its plan and billing go with it).
 */
export function OwnershipSection({
  orgId,
  orgName,
  ownerUserId,
  myUserId,
}: {
  orgId: string;
  orgName: string;
  ownerUserId: string | null;
  myUserId: string;
}) {
  const members = useOwnershipMembers(orgId);
  const transfer = useTransferOwnership(orgId);
  const [heirId, setHeirId] = useState('');
  const [confirming, setConfirming] = useState(false);
  const isOwner = ownerUserId === myUserId;
  const owner = members.data?.find((m) => m.user?.id === ownerUserId);
  const admins = (members.data ?? []).filter(
    (m) => m.status === 'ACTIVE' && m.role?.name === 'Admin' && m.user && m.user.id !== myUserId,
  );
  const heir = admins.find((m) => m.id === heirId);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (heir) setConfirming(true);
  };
  const confirm = () => {
    if (!heir) return;
    transfer.mutate(
      { memberId: heir.id },
      {
        onSuccess: () => {
          setConfirming(false);
          setHeirId('');
          toast.success(`${orgName} now belongs to ${nameOf(heir)}.`);
        },
        onError: (error) => {
          setConfirming(false);
          toastError(error, OWNERSHIP_FAILED);
        },
      },
    );
  };

  return (
    <div className="mt-6 border-t border-slate-200 pt-5">
      <h3 className="text-sm font-medium text-slate-900">Ownership</h3>
      {!isOwner ? (
        <p className="mt-1 text-sm text-slate-600">
          {owner ? `${orgName} belongs to ${nameOf(owner)}. ` : ''}Only its owner can hand it on.
        </p>
      ) : (
        <>
          <p className="mt-1 text-sm text-slate-600">
            You own {orgName}: your plan covers it. Hand it to another Admin when they take over the
            client; its plan then comes from theirs, and you stay an Admin.
          </p>
          {members.isError ? (
            <p role="alert" className="mt-2 text-sm text-red-700">
              Could not load the organization’s Admins.
            </p>
          ) : members.data && admins.length === 0 ? (
            <p className="mt-2 text-sm text-slate-600">{NO_OTHER_ADMIN}</p>
          ) : (
            <form onSubmit={onSubmit} noValidate className="mt-4 grid gap-4 sm:grid-cols-2">
              <SelectField
                label="New owner"
                value={heirId}
                onChange={(event) => setHeirId(event.target.value)}
                disabled={!members.data}
              >
                <option value="">Choose an Admin</option>
                {admins.map((m) => (
                  <option key={m.id} value={m.id}>
                    {nameOf(m)}
                    {m.user?.displayName ? ` (${m.email})` : ''}
                  </option>
                ))}
              </SelectField>
              <div className="flex items-end sm:justify-end">
                <Button type="submit" variant="secondary" disabled={!heir || transfer.isPending}>
                  Transfer ownership
                </Button>
              </div>
            </form>
          )}
        </>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Transfer ownership?"
        message={
          heir
            ? `${nameOf(heir)} becomes the owner of ${orgName}. Your plan stops covering it, and only ${nameOf(heir)} can hand it back.`
            : ''
        }
        confirmLabel="Transfer ownership"
        onConfirm={confirm}
        isPending={transfer.isPending}
      />
    </div>
  );
}
