import type { Permission, Role } from '@herald/contract';
import { useState, type FormEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/form-field';
import { ModalActions } from '@/components/ui/modal';
import { Spinner } from '@/components/ui/spinner';
import { SCREEN_TOAST_DURATIONS } from '@/config/toast';
import { cn } from '@/lib/cn';
import { toast, toastError } from '@/lib/toast';
import { useSaveRole } from '../api/roles';
import { PermissionCheckboxes, roleDefaults } from './permission-checkboxes';
import { ROLE_COLOR_PRESETS, setRoleColor, useRoleColors, type RoleColorId } from './role-colors';
import { roleLabel } from '@/lib/role-label';

export const ROLE_NAME_REQUIRED = 'Role name is required';
export const ROLE_PERMISSION_REQUIRED = 'At least one permission is required';
export const ROLE_INCOMPLETE = 'Role name and at least one permission are required';

interface RoleFormProps {
  orgId: string;
  catalog: Permission[];
  /** The role to edit; a new role when absent. */
  role?: Role;
  onDone: () => void;
}

export function RoleForm({ orgId, catalog, role, onDone }: RoleFormProps) {
  const colors = useRoleColors();
  const [name, setName] = useState(role?.name ?? '');
  const [description, setDescription] = useState(role?.description ?? '');
  const [permissionIds, setPermissionIds] = useState(() => roleDefaults(role));
  const [color, setColor] = useState<RoleColorId>(
    () => (role && colors.chosen(role.id)) || ROLE_COLOR_PRESETS[0].id,
  );
  const [errors, setErrors] = useState<{ name?: string; permissions?: string }>({});
  const saveRole = useSaveRole(orgId);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const next = {
      name: name.trim() ? undefined : ROLE_NAME_REQUIRED,
      permissions: permissionIds.length > 0 ? undefined : ROLE_PERMISSION_REQUIRED,
    };
    setErrors(next);
    if (next.name || next.permissions) return;
    saveRole.mutate(
      {
        roleId: role?.id,
        body: { name: name.trim(), description: description.trim() || null, permissionIds },
      },
      {
        onSuccess: (saved) => {
          setRoleColor(saved.id, color);
          toast.success(
            role
              ? `Role "${roleLabel(saved.name)}" updated`
              : `Role "${roleLabel(saved.name)}" created`,
          );
          onDone();
        },
        onError: (error) =>
          toastError(error, role ? 'Failed to update role' : 'Failed to create role', {
            duration: SCREEN_TOAST_DURATIONS.teamError,
          }),
      },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
      {(errors.name || errors.permissions) && <Alert>{ROLE_INCOMPLETE}</Alert>}
      <TextField
        label="Role name"
        value={name}
        onChange={(event) => setName(event.target.value)}
        maxLength={60}
        error={errors.name}
        autoFocus
      />
      <TextField
        label="Description"
        value={description}
        onChange={(event) => setDescription(event.target.value)}
        maxLength={300}
        placeholder="What this role is for (optional)"
      />
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">Color</legend>
        <div className="mt-2 flex flex-wrap gap-2">
          {ROLE_COLOR_PRESETS.map((preset) => (
            <label key={preset.id} title={preset.label} className="cursor-pointer">
              <input
                type="radio"
                name="role-color"
                value={preset.id}
                checked={color === preset.id}
                onChange={() => setColor(preset.id)}
                className="peer sr-only"
                aria-label={preset.label}
              />
              <span
                aria-hidden="true"
                className={cn(
                  'block size-7 rounded-full ring-offset-2 peer-checked:ring-2 peer-checked:ring-slate-900',
                  'peer-focus-visible:outline-2 peer-focus-visible:outline-indigo-600',
                  preset.swatch,
                )}
              />
            </label>
          ))}
        </div>
        <p className="mt-1 text-xs text-slate-600">Colors are saved on this browser only.</p>
      </fieldset>
      <PermissionCheckboxes
        legend="Permissions"
        catalog={catalog}
        selected={permissionIds}
        onChange={setPermissionIds}
        error={errors.permissions}
      />
      <ModalActions>
        <Button variant="secondary" onClick={onDone} disabled={saveRole.isPending}>
          Back to roles
        </Button>
        <Button type="submit" disabled={saveRole.isPending}>
          {saveRole.isPending && <Spinner className="size-4 text-white" />}
          {role ? 'Save Changes' : 'Create Role'}
        </Button>
      </ModalActions>
    </form>
  );
}
