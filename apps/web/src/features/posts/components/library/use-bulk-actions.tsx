import { dayInZone, type BulkChangedPost, type Post } from '@herald/contract';
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc';
import { errorMessage } from '@/lib/api-error';
import { useBulkChange, useBulkDuplicate, useBulkPosts } from '@/lib/posts';
import { toast, toastError } from '@/lib/toast';
import { formatPostDate } from '../post-dates';
import type { RescheduleChoice } from './reschedule-dialog';
import { showUndoToast } from './undo-toast';

dayjs.extend(utc);

/** One toast for the library's bulk actions: a new result replaces the last. */
export const BULK_TOAST = 'library-bulk';
export const UNDO_DONE = 'Undone.';
export const UNDO_FAILED = 'The change could not be undone. Reload the list and check the posts.';

export const postsCount = (n: number) => `${n} post${n === 1 ? '' : 's'}`;

/** "2 of them wait for approval again." when the change sent posts (back) to the approvers. */
function waitingNote(before: readonly Post[], after: readonly BulkChangedPost[]): string {
  const was = new Map(before.map((post) => [post.id, post.status]));
  const n = after.filter(
    (post) => post.status === 'pending_approval' && was.get(post.id) !== 'pending_approval',
  ).length;
  if (n === 0) return '';
  if (n === after.length) return n === 1 ? ' It waits for approval.' : ' They wait for approval.';
  return ` ${n} of them wait for approval.`;
}

/** The day a date field names, written out: "Tuesday, March 10". */
const dayLabel = (date: string) => dayjs.utc(date).format('dddd, MMMM D');

/**
 * The library's bulk actions with what follows each (docs/product.md#bulk-actions): one toast
 * saying what changed, Undo where the change can be taken back exactly (a move whose posts all
 * had a time still to come; queueing drafts; copies), and the server's sentence when it refuses.
 * `done` runs after a success (the selection is cleared).
 */
export function useBulkActions(orgId: string, zone: string, done: () => void) {
  const change = useBulkChange(orgId);
  const duplicate = useBulkDuplicate(orgId);
  const simple = useBulkPosts(orgId);
  const isPending = change.isPending || duplicate.isPending || simple.isPending;

  const undoing = async (steps: Array<() => Promise<unknown>>) => {
    try {
      for (const step of steps) await step();
      toast.success(UNDO_DONE, { id: BULK_TOAST });
    } catch (error) {
      toastError(error, UNDO_FAILED, BULK_TOAST);
    }
  };

  /** Posts back to the days they had (each keeps its time of day, so the times come back too). */
  const backToTheirDays = (before: readonly Post[]) => {
    const byDay = new Map<string, string[]>();
    for (const post of before) {
      const day = dayInZone(new Date(post.scheduledAt!).getTime(), zone);
      byDay.set(day, [...(byDay.get(day) ?? []), post.id]);
    }
    return [...byDay].map(
      ([date, postIds]) =>
        () =>
          change.mutateAsync({ action: 'reschedule', postIds, body: { date, timeZone: zone } }),
    );
  };

  const reschedule = async (selected: readonly Post[], choice: RescheduleChoice) => {
    const postIds = selected.map((post) => post.id);
    const result = await change.mutateAsync({
      action: 'reschedule',
      postIds,
      body: { ...choice, timeZone: zone },
    });
    const n = result.count;
    const where =
      'date' in choice
        ? `moved to ${dayLabel(choice.date)}`
        : `moved ${Math.abs(choice.shiftDays)} day${Math.abs(choice.shiftDays) === 1 ? '' : 's'} ${choice.shiftDays > 0 ? 'later' : 'earlier'}`;
    // A post whose time had passed (a failed one) cannot be put back there.
    const now = Date.now();
    const canUndo = selected.every(
      (post) => post.scheduledAt && new Date(post.scheduledAt).getTime() > now,
    );
    const undo =
      'shiftDays' in choice
        ? () =>
            change.mutateAsync({
              action: 'reschedule',
              postIds,
              body: { shiftDays: -choice.shiftDays, timeZone: zone },
            })
        : null;
    showUndoToast(
      `${postsCount(n)} ${where}.${waitingNote(selected, result.posts)}`,
      canUndo ? () => void undoing(undo ? [undo] : backToTheirDays(selected)) : null,
      BULK_TOAST,
    );
    done();
  };

  const queue = async (selected: readonly Post[]) => {
    const postIds = selected.map((post) => post.id);
    const result = await change.mutateAsync({ action: 'queue', postIds });
    const first = result.posts
      .map((post) => post.scheduledAt)
      .filter((at): at is string => at !== null)
      .sort()[0];
    const when = first ? ` The first goes out ${formatPostDate(first, zone)}.` : '';
    // Drafts go back to drafts exactly; a post that had a time keeps its slot.
    const allDrafts = selected.every((post) => post.status === 'draft');
    showUndoToast(
      `${postsCount(result.count)} added to the queue.${when}${waitingNote(selected, result.posts)}`,
      allDrafts
        ? () => void undoing([() => simple.mutateAsync({ action: 'draft', postIds })])
        : null,
      BULK_TOAST,
    );
    done();
  };

  const copy = async (selected: readonly Post[]) => {
    const result = await duplicate.mutateAsync(selected.map((post) => post.id));
    const n = result.count;
    showUndoToast(
      `${n === 1 ? '1 copy' : `${n} copies`} made as ${n === 1 ? 'a draft' : 'drafts'}.`,
      () => void undoing([() => simple.mutateAsync({ action: 'delete', postIds: result.copyIds })]),
      BULK_TOAST,
    );
    done();
  };

  const approve = async (selected: readonly Post[], publishNow: boolean) => {
    const result = await change.mutateAsync({
      action: 'approve',
      postIds: selected.map((post) => post.id),
      body: publishNow ? { publishNow: true } : {},
    });
    toast.success(`${postsCount(result.count)} approved and scheduled.`, { id: BULK_TOAST });
    done();
  };

  const reject = async (selected: readonly Post[], reason: string) => {
    const result = await change.mutateAsync({
      action: 'reject',
      postIds: selected.map((post) => post.id),
      body: reason ? { reason } : {},
    });
    toast.success(
      `${postsCount(result.count)} rejected and back in drafts. ${result.count === 1 ? 'Its author has' : 'Their authors have'} been told.`,
      { id: BULK_TOAST },
    );
    done();
  };

  const simpleAction = async (action: 'draft' | 'delete', selected: readonly Post[]) => {
    const { count, notice } = await simple.mutateAsync({
      action,
      postIds: selected.map((post) => post.id),
    });
    // What stays at a network (a video uploaded ahead from an account disconnected since).
    const also = notice ? ` ${notice}` : '';
    toast.success(
      `${postsCount(count)} ${action === 'delete' ? 'deleted' : 'moved to draft'}.${also}`,
      { id: BULK_TOAST, ...(notice ? { duration: 15_000 } : {}) },
    );
    done();
  };

  return { isPending, reschedule, queue, copy, approve, reject, simpleAction };
}

/** The server's sentence for a refused bulk action, or the fallback. */
export const refusalOf = (error: unknown) =>
  errorMessage(error, 'The posts could not be changed. Try again.');
