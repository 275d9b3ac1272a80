import type { Post } from '@herald/contract';
import { useState, type DragEvent } from 'react';

/** Our own drag type, so links or files dragged in from elsewhere are never dropped as posts. */
export const POST_DRAG_TYPE = 'application/x-herald-post';

/**
 * HTML5 drag and drop for the calendar: chips of movable posts start a drag carrying the post
 * id; days and time slots accept it and report where it landed. Keyboard users move posts with
 * "Move to…" in the day's list instead.
 */
export function useCalendarDrag(onDrop: (postId: string, targetKey: string) => void) {
  const [draggingId, setDraggingId] = useState<string | null>(null);
  const [overKey, setOverKey] = useState<string | null>(null);

  const isPostDrag = (event: DragEvent) =>
    draggingId !== null || Array.from(event.dataTransfer?.types ?? []).includes(POST_DRAG_TYPE);

  const end = () => {
    setDraggingId(null);
    setOverKey(null);
  };

  const dragSource = (post: Post, isMovable: boolean) =>
    isMovable
      ? {
          draggable: true,
          onDragStart: (event: DragEvent) => {
            event.dataTransfer.setData(POST_DRAG_TYPE, post.id);
            event.dataTransfer.effectAllowed = 'move';
            setDraggingId(post.id);
          },
          onDragEnd: end,
        }
      : // Links drag their address by default; a post that cannot move does not pretend to.
        { draggable: false };

  const dropTarget = (key: string) => ({
    'data-drop-over': overKey === key ? 'true' : undefined,
    onDragOver: (event: DragEvent) => {
      if (!isPostDrag(event)) return;
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'move';
      if (overKey !== key) setOverKey(key);
    },
    onDragLeave: (event: DragEvent) => {
      const next = event.relatedTarget as Node | null;
      if (next && event.currentTarget.contains(next)) return;
      setOverKey((current) => (current === key ? null : current));
    },
    onDrop: (event: DragEvent) => {
      if (!isPostDrag(event)) return;
      event.preventDefault();
      // The drop may land on a chip inside a day: the innermost target decides.
      event.stopPropagation();
      const postId = event.dataTransfer?.getData(POST_DRAG_TYPE) || draggingId;
      end();
      if (postId) onDrop(postId, key);
    },
  });

  return { draggingId, dragSource, dropTarget };
}
