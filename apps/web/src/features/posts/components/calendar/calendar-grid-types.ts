import type { Post } from '@herald/contract';
import type { Dayjs } from 'dayjs';
import type { DragEvent } from 'react';
import type { DatedPost } from './calendar-dates';
import type { CalendarSlot } from './empty-slot-marker';

/** What the week and month grids need from the page: posts, drag and drop, and the day list. */
export interface CalendarGridProps {
  days: Dayjs[];
  byDay: Map<string, DatedPost[]>;
  todayKey: string;
  /** Whether the member may create posts (the "Create a post" links). */
  canCreate: boolean;
  /** Empty posting-queue slots per day key (wall times), shown as subtle markers. */
  emptySlots?: Map<string, CalendarSlot[]>;
  onOpenDay: (key: string) => void;
  isMovable: (post: Post) => boolean;
  draggingId: string | null;
  dragSource: (
    post: Post,
    isMovable: boolean,
  ) => {
    draggable: boolean;
    onDragStart?: (event: DragEvent) => void;
    onDragEnd?: () => void;
  };
  dropTarget: (key: string) => {
    'data-drop-over': string | undefined;
    onDragOver: (event: DragEvent) => void;
    onDragLeave: (event: DragEvent) => void;
    onDrop: (event: DragEvent) => void;
  };
}

/** Drop target keys: a whole day keeps the post's time, a slot sets the hour. */
export const dayTarget = (key: string) => `day:${key}`;
export const slotTarget = (key: string, hour: number) => `slot:${key}:${hour}`;

export function parseTarget(target: string): { dayKey: string; hour: number | null } | null {
  const match = /^(day|slot):(\d{4}-\d{2}-\d{2})(?::(\d{1,2}))?$/.exec(target);
  if (!match) return null;
  return { dayKey: match[2]!, hour: match[3] === undefined ? null : Number(match[3]) };
}

export const dropHighlight =
  'data-[drop-over=true]:bg-indigo-100 data-[drop-over=true]:ring-2 data-[drop-over=true]:ring-indigo-400 data-[drop-over=true]:ring-inset';
