import type { Integration, Member } from '@herald/contract';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { SCREEN_TOAST_DURATIONS } from '@/config/toast';
import { toast, toastError } from '@/lib/toast';
import { useSetMemberAccounts } from '../api/members';

/** How an account reads in the list: "@acme on X", else its name. */
const accountLabel = (account: Integration) =>
  `${account.metadata.username ? `@${account.metadata.username}` : (account.metadata.name ?? 'Account')} on ${account.platform.name}`;

interface MemberAccountsProps {
  orgId: string;
  member: Member;
  name: string;
  /** The organization's connected accounts, as the caller sees them. */
  accounts: Integration[];
}

/**
 * Which connected accounts a member works with (docs/product.md#access-per-account): all of
 * them, or only the ones ticked. The server refuses the limit for an Admin, so the card offers it
 * for other roles only.
 */
export function MemberAccounts({ orgId, member, name, accounts }: MemberAccountsProps) {
  const save = useSetMemberAccounts(orgId);
  const [editing, setEditing] = useState(false);
  const [limited, setLimited] = useState(member.accountIds !== null);
  const [chosen, setChosen] = useState<string[]>(member.accountIds ?? []);
  const groupId = useId();

  const summary =
    member.accountIds === null
      ? 'All accounts'
      : `${member.accountIds.length} of ${accounts.length} account${accounts.length === 1 ? '' : 's'}`;

  const start = () => {
    setLimited(member.accountIds !== null);
    setChosen(member.accountIds ?? []);
    setEditing(true);
  };
  const submit = () =>
    save.mutate(
      { memberId: member.id, integrationIds: limited ? chosen : null },
      {
        onSuccess: () => {
          setEditing(false);
          toast.success(
            limited ? `${name} now works with the chosen accounts` : `${name} now has all accounts`,
          );
        },
        onError: (error) =>
          toastError(error, 'Failed to update accounts', {
            duration: SCREEN_TOAST_DURATIONS.teamError,
          }),
      },
    );

  if (!editing) {
    return (
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="text-slate-600">Accounts: {summary}</span>
        <Button size="sm" variant="ghost" aria-label={`Edit accounts of ${name}`} onClick={start}>
          Edit
        </Button>
      </div>
    );
  }
  return (
    <fieldset className="rounded-lg border border-slate-200 p-3 text-sm">
      <legend className="px-1 font-medium text-slate-800">Accounts of {name}</legend>
      <label className="flex items-center gap-2">
        <input type="radio" name={groupId} checked={!limited} onChange={() => setLimited(false)} />
        All accounts
      </label>
      <label className="flex items-center gap-2">
        <input type="radio" name={groupId} checked={limited} onChange={() => setLimited(true)} />
        Only these
      </label>
      {limited && (
        <ul className="mt-2 grid gap-1 pl-6">
          {accounts.length === 0 && <li className="text-slate-500">No connected accounts yet.</li>}
          {accounts.map((account) => (
            <li key={account.id}>
              <label className="flex min-w-0 items-center gap-2">
                <input
                  type="checkbox"
                  checked={chosen.includes(account.id)}
                  onChange={(event) =>
                    setChosen((ids) =>
                      event.target.checked
                        ? [...ids, account.id]
                        : ids.filter((id) => id !== account.id),
                    )
                  }
                />
                <span className="truncate">{accountLabel(account)}</span>
              </label>
            </li>
          ))}
        </ul>
      )}
      <div className="mt-3 flex justify-end gap-2">
        <Button size="sm" variant="ghost" onClick={() => setEditing(false)}>
          Cancel
        </Button>
        <Button size="sm" onClick={submit} disabled={save.isPending}>
          Save accounts
        </Button>
      </div>
    </fieldset>
  );
}
