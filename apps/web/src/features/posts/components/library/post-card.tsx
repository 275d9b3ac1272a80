import { defaultContent, type Post } from '@herald/contract';
import { FileText } from 'lucide-react';
import { generatePath, Link } from 'react-router';
import { NetworkMarks } from '@/components/ui/network-mark';
import { paths } from '@/config/paths';
import { MediaThumbnail } from '../media-thumbnail';
import { DATE_FORMAT, formatPostDate } from '../post-dates';
import { StatusBadge } from '../status-badge';

/**
 * One post in the library grid (docs/product.md#content-library): picture, status, networks, two lines of text and its
 * dates. The text is the link, stretched over the whole card, so the card opens the post and a
 * screen reader hears the post's words rather than "link".
 */
export function PostCard({ post, zone }: { post: Post; zone: string }) {
  const text = defaultContent(post.content).trim();
  const title = post.title?.trim();
  const isOut = post.status === 'published';
  const cover = post.media[0];
  return (
    <article className="group relative flex h-full flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm transition-shadow focus-within:ring-2 focus-within:ring-indigo-600 hover:shadow-md">
      <div className="relative aspect-video bg-slate-100">
        {cover ? (
          <MediaThumbnail media={cover} className="size-full rounded-none" />
        ) : (
          <span className="grid size-full place-items-center text-slate-400">
            <FileText className="size-8" aria-hidden="true" />
          </span>
        )}
        {post.media.length > 1 && (
          <span className="absolute right-2 bottom-2 rounded-full bg-slate-900/75 px-2 py-0.5 text-xs font-semibold text-white">
            {post.media.length} files
          </span>
        )}
      </div>
      <div className="flex flex-1 flex-col gap-3 p-4">
        <div className="flex items-center justify-between gap-2">
          <StatusBadge status={post.status} />
          <NetworkMarks platforms={post.platforms} />
        </div>
        <Link
          to={generatePath(paths.postDetails, { postId: post.id })}
          className="line-clamp-3 text-sm text-slate-900 after:absolute after:inset-0 focus-visible:outline-none"
        >
          {title && <span className="block truncate font-semibold">{title}</span>}
          {text || <span className="text-slate-500 italic">No content</span>}
        </Link>
        <dl className="mt-auto grid grid-cols-2 gap-2 text-xs">
          <div>
            <dt className="text-slate-500">Created</dt>
            <dd className="font-medium text-slate-800">
              {formatPostDate(post.createdAt, zone, { format: DATE_FORMAT, empty: 'Unknown' })}
            </dd>
          </div>
          {/* A post that is out says when it went, not when it was planned. */}
          <div>
            <dt className="text-slate-500">{isOut ? 'Published' : 'Scheduled for'}</dt>
            <dd className="font-medium text-slate-800">
              {formatPostDate(
                isOut ? (post.publishedAt ?? post.scheduledAt) : post.scheduledAt,
                zone,
              )}
            </dd>
          </div>
        </dl>
      </div>
    </article>
  );
}
