import type { Post } from '@herald/contract';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useUpdatePost } from '@/lib/posts';
import { toast, toastError } from '@/lib/toast';
import { wallToInstant } from '@/lib/zoned-time';

export const MOVE_INTO_PAST = "A post can't be moved into the past. Choose a later day or time.";
export const MOVE_FAILED = 'Failed to move the post.';
export const UNDO_FAILED = 'Failed to undo the move.';
/** Long enough to read the sentence and reach Undo; the 2 s success default is not. */
export const UNDO_TOAST_MS = 8000;

const movedLabel = (at: Dayjs) => at.format('dddd, MMMM D [at] h:mm A');

/** Only scheduled posts move on the calendar; the rest keep the time they have. */
export const canReschedule = (post: Post) => post.status === 'scheduled';

/**
 * Moves a scheduled post to a new time with `PUT {scheduledAt}`; `to` is a wall time in `zone`
 * (the calendar's days are the user's days). The post shows at its new
 * place at once (the server's answer confirms it); the toast says where it went and offers
 * Undo, which puts back the previous time.
 */
export function useReschedule(orgId: string, zone: string) {
  const update = useUpdatePost(orgId);
  const [pending, setPending] = useState<Record<string, string>>({});

  const send = async (postId: string, scheduledAt: string) => {
    setPending((current) => ({ ...current, [postId]: scheduledAt }));
    try {
      return await update.mutateAsync({ postId, scheduledAt });
    } finally {
      setPending(({ [postId]: _done, ...rest }) => rest);
    }
  };

  const undo = async (postId: string, previous: string) => {
    try {
      await send(postId, previous);
      toast.success('Move undone.', { id: `moved-${postId}` });
    } catch (error) {
      toastError(error, UNDO_FAILED);
    }
  };

  const move = async (post: Post, to: Dayjs) => {
    if (!to.isValid()) return;
    const instant = wallToInstant(to, zone);
    if (instant <= Date.now()) {
      toast.error(MOVE_INTO_PAST, { id: 'move-into-past' });
      return;
    }
    const previous = post.scheduledAt;
    if (previous && new Date(previous).getTime() === instant) return;
    try {
      await send(post.id, new Date(instant).toISOString());
    } catch (error) {
      toastError(error, MOVE_FAILED);
      return;
    }
    toast.success(
      (t) => (
        <span className="flex items-center gap-3">
          <span>Post moved to {movedLabel(to)}</span>
          {previous && (
            <button
              type="button"
              onClick={() => {
                toast.dismiss(t.id);
                void undo(post.id, previous);
              }}
              className="rounded-md px-2 py-1 font-semibold text-indigo-700 hover:bg-indigo-50 focus-visible:outline-2 focus-visible:outline-indigo-600"
            >
              Undo
            </button>
          )}
        </span>
      ),
      { id: `moved-${post.id}`, duration: UNDO_TOAST_MS },
    );
  };

  return { move, pending };
}
