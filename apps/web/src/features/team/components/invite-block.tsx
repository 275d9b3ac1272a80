import type { Permission, PermissionName, Role } from '@herald/contract';
import { Trash2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { SelectField, TextField } from '@/components/ui/form-field';
import { PermissionCheckboxes, roleDefaults } from './permission-checkboxes';
import { roleLabel } from '@/lib/role-label';

export interface InviteDraft {
  key: number;
  email: string;
  roleId: string;
  permissions: PermissionName[];
  error?: string;
}

interface InviteBlockProps {
  index: number;
  draft: InviteDraft;
  roles: Role[];
  catalog: Permission[];
  disabled: boolean;
  onChange: (draft: InviteDraft) => void;
  /** Absent when this is the only block: there must always be one. */
  onRemove?: () => void;
}

/** One invitee on the invite page: email, role and the permissions within that role. */
export function InviteBlock({
  index,
  draft,
  roles,
  catalog,
  disabled,
  onChange,
  onRemove,
}: InviteBlockProps) {
  const role = roles.find((r) => r.id === draft.roleId);
  return (
    <fieldset className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
      <legend className="sr-only">Member {index + 1}</legend>
      <div className="flex items-center justify-between gap-3">
        <h2 className="font-semibold text-slate-900" aria-hidden="true">
          Member {index + 1}
        </h2>
        {onRemove && (
          <Button size="sm" variant="ghost" onClick={onRemove} disabled={disabled}>
            <Trash2 className="size-4" aria-hidden="true" />
            Remove member
          </Button>
        )}
      </div>
      <div className="mt-4 grid gap-4 sm:grid-cols-2">
        <TextField
          label="Email address"
          type="email"
          required
          value={draft.email}
          onChange={(event) => onChange({ ...draft, email: event.target.value, error: undefined })}
          placeholder="teammate@example.com"
          autoComplete="off"
          error={draft.error}
          disabled={disabled}
        />
        <SelectField
          label="Role"
          value={draft.roleId}
          disabled={disabled}
          // Choosing a role starts again from its defaults (docs/product.md#invite-rules).
          onChange={(event) => {
            const next = roles.find((r) => r.id === event.target.value);
            onChange({ ...draft, roleId: event.target.value, permissions: roleDefaults(next) });
          }}
        >
          {roles.map((r) => (
            <option key={r.id} value={r.id}>
              {roleLabel(r.name)}
            </option>
          ))}
        </SelectField>
      </div>
      <div className="mt-4">
        <PermissionCheckboxes
          legend="Permissions"
          catalog={catalog}
          selected={draft.permissions}
          allowed={roleDefaults(role)}
          onChange={(permissions) => onChange({ ...draft, permissions })}
          disabled={disabled}
        />
      </div>
    </fieldset>
  );
}
