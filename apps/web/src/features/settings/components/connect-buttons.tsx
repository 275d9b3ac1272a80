import type { Platform } from '@herald/contract';
import { Link2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { SandboxBadge } from './sandbox-badge';

interface ConnectButtonsProps {
  platforms: Platform[];
  /** The network the browser is leaving for, if any: every button waits meanwhile. */
  leavingFor: string | null;
  onConnect: (platformName: string) => void;
}

/** One "Continue with {platform}" per network that can be connected (docs/product.md#settings). */
export function ConnectButtons({ platforms, leavingFor, onConnect }: ConnectButtonsProps) {
  if (platforms.length === 0) {
    return <p className="text-sm text-slate-600">No networks can be connected right now.</p>;
  }
  return (
    <ul aria-label="Connect a platform" className="flex flex-wrap gap-3">
      {platforms.map((platform) => {
        const badgeId = `sandbox-${platform.id}`;
        return (
          <li key={platform.id} className="flex items-center gap-2">
            <Button
              variant="secondary"
              disabled={leavingFor !== null}
              onClick={() => onConnect(platform.name)}
              aria-describedby={platform.sandbox ? badgeId : undefined}
            >
              {leavingFor === platform.name ? (
                <Spinner className="size-4" />
              ) : (
                <Link2 className="size-4" aria-hidden="true" />
              )}
              Continue with {platform.name}
            </Button>
            {platform.sandbox && <SandboxBadge id={badgeId} platform={platform.name} />}
          </li>
        );
      })}
    </ul>
  );
}
