import {
  InviteEmailSchema,
  type Permission,
  type PermissionName,
  type Role,
} from '@herald/contract';
import { useState, type FormEvent } from 'react';
import { generatePath, Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { SelectField, TextField } from '@/components/ui/form-field';
import { Modal, ModalActions } from '@/components/ui/modal';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { SCREEN_TOAST_DURATIONS } from '@/config/toast';
import { toast, toastError } from '@/lib/toast';
import { useInviteMember } from '../api/members';
import { InviteLinks, type InviteLink } from './invite-links';
import { PermissionCheckboxes, roleDefaults } from './permission-checkboxes';
import { roleLabel } from '@/lib/role-label';

export const INVALID_EMAIL = 'Please enter a valid email address';
export const ROLE_REQUIRED = 'Please select a role';
export const ROLE_INVALID = 'Selected role is invalid';
const PERMISSION_REQUIRED = 'Choose at least one permission.';

interface InviteModalProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  orgId: string;
  roles: Role[];
  catalog: Permission[];
}

interface Errors {
  email?: string;
  role?: string;
  permissions?: string;
}

/** Invites one person with a role, optionally narrowed to fewer permissions. */
export function InviteModal({ open, onOpenChange, orgId, roles, catalog }: InviteModalProps) {
  const [email, setEmail] = useState('');
  const [roleId, setRoleId] = useState('');
  const [permissions, setPermissions] = useState<PermissionName[]>([]);
  const [errors, setErrors] = useState<Errors>({});
  const [link, setLink] = useState<InviteLink | null>(null);
  const invite = useInviteMember(orgId);
  const role = roles.find((r) => r.id === roleId);

  const reset = () => {
    setEmail('');
    setRoleId('');
    setPermissions([]);
    setErrors({});
    setLink(null);
    invite.reset();
  };
  const close = () => {
    onOpenChange(false);
    reset();
  };

  const chooseRole = (id: string) => {
    setRoleId(id);
    // A new role starts from its own defaults; they can only be narrowed from there.
    setPermissions(roleDefaults(roles.find((r) => r.id === id)));
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsedEmail = InviteEmailSchema.safeParse(email);
    const next: Errors = {
      email: parsedEmail.success ? undefined : INVALID_EMAIL,
      role: !roleId ? ROLE_REQUIRED : !role ? ROLE_INVALID : undefined,
      permissions: role && permissions.length === 0 ? PERMISSION_REQUIRED : undefined,
    };
    setErrors(next);
    if (!parsedEmail.success || next.role || next.permissions) return;
    const address = parsedEmail.data;
    invite.mutate(
      { email: address, roleId, permissions },
      {
        onSuccess: ({ inviteUrl }) => {
          if (inviteUrl) {
            setLink({ email: address, url: inviteUrl });
            return;
          }
          toast.success(`Invite sent to ${address} successfully!`, {
            duration: SCREEN_TOAST_DURATIONS.inviteSuccess,
          });
          close();
        },
        onError: (error) =>
          toastError(error, 'Failed to invite member', {
            duration: SCREEN_TOAST_DURATIONS.teamError,
          }),
      },
    );
  };

  if (link) {
    return (
      <Modal open={open} onOpenChange={(next) => !next && close()} title="Invitation created">
        <InviteLinks links={[link]} />
        <ModalActions>
          <Button variant="secondary" onClick={reset}>
            Invite someone else
          </Button>
          <Button onClick={close}>Done</Button>
        </ModalActions>
      </Modal>
    );
  }

  return (
    <Modal
      open={open}
      onOpenChange={(next) => !next && close()}
      title="Invite Member"
      description="They receive a link to join this organization with the role you choose."
      size="lg"
    >
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        <TextField
          label="Email address"
          type="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          placeholder="teammate@example.com"
          autoComplete="off"
          error={errors.email}
          autoFocus
        />
        <SelectField
          label="Role"
          value={roleId}
          onChange={(event) => chooseRole(event.target.value)}
          error={errors.role}
        >
          <option value="">Select a role</option>
          {roles.map((r) => (
            <option key={r.id} value={r.id}>
              {roleLabel(r.name)}
            </option>
          ))}
        </SelectField>
        {role && (
          <PermissionCheckboxes
            legend="Permissions"
            catalog={catalog}
            selected={permissions}
            allowed={roleDefaults(role)}
            onChange={setPermissions}
            error={errors.permissions}
          />
        )}
        <p className="text-sm text-slate-600">
          Inviting several people?{' '}
          <Link
            to={generatePath(paths.inviteMembers, { orgId })}
            className="font-medium text-indigo-700 underline"
          >
            Invite them all at once
          </Link>
        </p>
        <ModalActions>
          <Button variant="secondary" onClick={close} disabled={invite.isPending}>
            Cancel
          </Button>
          <Button type="submit" disabled={invite.isPending}>
            {invite.isPending && <Spinner className="size-4 text-white" />}
            Send Invite
          </Button>
        </ModalActions>
      </form>
    </Modal>
  );
}
