import { Check } from 'lucide-react';
import { Link } from 'react-router';
import { NetworkMark } from '@/components/ui/network-mark';
import { paths } from '@/config/paths';
import { cn } from '@/lib/cn';
import type { ComposePlatform } from '../utils/compose-platforms';

export const NO_CONNECTED_PLATFORMS =
  'No connected platforms found. Please connect them in settings.';

function accountLine(platform: ComposePlatform): string {
  const [first, ...others] = platform.accounts;
  if (!first) return '';
  const who = first.username ? `@${first.username}` : first.name;
  return others.length > 0 ? `${who} +${others.length} more` : who;
}

/** Every account of the tile in full, for the tooltip of a line cut short. */
function accountTitle(platform: ComposePlatform): string {
  return platform.accounts
    .map((account) => (account.username ? `${account.name} (@${account.username})` : account.name))
    .join(', ');
}

interface PlatformPickerProps {
  platforms: readonly ComposePlatform[];
  selectedIds: readonly string[];
  onToggle: (platformId: string) => void;
  disabled?: boolean;
}

/** One tile per connected network (docs/product.md#create-post); a tile is a checkbox named after its network. */
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
          <p className="clear-left pt-1 text-sm text-slate-600">Choose where this post goes.</p>
          <ul className="mt-4 grid grid-cols-1 gap-3 sm:grid-cols-2 xl:grid-cols-3">
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
                      aria-label={platform.name}
                      aria-describedby={accountId}
                      checked={isSelected}
                      disabled={disabled}
                      onChange={() => onToggle(platform.id)}
                    />
                    <NetworkMark name={platform.name} className="shrink-0" />
                    {/* The check sits beside the names, never over them; long names end in … and show in full on hover. */}
                    <span className="min-w-0 flex-1">
                      <span
                        className="block truncate font-semibold text-slate-900"
                        title={platform.name}
                      >
                        {platform.name}
                      </span>
                      <span
                        id={accountId}
                        className="block truncate text-xs text-slate-600"
                        title={accountTitle(platform)}
                      >
                        {accountLine(platform)}
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
