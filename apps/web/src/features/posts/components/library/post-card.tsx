import { defaultContent, type Post } from '@herald/contract';
import { FileText, Pencil } from 'lucide-react';
import { generatePath, Link } from 'react-router';
import { NetworkMarks } from '@/components/ui/network-mark';
import { paths } from '@/config/paths';
import { cn } from '@/lib/cn';
import { MediaThumbnail } from '../media-thumbnail';
import { DATE_FORMAT, formatPostDate } from '../post-dates';
import { isEditable, nextPublication, uploadedAheadTo } from '../post-status';
import { StatusBadge } from '../status-badge';
import { postName, type Selection } from './selection';
import { accountsLine } from '../post-accounts';
import { DuplicatePostButton } from '../duplicate-button';

/**
 * One post in the library grid (docs/product.md#content-library): picture, status, networks, two lines of text and its
 * dates. The text is the link, stretched over the whole card, so the card opens the post and a
 * screen reader hears the post's words rather than "link".
 */
export function PostCard({
  post,
  zone,
  selection = null,
  canEdit = false,
}: {
  post: Post;
  zone: string;
  /** Bulk actions: a checkbox over the picture, above the card's link. */
  selection?: Selection | null;
  /** The member may edit posts: an Edit button over the picture for posts not yet out. */
  canEdit?: boolean;
}) {
  const text = defaultContent(post.content).trim();
  const title = post.title?.trim();
  const isOut = post.status === 'published';
  // Partly out: the card says when the next network is due rather than the original time.
  const next = post.status === 'partially_published' ? nextPublication(post) : null;
  const partlyOut = post.status === 'partially_published';
  // Already at a network that publishes it itself at its time (YouTube's scheduling).
  const uploaded = uploadedAheadTo(post);
  // With nothing due next, a partly published post says when a network last had it.
  const lastOut =
    post.publishedAt ??
    post.platformPosts
      .flatMap((t) => (t.publishedAt ? [t.publishedAt] : []))
      .sort((a, b) => Date.parse(b) - Date.parse(a))[0] ??
    post.scheduledAt;
  const cover = post.media[0];
  return (
    <article
      className={cn(
        'group relative flex h-full flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm transition-shadow focus-within:ring-2 focus-within:ring-indigo-600 hover:shadow-md',
        selection?.isSelected(post.id) && 'border-indigo-400 ring-2 ring-indigo-500',
      )}
    >
      <div className="relative aspect-video bg-slate-100">
        {cover ? (
          <MediaThumbnail media={cover} className="size-full rounded-none" />
        ) : (
          <span className="grid size-full place-items-center text-slate-400">
            <FileText className="size-8" aria-hidden="true" />
          </span>
        )}
        {selection && (
          <label className="absolute top-2 left-2 z-10 grid size-9 cursor-pointer place-items-center rounded-lg bg-white/90 shadow-sm ring-1 ring-slate-200">
            <input
              type="checkbox"
              aria-label={`Select ${postName(post)}`}
              checked={selection.isSelected(post.id)}
              onChange={(event) => selection.toggle(post.id, event.target.checked)}
              className="size-4 cursor-pointer accent-indigo-600"
            />
          </label>
        )}
        <div className="absolute top-2 right-2 z-10 flex gap-2">
          <DuplicatePostButton post={post} look="icon" />
          {canEdit && isEditable(post.status) && (
            <Link
              to={generatePath(paths.editPost, { postId: post.id })}
              aria-label={`Edit ${postName(post)}`}
              title="Edit"
              className="grid size-9 place-items-center rounded-lg bg-white/90 text-slate-700 shadow-sm ring-1 ring-slate-200 hover:text-indigo-700 focus-visible:outline-2 focus-visible:outline-indigo-600"
            >
              <Pencil className="size-4" aria-hidden="true" />
            </Link>
          )}
        </div>
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
        {accountsLine(post) && (
          // Wraps to two lines at most: a one-line cut would widen the card on a phone.
          <p className="line-clamp-2 text-xs break-words text-slate-600" title={accountsLine(post)}>
            {accountsLine(post)}
          </p>
        )}
        <Link
          to={generatePath(paths.postDetails, { postId: post.id })}
          className="line-clamp-3 text-sm wrap-anywhere text-slate-900 after:absolute after:inset-0 focus-visible:outline-none"
        >
          {title && <span className="block truncate font-semibold">{title}</span>}
          {text || <span className="text-slate-500 italic">No content</span>}
        </Link>
        {uploaded.length > 0 && (
          <p className="text-xs text-emerald-800">
            Uploaded to {uploaded.join(', ')}: published there at the scheduled time
          </p>
        )}
        <dl className="mt-auto grid grid-cols-2 gap-2 text-xs">
          <div>
            <dt className="text-slate-500">Created</dt>
            <dd className="font-medium text-slate-800">
              {formatPostDate(post.createdAt, zone, { format: DATE_FORMAT, empty: 'Unknown' })}
            </dd>
          </div>
          {/* A post that is out says when it went, not when it was planned. */}
          <div>
            <dt className="text-slate-500">
              {isOut ? 'Published' : partlyOut ? (next ? 'Next' : 'Published') : 'Scheduled for'}
            </dt>
            <dd className="font-medium text-slate-800">
              {formatPostDate(
                isOut || (partlyOut && !next) ? lastOut : (next ?? post.scheduledAt),
                zone,
              )}
            </dd>
          </div>
        </dl>
      </div>
    </article>
  );
}
