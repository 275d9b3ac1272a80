import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { LogOut, ShieldCheck } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { initialsOf } from '@/components/ui/avatar';
import { useAuth, useLogout } from '@/lib/auth';

const ITEM =
  'flex cursor-pointer items-center gap-2 rounded-md px-3 py-2 text-sm text-slate-700 outline-none data-[disabled]:opacity-60 data-[highlighted]:bg-slate-100 data-[highlighted]:text-slate-900';

/**
 * Avatar button with the user's name, email and Logout (docs/product.md#shell); operators also
 * find the back-office here.
 */
export function ProfileMenu() {
  const { user } = useAuth();
  const logout = useLogout();
  if (!user) return null;
  const name = user.displayName?.trim() || user.email;

  return (
    // Not modal and not portalled: a modal menu hides the page from assistive technology while
    // the focused trigger stays inside it, and a portalled one sits outside every landmark.
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger className="grid size-9 place-items-center overflow-hidden rounded-full bg-indigo-100 text-sm font-semibold text-indigo-800 ring-offset-2 hover:ring-2 hover:ring-indigo-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600">
        {/* The name is in text rather than aria-label, so the label never disagrees with
            the visible initials (WCAG 2.5.3). */}
        <span className="sr-only">Open profile menu for {name}</span>
        {user.avatarUrl ? (
          <img src={user.avatarUrl} alt="" className="size-full object-cover" />
        ) : (
          <span aria-hidden="true">{initialsOf(name)}</span>
        )}
      </DropdownMenu.Trigger>
      <DropdownMenu.Content
        align="end"
        sideOffset={8}
        className="z-50 min-w-60 rounded-xl border border-slate-200 bg-white p-1.5 shadow-lg"
      >
        <DropdownMenu.Label className="px-3 py-2">
          <span className="block truncate text-sm font-semibold text-slate-900">{name}</span>
          <span className="block truncate text-xs text-slate-600">{user.email}</span>
        </DropdownMenu.Label>
        <DropdownMenu.Separator className="my-1 h-px bg-slate-200" />
        {user.isAdmin && (
          <DropdownMenu.Item asChild className={ITEM}>
            <Link to={paths.admin}>
              <ShieldCheck className="size-4" aria-hidden="true" />
              Back-office
            </Link>
          </DropdownMenu.Item>
        )}
        <DropdownMenu.Item
          disabled={logout.isPending}
          onSelect={() => logout.mutate()}
          className={ITEM}
        >
          <LogOut className="size-4" aria-hidden="true" />
          Logout
        </DropdownMenu.Item>
      </DropdownMenu.Content>
    </DropdownMenu.Root>
  );
}
