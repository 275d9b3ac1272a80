import { Check } from 'lucide-react';
import { Link } from 'react-router';
import { Avatar } from '@/components/ui/avatar';
import { NetworkMark } from '@/components/ui/network-mark';
import { paths } from '@/config/paths';
import { cn } from '@/lib/cn';
import type { ComposePlatform } from '../utils/compose-platforms';

export const NO_CONNECTED_PLATFORMS =
  'No connected platforms found. Please connect them in settings.';

/** The account in full, for the tooltip of a name or handle cut short. */
function accountTitle(platform: ComposePlatform): string {
  const { name, username } = platform.account;
  return username && username !== name ? `${name} (@${username})` : name;
}

interface PlatformPickerProps {
  platforms: readonly ComposePlatform[];
  selectedIds: readonly string[];
  onToggle: (platformId: string) => void;
  disabled?: boolean;
}

/**
 * One tile per connected account (docs/product.md#create-post): its avatar, name, @handle and
 * network. A tile is a checkbox named after its network, or "Network (account)" when several
 * accounts of that network are connected; any of them can be chosen together.
 */
export function PlatformPicker({
  platforms,
  selectedIds,
  onToggle,
  disabled,
}: PlatformPickerProps) {
  return (
    <fieldset className="min-w-0 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
      <legend className="float-left w-full text-base font-semibold text-slate-900">
        Platforms
      </legend>
      {platforms.length === 0 ? (
        <p className="clear-left pt-2 text-sm text-slate-700">
          {NO_CONNECTED_PLATFORMS}{' '}
          <Link to={paths.settings} className="font-semibold text-indigo-700 underline">
            Go to settings
          </Link>
        </p>
      ) : (
        <>
          <p className="clear-left pt-1 text-sm text-slate-600">
            Choose the accounts this post goes out from.
          </p>
          <ul className="mt-4 grid grid-cols-1 gap-3 sm:grid-cols-2">
            {platforms.map((platform) => {
              const isSelected = selectedIds.includes(platform.id);
              const accountId = `platform-account-${platform.id}`;
              return (
                <li key={platform.id}>
                  <label
                    className={cn(
                      'flex cursor-pointer items-center gap-3 rounded-xl border p-3 transition-colors',
                      'has-[input:focus-visible]:outline-2 has-[input:focus-visible]:outline-offset-2 has-[input:focus-visible]:outline-indigo-600',
                      isSelected
                        ? 'border-indigo-600 bg-indigo-50 ring-1 ring-indigo-600'
                        : 'border-slate-200 bg-white hover:border-slate-400',
                      disabled && 'cursor-not-allowed opacity-60',
                    )}
                  >
                    <input
                      type="checkbox"
                      className="sr-only"
                      aria-label={platform.label}
                      aria-describedby={accountId}
                      checked={isSelected}
                      disabled={disabled}
                      onChange={() => onToggle(platform.id)}
                    />
                    <span className="relative shrink-0">
                      <Avatar
                        name={platform.account.name}
                        url={platform.account.pictureUrl}
                        className="size-10"
                      />
                      <NetworkMark
                        name={platform.name}
                        size="xs"
                        className="absolute -right-1.5 -bottom-1.5 ring-2 ring-white"
                      />
                    </span>
                    {/* The check sits beside the names, never over them; long names end in … and show in full on hover. */}
                    <span className="min-w-0 flex-1">
                      <span
                        className="block truncate font-semibold text-slate-900"
                        title={accountTitle(platform)}
                      >
                        {platform.account.name}
                      </span>
                      <span
                        id={accountId}
                        className="block truncate text-xs text-slate-600"
                        title={accountTitle(platform)}
                      >
                        {platform.account.username &&
                        platform.account.username !== platform.account.name
                          ? `@${platform.account.username} · ${platform.name}`
                          : platform.name}
                      </span>
                    </span>
                    <span
                      aria-hidden="true"
                      className={cn(
                        'grid size-5 shrink-0 place-items-center rounded-full border',
                        isSelected
                          ? 'border-indigo-600 bg-indigo-600 text-white'
                          : 'border-slate-300',
                      )}
                    >
                      {isSelected && <Check className="size-3.5" />}
                    </span>
                  </label>
                </li>
              );
            })}
          </ul>
        </>
      )}
    </fieldset>
  );
}
