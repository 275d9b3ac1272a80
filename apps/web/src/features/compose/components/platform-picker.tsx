import { AlertTriangle, Check, Lock } from 'lucide-react';
import { Link } from 'react-router';
import { Avatar } from '@/components/ui/avatar';
import { NetworkMark } from '@/components/ui/network-mark';
import { paths } from '@/config/paths';
import { cn } from '@/lib/cn';
import type { ComposePlatform } from '../utils/compose-platforms';

/** Said above the tiles when editing a post that already went out to some accounts. */
export const LOCKED_NOTE =
  'Locked accounts already have this post (or are getting it now): they keep the text and media they went out with. Your changes apply to the other accounts.';

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
  /** Editing: accounts the post already went out to (or is going out to); they stay ticked. */
  lockedIds?: readonly string[];
  /** What each locked tile says ("Already published", "Publishing now", "Needs a check"). */
  lockedLabels?: Record<string, string>;
  onToggle: (platformId: string) => void;
  disabled?: boolean;
  /**
   * Why each selected account's network would refuse the post as it stands (the shared rule
   * set), by account id: said on the account's tile, before anything can be sent.
   */
  problems?: Record<string, readonly string[]>;
}

/**
 * One tile per connected account (docs/product.md#create-post): its avatar, name, @handle and
 * network. A tile is a checkbox named after its network, or "Network (account)" when several
 * accounts of that network are connected; any of them can be chosen together.
 */
export function PlatformPicker({
  platforms,
  selectedIds,
  lockedIds = [],
  lockedLabels = {},
  onToggle,
  disabled,
  problems = {},
}: PlatformPickerProps) {
  const hasLocked = platforms.some((p) => lockedIds.includes(p.id));
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
          {hasLocked && (
            <p className="mt-2 rounded-lg bg-amber-50 p-3 text-sm text-amber-900">{LOCKED_NOTE}</p>
          )}
          <ul className="mt-4 grid grid-cols-1 gap-3 sm:grid-cols-2">
            {platforms.map((platform) => {
              const isLocked = lockedIds.includes(platform.id);
              const isSelected = isLocked || selectedIds.includes(platform.id);
              const isDisabled = disabled || isLocked;
              const accountId = `platform-account-${platform.id}`;
              const refusals = isSelected && !isLocked ? (problems[platform.id] ?? []) : [];
              const refusalsId = `platform-problems-${platform.id}`;
              return (
                <li key={platform.id}>
                  <label
                    className={cn(
                      'flex cursor-pointer items-center gap-3 rounded-xl border p-3 transition-colors',
                      'has-[input:focus-visible]:outline-2 has-[input:focus-visible]:outline-offset-2 has-[input:focus-visible]:outline-indigo-600',
                      isSelected
                        ? 'border-indigo-600 bg-indigo-50 ring-1 ring-indigo-600'
                        : 'border-slate-200 bg-white hover:border-slate-400',
                      isDisabled && 'cursor-not-allowed',
                      disabled && 'opacity-60',
                      isLocked && 'border-slate-300 bg-slate-50 ring-slate-300',
                      refusals.length > 0 && 'border-red-600 bg-red-50 ring-red-600',
                    )}
                  >
                    <input
                      type="checkbox"
                      className="sr-only"
                      aria-label={platform.label}
                      aria-describedby={
                        refusals.length > 0 ? `${accountId} ${refusalsId}` : accountId
                      }
                      aria-invalid={refusals.length > 0 || undefined}
                      checked={isSelected}
                      disabled={isDisabled}
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
                      {isLocked && (
                        <span className="mt-0.5 flex items-center gap-1 text-xs font-medium text-amber-800">
                          <Lock className="size-3" aria-hidden="true" />
                          {lockedLabels[platform.id] ?? 'Already published'}
                        </span>
                      )}
                    </span>
                    <span
                      aria-hidden="true"
                      className={cn(
                        'grid size-5 shrink-0 place-items-center rounded-full border',
                        isLocked
                          ? 'border-slate-400 bg-slate-400 text-white'
                          : isSelected
                            ? 'border-indigo-600 bg-indigo-600 text-white'
                            : 'border-slate-300',
                      )}
                    >
                      {isSelected && <Check className="size-3.5" />}
                    </span>
                  </label>
                  {refusals.length > 0 && (
                    <ul
                      id={refusalsId}
                      aria-label={`${platform.label} would refuse this post`}
                      className="mt-1.5 space-y-1 px-1 text-xs text-red-800"
                    >
                      {refusals.map((message) => (
                        <li key={message} className="flex gap-1.5">
                          <AlertTriangle className="mt-0.5 size-3 shrink-0" aria-hidden="true" />
                          <span>{message}</span>
                        </li>
                      ))}
                    </ul>
                  )}
                </li>
              );
            })}
          </ul>
        </>
      )}
    </fieldset>
  );
}
