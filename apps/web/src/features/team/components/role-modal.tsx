import type { Permission, Role } from '@herald/contract';
import { Pencil, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Modal } from '@/components/ui/modal';
import { SCREEN_TOAST_DURATIONS } from '@/config/toast';
import { cn } from '@/lib/cn';
import { toast, toastError } from '@/lib/toast';
import { useDeleteRole } from '../api/roles';
import { RoleForm } from './role-form';
import { useRoleColors } from './role-colors';
import { roleLabel } from '@/lib/role-label';

type View = { mode: 'list' } | { mode: 'create' } | { mode: 'edit'; role: Role };

const titles = { list: 'Manage Roles', create: 'Create New Role', edit: 'Edit Role' };
const ADMIN_LOCKED = 'The Admin role always holds every permission and cannot be changed.';

interface RoleModalProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  orgId: string;
  roles: Role[];
  catalog: Permission[];
}

/** Lists the organization's roles; creates, edits and deletes them (org:manage only). */
export function RoleModal({ open, onOpenChange, orgId, roles, catalog }: RoleModalProps) {
  const [view, setView] = useState<View>({ mode: 'list' });
  const [toDelete, setToDelete] = useState<Role | null>(null);
  const deleteRole = useDeleteRole(orgId);
  const colors = useRoleColors();

  const close = (next: boolean) => {
    onOpenChange(next);
    if (!next) setView({ mode: 'list' });
  };

  const onDelete = (role: Role) =>
    deleteRole.mutate(role.id, {
      onSuccess: () => toast.success(`Role "${roleLabel(role.name)}" deleted`),
      onError: (error) =>
        toastError(error, 'Failed to delete role', { duration: SCREEN_TOAST_DURATIONS.teamError }),
      onSettled: () => setToDelete(null),
    });

  return (
    <Modal open={open} onOpenChange={close} title={titles[view.mode]} size="lg">
      {view.mode === 'list' ? (
        <div>
          <Button onClick={() => setView({ mode: 'create' })}>
            <Plus className="size-4" aria-hidden="true" />
            Create New Role
          </Button>
          <ul className="mt-4 divide-y divide-slate-200">
            {roles.map((role) => (
              <li key={role.id} className="flex flex-wrap items-center gap-3 py-3">
                <div className="min-w-0 flex-1">
                  <span
                    className={cn(
                      'rounded-full px-2.5 py-0.5 text-sm font-semibold',
                      colors.badgeOf(role),
                    )}
                  >
                    {roleLabel(role.name)}
                  </span>
                  {role.description && (
                    <p className="mt-1 text-sm text-slate-600">{role.description}</p>
                  )}
                  <p className="mt-1 text-xs text-slate-500">
                    {role.permissions.length} permission{role.permissions.length === 1 ? '' : 's'} ·{' '}
                    {role.memberCount} member{role.memberCount === 1 ? '' : 's'}
                  </p>
                </div>
                <div className="flex gap-2">
                  <Button
                    size="sm"
                    variant="secondary"
                    disabled={role.isAdmin}
                    title={role.isAdmin ? ADMIN_LOCKED : undefined}
                    aria-label={`Edit role ${roleLabel(role.name)}`}
                    onClick={() => setView({ mode: 'edit', role })}
                  >
                    <Pencil className="size-4" aria-hidden="true" />
                    Edit
                  </Button>
                  <Button
                    size="sm"
                    variant="secondary"
                    disabled={role.isAdmin}
                    title={role.isAdmin ? ADMIN_LOCKED : undefined}
                    aria-label={`Delete role ${roleLabel(role.name)}`}
                    onClick={() => setToDelete(role)}
                  >
                    <Trash2 className="size-4" aria-hidden="true" />
                    Delete
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <RoleForm
          key={view.mode === 'edit' ? view.role.id : 'new'}
          orgId={orgId}
          catalog={catalog}
          role={view.mode === 'edit' ? view.role : undefined}
          onDone={() => setView({ mode: 'list' })}
        />
      )}
      <ConfirmDialog
        open={toDelete !== null}
        onOpenChange={(next) => !next && setToDelete(null)}
        title="Delete role"
        message={`Delete the role "${toDelete ? roleLabel(toDelete.name) : ''}"? This cannot be undone.`}
        confirmLabel="Delete role"
        isPending={deleteRole.isPending}
        onConfirm={() => toDelete && onDelete(toDelete)}
      />
    </Modal>
  );
}
