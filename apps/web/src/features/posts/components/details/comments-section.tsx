import { networkTraitsOf, type Post } from '@herald/contract';
import { MessageCircle } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { NetworkMark } from '@/components/ui/network-mark';
import { accountName } from '../post-accounts';
import { PlatformComments } from './platform-comments';

/** One line of the section: a network, or one of its accounts where the post went out from several. */
interface CommentsRow {
  key: string;
  platform: Post['platforms'][number];
  /** The account, when the network has several of the post's accounts; null otherwise. */
  integrationId: string | null;
  /** The accounts the line stands for, as people know them. */
  accounts: string;
  published: boolean;
  permalink: string | null;
}

/**
 * A line per network; where the post went out from several accounts of one network (two X
 * accounts), a line per account: each has its own post there, with its own comments.
 */
function commentsRows(post: Post): CommentsRow[] {
  return post.platforms.flatMap((platform): CommentsRow[] => {
    const targets = post.platformPosts.filter((t) => t.platformId === platform.id);
    const accountIds = new Set(targets.map((t) => t.integrationId).filter(Boolean));
    if (accountIds.size > 1) {
      return targets.map((target) => ({
        key: `${platform.id}:${target.integrationId ?? target.id}`,
        platform,
        integrationId: target.integrationId,
        accounts:
          target.accountName ??
          (target.accountUsername ? `@${target.accountUsername}` : platform.name),
        published: target.status === 'PUBLISHED',
        permalink: target.permalink,
      }));
    }
    return [
      {
        key: platform.id,
        platform,
        integrationId: null,
        accounts: (post.accounts ?? [])
          .filter((a) => a.platformId === platform.id)
          .map(accountName)
          .join(', '),
        published: targets.some((t) => t.status === 'PUBLISHED'),
        permalink: targets.find((t) => t.permalink)?.permalink ?? null,
      },
    ];
  });
}

/**
 * docs/product.md#comments, #comment-states: per network the post went out on (per account,
 * where it went out from several of one network), 'See Comments' reads its comments there;
 * each can be liked, answered, and (the account's own) edited or deleted.
 */
export function CommentsSection({ orgId, post }: { orgId: string; post: Post }) {
  const headingId = useId();
  const listId = useId();
  const [open, setOpen] = useState<string[]>([]);

  const toggle = (key: string) =>
    setOpen((current) =>
      current.includes(key) ? current.filter((id) => id !== key) : [...current, key],
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
          {commentsRows(post).map(
            ({ key, platform, integrationId, accounts, published, permalink }) => {
              // A network without a comments API gets its explanation, not a button that fails.
              const elsewhere = networkTraitsOf(platform.name)?.commentsElsewhere ?? null;
              const isOpen = published && open.includes(key);
              const panelId = `${listId}-${key}`;
              const rowLabel = integrationId ? `${platform.name} · ${accounts}` : platform.name;
              return (
                <li key={key} aria-label={rowLabel} className="py-2.5">
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
                        onClick={() => toggle(key)}
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
                      integrationId={integrationId}
                      label={rowLabel}
                    />
                  )}
                </li>
              );
            },
          )}
        </ul>
      )}
    </section>
  );
}
