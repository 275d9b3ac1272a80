import type { Post } from '@herald/contract';
import { MessageCircle } from 'lucide-react';
import { useId } from 'react';
import { Button } from '@/components/ui/button';
import { PlatformIcon } from '../platform-icon';
import { ENGINE_PENDING } from './publish-panel';

/**
 * Spec §2 Comments: a 'See Comments' per network of the post. The comments are read from the
 * networks by the publishing engine's issue; until then each button says why it waits.
 */
export function CommentsSection({ post }: { post: Post }) {
  const headingId = useId();
  const hintId = useId();
  return (
    <section
      aria-labelledby={headingId}
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        Comments
      </h2>
      <p id={hintId} className="sr-only">
        {ENGINE_PENDING}
      </p>
      {post.platforms.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">This post has no platforms.</p>
      ) : (
        <ul aria-label="Comments by platform" className="mt-3 divide-y divide-slate-100">
          {post.platforms.map((platform) => (
            <li
              key={platform.id}
              aria-label={platform.name}
              className="flex items-center justify-between gap-3 py-2.5"
            >
              <span className="flex items-center gap-2 text-sm font-medium text-slate-900">
                <PlatformIcon name={platform.name} />
                {platform.name}
              </span>
              <Button
                variant="secondary"
                size="sm"
                disabled
                title={ENGINE_PENDING}
                aria-describedby={hintId}
              >
                <MessageCircle className="size-4" aria-hidden="true" />
                See Comments
              </Button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
