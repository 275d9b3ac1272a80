import { PERMISSION_NAMES, type Permission, type PermissionName } from '@herald/contract';
import { useId } from 'react';
import { cn } from '@/lib/cn';

/** Keeps the names this app knows (a newer server may list more), typed for requests. */
export function toPermissionNames(names: readonly string[]): PermissionName[] {
  return names.filter((n): n is PermissionName => PERMISSION_NAMES.includes(n as PermissionName));
}

/** The permission names of a role, ready to be ticked. */
export const roleDefaults = (role: { permissions: { name: string }[] } | undefined) =>
  toPermissionNames(role?.permissions.map((p) => p.name) ?? []);

interface PermissionCheckboxesProps {
  legend: string;
  catalog: Permission[];
  selected: readonly PermissionName[];
  onChange: (next: PermissionName[]) => void;
  /** When given, only these can be ticked (an invitation may only narrow its role). */
  allowed?: readonly string[];
  error?: string | null;
  disabled?: boolean;
}

/** The permission list as checkboxes, labelled as docs/product.md#roles-and-permissions names them. */
export function PermissionCheckboxes({
  legend,
  catalog,
  selected,
  onChange,
  allowed,
  error,
  disabled = false,
}: PermissionCheckboxesProps) {
  const errorId = useId();
  const toggle = (name: string, checked: boolean) =>
    onChange(
      checked
        ? toPermissionNames(catalog.map((p) => p.name)).filter(
            (n) => n === name || selected.includes(n),
          )
        : selected.filter((n) => n !== name),
    );

  return (
    <fieldset aria-describedby={error ? errorId : undefined}>
      <legend className="text-sm font-medium text-slate-800">{legend}</legend>
      <div className="mt-2 grid gap-x-4 gap-y-1 sm:grid-cols-2">
        {catalog.map((permission) => {
          const isAllowed = !allowed || allowed.includes(permission.name);
          return (
            <label
              key={permission.name}
              className={cn(
                'flex items-center gap-2 rounded-md px-1 py-1 text-sm',
                isAllowed && !disabled ? 'text-slate-800' : 'text-slate-400',
              )}
              title={isAllowed ? undefined : 'Not part of the selected role'}
            >
              <input
                type="checkbox"
                className="size-4 rounded border-slate-300 accent-indigo-600"
                checked={selected.some((n) => n === permission.name)}
                disabled={disabled || !isAllowed}
                onChange={(event) => toggle(permission.name, event.target.checked)}
              />
              {permission.description}
            </label>
          );
        })}
      </div>
      {error && (
        <p id={errorId} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
    </fieldset>
  );
}
