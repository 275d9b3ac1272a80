import { defaultContent, type Post } from '@herald/contract';
import type { Dayjs } from 'dayjs';
import { ArrowRight, Plus } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { generatePath, Link } from 'react-router';
import { Button, ButtonLink } from '@/components/ui/button';
import { Modal } from '@/components/ui/modal';
import { NetworkMarks } from '@/components/ui/network-mark';
import { paths } from '@/config/paths';
import { useTimeZone } from '@/lib/use-time-zone';
import { parseWall, wallNow } from '@/lib/zoned-time';
import { MediaThumbnail } from '../media-thumbnail';
import { StatusBadge } from '../status-badge';
import { createPostSearch, type DatedPost } from './calendar-dates';

/** docs/product.md#constants: the day's list shows at most 5 files of a post, then "+N". */
export const MAX_THUMBNAILS = 5;
export const NO_POSTS_THAT_DAY = 'No posts scheduled for this day';

const INPUT_FORMAT = 'YYYY-MM-DDTHH:mm';

/** What kind of post it is, from its files: text only, an image, a video, or several files. */
export function postType(post: Post): string {
  const [first, ...rest] = post.media;
  if (!first) return 'Text';
  if (rest.length > 0) return 'Carousel';
  return first.kind === 'video' ? 'Video' : 'Image';
}

/** The keyboard way to reschedule: pick a day and time, then Move. */
function MoveForm({ at, onMove }: { at: Dayjs; onMove: (to: Dayjs) => void }) {
  const id = useId();
  const zone = useTimeZone();
  const [value, setValue] = useState(at.format(INPUT_FORMAT));
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (value) onMove(parseWall(value));
  };
  return (
    <form onSubmit={onSubmit} className="flex flex-wrap items-end gap-2">
      <div>
        <label htmlFor={id} className="block text-xs font-medium text-slate-700">
          Move to…
        </label>
        <input
          id={id}
          type="datetime-local"
          required
          value={value}
          min={wallNow(zone).format(INPUT_FORMAT)}
          onChange={(event) => setValue(event.target.value)}
          className="mt-1 rounded-lg border border-slate-300 px-2 py-1 text-sm text-slate-900 shadow-sm focus:border-indigo-500 focus:outline-2 focus:outline-indigo-200"
        />
      </div>
      <Button type="submit" variant="secondary" size="sm">
        Move
      </Button>
    </form>
  );
}

function DayPostCard({
  item: { post, at },
  canMove,
  onMove,
}: {
  item: DatedPost;
  canMove: boolean;
  onMove: (post: Post, to: Dayjs) => void;
}) {
  const text = defaultContent(post.content).trim();
  const shown = post.media.slice(0, MAX_THUMBNAILS);
  const more = post.media.length - shown.length;
  return (
    <article className="flex flex-col gap-3 rounded-xl border border-slate-200 p-4">
      <div className="flex flex-wrap items-center gap-2">
        <time
          dateTime={at.format(INPUT_FORMAT)}
          className="font-semibold text-slate-900 tabular-nums"
        >
          {at.format('h:mm A')}
        </time>
        <StatusBadge status={post.status} />
        <span className="rounded-full border border-slate-300 px-2 py-0.5 text-xs text-slate-700">
          {postType(post)}
        </span>
        <NetworkMarks platforms={post.platforms} className="ml-auto" />
      </div>
      <p className="line-clamp-3 text-sm whitespace-pre-line text-slate-800">
        {text || <span className="text-slate-500 italic">No content</span>}
      </p>
      {shown.length > 0 && (
        <ul aria-label="Media" className="flex flex-wrap items-center gap-2">
          {shown.map((media) => (
            <li key={media.id}>
              <MediaThumbnail media={media} className="size-14" />
            </li>
          ))}
          {more > 0 && (
            <li
              aria-label={`${more} more file${more === 1 ? '' : 's'}`}
              className="grid size-14 place-items-center rounded-lg bg-slate-100 text-sm font-semibold text-slate-700"
            >
              <span aria-hidden="true">+{more}</span>
            </li>
          )}
        </ul>
      )}
      <div className="flex flex-wrap items-end justify-between gap-3">
        {canMove ? <MoveForm at={at} onMove={(to) => onMove(post, to)} /> : <span />}
        <Link
          to={generatePath(paths.postDetails, { postId: post.id })}
          className="inline-flex items-center gap-1 text-sm font-semibold text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          View
          <span className="sr-only"> the {at.format('h:mm A')} post</span>
          <ArrowRight className="size-4" aria-hidden="true" />
        </Link>
      </div>
    </article>
  );
}

/** A day's posts (docs/product.md#calendar), with "Create a post" at a chosen time. */
export function DayModal({
  day,
  posts,
  canCreate,
  onClose,
  isMovable,
  onMove,
}: {
  day: Dayjs;
  posts: DatedPost[];
  canCreate: boolean;
  onClose: () => void;
  isMovable: (post: Post) => boolean;
  onMove: (post: Post, to: Dayjs) => void;
}) {
  const timeId = useId();
  const [time, setTime] = useState('09:00');
  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title={day.format('dddd, MMMM D, YYYY')}
      size="lg"
    >
      <div className="flex flex-col gap-4">
        {canCreate && (
          <div className="flex flex-wrap items-end gap-3 rounded-xl bg-slate-50 p-3">
            <div>
              <label htmlFor={timeId} className="block text-xs font-medium text-slate-700">
                Time
              </label>
              <input
                id={timeId}
                type="time"
                value={time}
                onChange={(event) => setTime(event.target.value)}
                className="mt-1 rounded-lg border border-slate-300 px-2 py-1 text-sm text-slate-900 shadow-sm focus:border-indigo-500 focus:outline-2 focus:outline-indigo-200"
              />
            </div>
            <ButtonLink
              to={{ pathname: paths.createPost, search: createPostSearch(day, time || undefined) }}
              size="sm"
            >
              <Plus className="size-4" aria-hidden="true" />
              Create a post
            </ButtonLink>
          </div>
        )}
        {posts.length === 0 ? (
          <p className="rounded-xl border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600">
            {NO_POSTS_THAT_DAY}
          </p>
        ) : (
          <ul aria-label="Posts of the day" className="flex flex-col gap-3">
            {posts.map((item) => (
              <li key={item.post.id}>
                <DayPostCard item={item} canMove={isMovable(item.post)} onMove={onMove} />
              </li>
            ))}
          </ul>
        )}
      </div>
    </Modal>
  );
}
