import type { Platform } from '@herald/contract';
import { Link2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useAuth } from '@/lib/auth';
import { SandboxBadge } from './sandbox-badge';

/** One way to connect: a network, or one kind of account of a network that has several. */
interface ConnectOption {
  key: string;
  platformName: string;
  kind: string | null;
  label: string;
  /**
   * What the option connects, in the member's words; for operators, followed by what the
   * network's developer app needs (LinkedIn's products), which means nothing to anyone else.
   */
  note: string | null;
  sandbox: boolean;
}

/** Key of a connect option, as `leavingFor` names it. */
export const connectKey = (platformName: string, kind?: string | null) =>
  kind ? `${platformName}:${kind}` : platformName;

function optionsOf(platforms: Platform[], isOperator: boolean): ConnectOption[] {
  return platforms.flatMap((platform): ConnectOption[] =>
    platform.connectKinds?.length
      ? platform.connectKinds.map((k) => ({
          key: connectKey(platform.name, k.kind),
          platformName: platform.name,
          kind: k.kind,
          label: k.label,
          note: isOperator ? `${k.description} ${k.requirement}` : k.description,
          sandbox: k.sandbox,
        }))
      : [
          {
            key: connectKey(platform.name),
            platformName: platform.name,
            kind: null,
            label: platform.name,
            note: null,
            sandbox: platform.sandbox,
          },
        ],
  );
}

interface ConnectButtonsProps {
  platforms: Platform[];
  /** The connect option the browser is leaving for (`connectKey`), if any: every button waits meanwhile. */
  leavingFor: string | null;
  onConnect: (platformName: string, kind: string | null) => void;
}

/**
 * One "Continue with {platform}" per network that can be connected (docs/product.md#settings);
 * a network with one developer app per kind of account (LinkedIn) has one per kind, each saying
 * what it posts as (and, to operators, what its app needs).
 */
export function ConnectButtons({ platforms, leavingFor, onConnect }: ConnectButtonsProps) {
  const { user } = useAuth();
  const options = optionsOf(platforms, user?.isAdmin ?? false);
  if (options.length === 0) {
    return <p className="text-sm text-slate-600">No networks can be connected right now.</p>;
  }
  return (
    <ul aria-label="Connect a platform" className="flex flex-wrap gap-3">
      {options.map((option) => {
        const badgeId = `sandbox-${option.key}`;
        const noteId = `note-${option.key}`;
        const describedBy = [option.sandbox ? badgeId : null, option.note ? noteId : null].filter(
          Boolean,
        );
        const button = (
          <Button
            variant="secondary"
            disabled={leavingFor !== null}
            onClick={() => onConnect(option.platformName, option.kind)}
            aria-describedby={describedBy.length ? describedBy.join(' ') : undefined}
          >
            {leavingFor === option.key ? (
              <Spinner className="size-4" />
            ) : (
              <Link2 className="size-4" aria-hidden="true" />
            )}
            Continue with {option.label}
          </Button>
        );
        const badge = option.sandbox && (
          <SandboxBadge id={badgeId} platform={option.platformName} />
        );
        if (!option.note)
          return (
            <li key={option.key} className="flex items-center gap-2">
              {button}
              {badge}
            </li>
          );
        return (
          <li key={option.key} className="flex max-w-sm flex-col gap-1">
            <span className="flex items-center gap-2">
              {button}
              {badge}
            </span>
            <span id={noteId} className="text-xs text-slate-600">
              {option.note}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
