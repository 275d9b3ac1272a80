import type { Integration, PlatformPost, Post } from '@herald/contract';
import { ExternalLink, Send } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { cn } from '@/lib/cn';
import { PlatformIcon } from '../platform-icon';
import { isPublished } from '../post-status';

/** Why Publish Now and See Comments wait: the engine that talks to the networks comes next. */
export const ENGINE_PENDING = 'Publishing arrives with the publishing engine';
export const NO_PLATFORMS_CONNECTED =
  'No platforms connected. Please connect platforms in your organization settings to publish posts.';

const pill = 'rounded-full px-2 py-0.5 text-xs font-semibold';

function TargetStatus({ target, isWaiting }: { target: PlatformPost; isWaiting: boolean }) {
  // A scheduled post's networks are queued until its time: that is waiting, not publishing.
  if (isWaiting && target.status === 'QUEUED') {
    return <span className={cn(pill, 'bg-blue-100 text-blue-800')}>Scheduled</span>;
  }
  switch (target.status) {
    case 'PUBLISHED':
      return (
        <span className="flex items-center gap-2">
          <span className={cn(pill, 'bg-emerald-100 text-emerald-800')}>Published</span>
          {target.permalink && (
            <a
              href={target.permalink}
              target="_blank"
              rel="noreferrer"
              className="inline-flex items-center gap-1 text-xs font-semibold text-indigo-700 hover:underline"
            >
              View on {target.platformName}
              <ExternalLink className="size-3" aria-hidden="true" />
            </a>
          )}
        </span>
      );
    case 'FAILED': {
      const reason = target.error?.trim() || 'Publishing failed';
      return (
        <span className={cn(pill, 'cursor-help bg-red-100 text-red-800')} title={reason}>
          Failed<span className="sr-only">: {reason}</span>
        </span>
      );
    }
    case 'UNCERTAIN':
      return (
        <span className={cn(pill, 'bg-yellow-100 text-yellow-900')}>
          Check on {target.platformName}
        </span>
      );
    default:
      // QUEUED, PREPARING, READY, PUBLISHING: the engine is on it.
      return <span className={cn(pill, 'bg-amber-100 text-amber-900')}>Publishing...</span>;
  }
}

function ConnectionStatus({ isConnected }: { isConnected: boolean | null }) {
  if (isConnected === null) return null;
  if (isConnected)
    return <span className={cn(pill, 'bg-slate-100 text-slate-700')}>Connected</span>;
  return (
    <Link
      to={paths.settings}
      className="rounded-md border border-slate-300 px-2 py-0.5 text-xs font-semibold text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-600"
    >
      Connect
    </Link>
  );
}

/**
 * Spec §2 Publish to Platform: a row per network of the post with where it stands. Publishing
 * itself is wired by the publishing engine; until then Publish Now says so.
 */
export function PublishPanel({
  post,
  integrations,
  onClose,
}: {
  post: Post;
  /** The organization's accounts; undefined while unknown. */
  integrations: Integration[] | undefined;
  onClose: () => void;
}) {
  const headingId = useId();
  const hintId = useId();
  const published = isPublished(post.status);
  const connected = integrations?.filter((i) => i.status === 'CONNECTED');
  const isConnected = (platformId: string) =>
    connected ? connected.some((i) => i.platform.id === platformId) : null;
  const names = post.platforms.map((p) => p.name);

  return (
    <section
      aria-labelledby={headingId}
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        Publish to Platform
      </h2>
      {published ? (
        <p className="mt-2 text-sm text-slate-700">
          This post was published to {names.length > 0 ? names.join(', ') : 'its platforms'}.
        </p>
      ) : (
        connected?.length === 0 && (
          <p className="mt-2 text-sm text-amber-800">{NO_PLATFORMS_CONNECTED}</p>
        )
      )}
      <ul aria-label="Platforms of this post" className="mt-3 divide-y divide-slate-100">
        {post.platforms.map((platform) => {
          const target = post.platformPosts.find((t) => t.platformId === platform.id);
          return (
            <li
              key={platform.id}
              aria-label={platform.name}
              className="flex items-center justify-between gap-3 py-2.5"
            >
              <span className="flex items-center gap-2 text-sm font-medium text-slate-900">
                <PlatformIcon name={platform.name} />
                {platform.name}
              </span>
              {target ? (
                <TargetStatus target={target} isWaiting={post.status === 'scheduled'} />
              ) : (
                <ConnectionStatus isConnected={isConnected(platform.id)} />
              )}
            </li>
          );
        })}
      </ul>
      <div className="mt-4 flex flex-wrap justify-end gap-3">
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
        {!published && (
          <>
            <Button disabled title={ENGINE_PENDING} aria-describedby={hintId}>
              <Send className="size-4" aria-hidden="true" />
              Publish Now
            </Button>
            <span id={hintId} className="sr-only">
              {ENGINE_PENDING}
            </span>
          </>
        )}
      </div>
    </section>
  );
}
