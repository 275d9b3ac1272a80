import { useSyncExternalStore } from 'react';
import { fallbackColor } from '@/components/ui/avatar';
import { readStorage, storageKeys, writeStorage } from '@/lib/storage';

/** docs/product.md#team-entities: ten presets a role can take; the choice lives only in this browser. */
export const ROLE_COLOR_PRESETS = [
  {
    id: 'indigo',
    label: 'Indigo',
    badge: 'bg-indigo-100 text-indigo-800',
    swatch: 'bg-indigo-500',
  },
  { id: 'blue', label: 'Blue', badge: 'bg-blue-100 text-blue-800', swatch: 'bg-blue-500' },
  { id: 'teal', label: 'Teal', badge: 'bg-teal-100 text-teal-800', swatch: 'bg-teal-500' },
  {
    id: 'emerald',
    label: 'Green',
    badge: 'bg-emerald-100 text-emerald-800',
    swatch: 'bg-emerald-500',
  },
  { id: 'lime', label: 'Lime', badge: 'bg-lime-100 text-lime-900', swatch: 'bg-lime-500' },
  { id: 'amber', label: 'Amber', badge: 'bg-amber-100 text-amber-900', swatch: 'bg-amber-500' },
  {
    id: 'orange',
    label: 'Orange',
    badge: 'bg-orange-100 text-orange-900',
    swatch: 'bg-orange-500',
  },
  { id: 'rose', label: 'Rose', badge: 'bg-rose-100 text-rose-800', swatch: 'bg-rose-500' },
  {
    id: 'purple',
    label: 'Purple',
    badge: 'bg-purple-100 text-purple-800',
    swatch: 'bg-purple-500',
  },
  { id: 'slate', label: 'Gray', badge: 'bg-slate-200 text-slate-800', swatch: 'bg-slate-500' },
] as const;

export type RoleColorId = (typeof ROLE_COLOR_PRESETS)[number]['id'];
type RoleColorMap = Record<string, RoleColorId>;

const listeners = new Set<() => void>();

function readMap(raw: string | null): RoleColorMap {
  if (!raw) return {};
  try {
    const parsed = JSON.parse(raw) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as RoleColorMap) : {};
  } catch {
    return {};
  }
}

export function setRoleColor(roleId: string, color: RoleColorId): void {
  const map = readMap(readStorage(storageKeys.roleColors));
  writeStorage(storageKeys.roleColors, JSON.stringify({ ...map, [roleId]: color }));
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The stored colors, re-rendering when one is picked. */
export function useRoleColors() {
  // The raw string is the snapshot: stable between changes, so React does not loop.
  const raw = useSyncExternalStore(
    subscribe,
    () => readStorage(storageKeys.roleColors),
    () => null,
  );
  const map = readMap(raw);
  return {
    chosen: (roleId: string): RoleColorId | undefined => map[roleId],
    /** Badge classes: the picked preset, or the fallback palette by the role's name. */
    badgeOf: (role: { id: string; name: string }): string => {
      const preset = ROLE_COLOR_PRESETS.find((p) => p.id === map[role.id]);
      return preset?.badge ?? fallbackColor(role.name);
    },
  };
}
