import { FlaskConical } from 'lucide-react';

/**
 * Marks a network (or an account) that this server reaches through its local sandbox instead of
 * the real network: nothing is published for real. `id` lets a button point at it as its
 * description.
 */
export function SandboxBadge({ platform, id }: { platform: string; id?: string }) {
  return (
    <span
      id={id}
      title={`Connected through Herald's local ${platform} sandbox: nothing reaches the real ${platform}.`}
      className="inline-flex items-center gap-1 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900"
    >
      <FlaskConical className="size-3" aria-hidden="true" />
      Sandbox
    </span>
  );
}
