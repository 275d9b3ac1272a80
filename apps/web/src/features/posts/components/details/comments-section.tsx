import { networkTraitsOf, type Post } from '@herald/contract';
import { MessageCircle } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { NetworkMark } from '@/components/ui/network-mark';
import { accountName } from '../post-accounts';
import { PlatformComments } from './platform-comments';

/**
 * docs/product.md#comments, #comment-states: per network the post went out on, 'See Comments' reads its comments
 * there; each can be liked, answered, and (the account's own) edited or deleted.
 */
export function CommentsSection({ orgId, post }: { orgId: string; post: Post }) {
  const headingId = useId();
  const listId = useId();
  const [open, setOpen] = useState<string[]>([]);

  const isOnNetwork = (platformId: string) =>
    post.platformPosts.some((t) => t.platformId === platformId && t.status === 'PUBLISHED');
  const toggle = (platformId: string) =>
    setOpen((current) =>
      current.includes(platformId)
        ? current.filter((id) => id !== platformId)
        : [...current, platformId],
    );

  return (
    <section
      aria-labelledby={headingId}
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        Comments
      </h2>
      {post.platforms.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">This post has no platforms.</p>
      ) : (
        <ul aria-label="Comments by platform" className="mt-3 divide-y divide-slate-100">
          {post.platforms.map((platform) => {
            const published = isOnNetwork(platform.id);
            // A network without a comments API gets its explanation, not a button that fails.
            const elsewhere = networkTraitsOf(platform.name)?.commentsElsewhere ?? null;
            const permalink =
              post.platformPosts.find((t) => t.platformId === platform.id && t.permalink)
                ?.permalink ?? null;
            const isOpen = published && open.includes(platform.id);
            const panelId = `${listId}-${platform.id}`;
            const accounts = (post.accounts ?? [])
              .filter((a) => a.platformId === platform.id)
              .map(accountName)
              .join(', ');
            return (
              <li key={platform.id} aria-label={platform.name} className="py-2.5">
                <div className="flex items-center justify-between gap-3">
                  <span className="flex min-w-0 items-center gap-2 text-sm font-medium text-slate-900">
                    <NetworkMark name={platform.name} label="name" size="sm" />
                    {platform.name}
                    {accounts && (
                      <span
                        className="line-clamp-1 min-w-0 font-normal break-all text-slate-600"
                        title={accounts}
                      >
                        · {accounts}
                      </span>
                    )}
                  </span>
                  {published && elsewhere ? null : published ? (
                    <Button
                      variant="secondary"
                      size="sm"
                      aria-expanded={isOpen}
                      aria-controls={isOpen ? panelId : undefined}
                      onClick={() => toggle(platform.id)}
                    >
                      <MessageCircle className="size-4" aria-hidden="true" />
                      {isOpen ? 'Hide Comments' : 'See Comments'}
                    </Button>
                  ) : (
                    <span className="text-xs text-slate-600">
                      Comments appear once it is published here.
                    </span>
                  )}
                </div>
                {published && elsewhere && (
                  <p className="mt-1.5 text-sm text-slate-600">
                    {elsewhere}
                    {permalink && (
                      <>
                        {' '}
                        <a
                          href={permalink}
                          target="_blank"
                          rel="noreferrer"
                          className="font-semibold text-indigo-700 underline-offset-4 hover:underline"
                        >
                          Open on {platform.name}
                        </a>
                      </>
                    )}
                  </p>
                )}
                {isOpen && (
                  <PlatformComments
                    id={panelId}
                    orgId={orgId}
                    postId={post.id}
                    platform={platform}
                  />
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
