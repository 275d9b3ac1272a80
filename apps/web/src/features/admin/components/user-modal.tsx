import type { User } from '@herald/contract';
import { Pencil, ShieldCheck } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Avatar } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import { SelectField, TextField } from '@/components/ui/form-field';
import { LoadError } from '@/components/ui/load-error';
import { Modal, ModalActions } from '@/components/ui/modal';
import { LoadingIndicator, Spinner } from '@/components/ui/spinner';
import { TimeZoneOptions } from '@/components/ui/time-zone-options';
import { errorMessage } from '@/lib/api-error';
import { loadTimeZones, timeZoneOptions } from '@/lib/time-zone';
import { toast, toastError } from '@/lib/toast';
import { useAdminUser, useUpdateUser } from '../api/users';
import { formatDate } from './admin-ui';
import {
  userToForm,
  validateUserForm,
  type UserFormErrors,
  type UserFormValues,
} from './user-form';

export const USER_LOAD_FAILED = 'Failed to fetch user details.';
export const USER_UPDATE_FAILED = 'Failed to update user.';
export const USER_UPDATED = 'User updated successfully!';

export const userName = (user: Pick<User, 'displayName'>) => user.displayName?.trim() || 'No name';

function ReadView({
  user,
  onEdit,
  onClose,
}: {
  user: User;
  onEdit: () => void;
  onClose: () => void;
}) {
  const rows: Array<[string, string]> = [
    ['Email', user.email],
    ['Display name', user.displayName?.trim() || 'Not set'],
    ['Avatar URL', user.avatarUrl ?? 'Not set'],
    ['Timezone', user.timezone ?? 'Not set'],
    ['Created At', formatDate(user.createdAt)],
  ];
  return (
    <>
      <div className="flex items-center gap-4">
        <Avatar name={user.displayName || user.email} url={user.avatarUrl} className="size-14" />
        <div className="min-w-0">
          <p className="truncate font-semibold text-slate-900">{userName(user)}</p>
          {user.isAdmin && (
            <p className="mt-0.5 inline-flex items-center gap-1 text-xs font-semibold text-indigo-700">
              <ShieldCheck className="size-3.5" aria-hidden="true" />
              Platform operator
            </p>
          )}
        </div>
      </div>
      <dl className="mt-5 grid gap-3 text-sm sm:grid-cols-[9rem_1fr]">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="font-medium text-slate-600">{label}</dt>
            <dd className="break-all text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
      <ModalActions>
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
        <Button onClick={onEdit}>
          <Pencil className="size-4" aria-hidden="true" />
          Edit
        </Button>
      </ModalActions>
    </>
  );
}

function EditForm({ user, onDone }: { user: User; onDone: () => void }) {
  const update = useUpdateUser(user.id);
  const [values, setValues] = useState<UserFormValues>(() => userToForm(user));
  const [errors, setErrors] = useState<UserFormErrors>({});
  // Without the browser's list, UTC (and the saved zone) can still be chosen.
  const [zones] = useState(() => timeZoneOptions(loadTimeZones() ?? ['UTC'], user.timezone ?? ''));
  const set = (field: keyof UserFormValues) => (value: string) =>
    setValues((current) => ({ ...current, [field]: value }));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const result = validateUserForm(values);
    setErrors(result.errors ?? {});
    if (!result.changes) return;
    update.mutate(result.changes, {
      onSuccess: () => {
        toast.success(USER_UPDATED);
        onDone();
      },
      onError: (error) => toastError(error, USER_UPDATE_FAILED),
    });
  };

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      <TextField
        label="Display Name"
        value={values.displayName}
        onChange={(event) => set('displayName')(event.target.value)}
        error={errors.displayName}
        maxLength={100}
        required
      />
      <TextField
        label="Avatar URL"
        type="url"
        value={values.avatarUrl}
        onChange={(event) => set('avatarUrl')(event.target.value)}
        error={errors.avatarUrl}
        placeholder="https://…"
        hint="Leave empty to show initials."
      />
      <SelectField
        label="Timezone"
        value={values.timezone}
        onChange={(event) => set('timezone')(event.target.value)}
      >
        {/* A zone can be chosen for someone who has none, but not taken away. */}
        {!user.timezone && <option value="">Not set</option>}
        <TimeZoneOptions zones={zones} />
      </SelectField>
      <ModalActions>
        {/* Cancel puts back the loaded values: the form is rebuilt from them next time. */}
        <Button variant="secondary" onClick={onDone} disabled={update.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={update.isPending}>
          {update.isPending && <Spinner className="size-4 text-white" />}
          Save
        </Button>
      </ModalActions>
    </form>
  );
}

function UserDetails({ userId, onClose }: { userId: string; onClose: () => void }) {
  const user = useAdminUser(userId);
  const [isEditing, setIsEditing] = useState(false);
  if (user.isPending) return <LoadingIndicator label="Loading user details" className="py-10" />;
  if (user.isError) {
    return (
      <LoadError
        message={errorMessage(user.error, USER_LOAD_FAILED)}
        onRetry={() => void user.refetch()}
      />
    );
  }
  return isEditing ? (
    <EditForm user={user.data} onDone={() => setIsEditing(false)} />
  ) : (
    <ReadView user={user.data} onEdit={() => setIsEditing(true)} onClose={onClose} />
  );
}

/** docs/product.md#admin-users: a user's details, and their edit form. */
export function UserModal({ userId, onClose }: { userId: string | null; onClose: () => void }) {
  return (
    <Modal
      open={userId !== null}
      onOpenChange={(open) => !open && onClose()}
      title="User Details"
      description="Only the display name, picture and time zone can be changed."
    >
      {userId && <UserDetails key={userId} userId={userId} onClose={onClose} />}
    </Modal>
  );
}
