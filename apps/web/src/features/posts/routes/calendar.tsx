import type { Post } from '@herald/contract';
import { useCallback, useState } from 'react';
import { useSearchParams } from 'react-router';
import { LoadError } from '@/components/ui/load-error';
import { LoadingIndicator } from '@/components/ui/spinner';
import { TimeZoneNote } from '@/components/ui/time-zone-note';
import { errorMessage } from '@/lib/api-error';
import { useAuth } from '@/lib/auth';
import { useCan } from '@/lib/permissions';
import { usePosts } from '@/lib/posts';
import { readStorage, storageKeys, writeStorage } from '@/lib/storage';
import { PHONE_QUERY, useMediaQuery } from '@/lib/use-media-query';
import { useTimeZoneRule } from '@/lib/use-time-zone';
import { parseWall, wallNow } from '@/lib/zoned-time';
import {
  dayKey,
  groupByDay,
  isCalendarView,
  isUnscheduled,
  moveToDay,
  moveToSlot,
  parseAnchor,
  rangeLabel,
  stepUnit,
  visibleDays,
  visibleRange,
  type CalendarView,
} from '../components/calendar/calendar-dates';
import { parseTarget, type CalendarGridProps } from '../components/calendar/calendar-grid-types';
import { DRAG_HINT_ID } from '../components/calendar/calendar-post-chip';
import { CalendarToolbar } from '../components/calendar/calendar-toolbar';
import { DayModal } from '../components/calendar/day-modal';
import { MonthView } from '../components/calendar/month-view';
import { useCalendarDrag } from '../components/calendar/use-calendar-drag';
import { canReschedule, useReschedule } from '../components/calendar/use-reschedule';
import { WeekView } from '../components/calendar/week-view';
import { AgendaView } from '../components/calendar/agenda-view';
import { useEmptySlotsByDay } from '../components/calendar/empty-slot-marker';
import { UNSCHEDULED_TRAY_SIZE, UnscheduledTray } from '../components/calendar/unscheduled-tray';

/** The hour an undated draft dropped on a whole day is scheduled at (wall time). */
const UNSCHEDULED_DROP_HOUR = 9;

type ScreenKind = 'phone' | 'wide';

/** The view last chosen on a phone and on a larger screen (each remembered apart). */
function rememberedViews(): Partial<Record<ScreenKind, CalendarView>> {
  try {
    const saved: unknown = JSON.parse(readStorage(storageKeys.calendarView) ?? '{}');
    if (typeof saved !== 'object' || saved === null) return {};
    const entries = Object.entries(saved).filter(([, view]) => isCalendarView(view));
    return Object.fromEntries(entries) as Partial<Record<ScreenKind, CalendarView>>;
  } catch {
    return {};
  }
}

function rememberView(screen: ScreenKind, view: CalendarView) {
  writeStorage(storageKeys.calendarView, JSON.stringify({ ...rememberedViews(), [screen]: view }));
}

/**
 * View and anchor day live in the address, so a reload or Back shows the same range. Without a
 * view in the address, the one last chosen on this kind of screen shows: at first the agenda on
 * a phone (a week grid does not fit), the week elsewhere.
 */
function useCalendarPosition(zone: string) {
  const [params, setParams] = useSearchParams();
  const screen: ScreenKind = useMediaQuery(PHONE_QUERY) ? 'phone' : 'wide';
  const asked = params.get('view');
  const view: CalendarView = isCalendarView(asked)
    ? asked
    : (rememberedViews()[screen] ?? (screen === 'phone' ? 'agenda' : 'week'));
  const anchor = parseAnchor(params.get('date'), wallNow(zone));
  const setPosition = useCallback(
    (change: { view?: CalendarView; date?: string | null }) => {
      if (change.view) rememberView(screen, change.view);
      setParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          if (change.view) next.set('view', change.view);
          if (change.date === null) next.delete('date');
          else if (change.date) next.set('date', change.date);
          return next;
        },
        { replace: true },
      );
    },
    [setParams, screen],
  );
  return { view, anchor, setPosition };
}

function CalendarError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const detail = errorMessage(error, '');
  return (
    <LoadError
      title="Error Loading Posts"
      message={`Failed to load posts. ${detail}`.trim()}
      onRetry={onRetry}
    />
  );
}

/**
 * /calendar (docs/product.md#calendar): the week (or month) of posts by day, as a grid or, on phones by
 * default, as an agenda (a list by day). Scheduled posts move by drag and drop, or with "Move to…"
 * in a day's list; each move can be undone from its toast. The header names the zone shown.
 */
export function CalendarPage() {
  const { currentOrgId } = useAuth();
  const orgId = currentOrgId ?? '';
  const canEdit = useCan('PUT /organizations/:orgId/posts/:postId');
  const canCreate = useCan('POST /organizations/:orgId/post');
  const { zone, source: zoneSource } = useTimeZoneRule();
  const { view, anchor, setPosition } = useCalendarPosition(zone);
  const isPhone = useMediaQuery(PHONE_QUERY);
  const [openDayKey, setOpenDayKey] = useState<string | null>(null);

  const days = visibleDays(view, anchor);
  // Without paging the server answers every post of the range (up to its cap of 500).
  const range = visibleRange(days, zone);
  const posts = usePosts(currentOrgId, range);
  const emptySlots = useEmptySlotsByDay(currentOrgId, range, zone, view !== 'agenda');
  const undated = usePosts(currentOrgId, {
    status: 'draft',
    unscheduled: true,
    page: 1,
    pageSize: UNSCHEDULED_TRAY_SIZE,
  });
  const { move, pending } = useReschedule(orgId, zone);
  const list = posts.data?.posts ?? [];
  const byDay = groupByDay(list, zone, pending);
  // A draft just dropped on a day leaves the tray at once (the server's answer confirms it).
  const tray = (undated.data?.posts ?? []).filter((p) => isUnscheduled(p) && !pending[p.id]);
  const trayTotal =
    (undated.data?.totalCount ?? 0) - ((undated.data?.posts.length ?? 0) - tray.length);
  const isMovable = (post: Post) => canEdit && (canReschedule(post) || isUnscheduled(post));

  const { draggingId, dragSource, dropTarget } = useCalendarDrag((postId, target) => {
    const post = list.find((p) => p.id === postId) ?? tray.find((p) => p.id === postId);
    const place = parseTarget(target);
    if (!post || !place || !isMovable(post)) return;
    const day = parseWall(place.dayKey);
    const current = [...byDay.values()].flat().find((item) => item.post.id === postId);
    if (!current) {
      // An undated draft takes the hour it was dropped on, or the start of a working day.
      void move(post, day.startOf('day').hour(place.hour ?? UNSCHEDULED_DROP_HOUR));
      return;
    }
    const to =
      place.hour === null ? moveToDay(current.at, day) : moveToSlot(current.at, day, place.hour);
    void move(post, to);
  });

  const grid: CalendarGridProps = {
    days,
    byDay,
    todayKey: dayKey(wallNow(zone)),
    canCreate,
    emptySlots,
    onOpenDay: setOpenDayKey,
    isMovable,
    draggingId,
    dragSource,
    dropTarget,
  };

  const renderBody = () => {
    if (posts.isPending) return <LoadingIndicator label="Loading posts" className="py-16" />;
    if (posts.isError && !posts.data) {
      return <CalendarError error={posts.error} onRetry={() => void posts.refetch()} />;
    }
    if (view === 'agenda') return <AgendaView {...grid} />;
    return view === 'week' ? (
      <WeekView {...grid} />
    ) : (
      <MonthView {...grid} month={anchor} compact={isPhone} />
    );
  };

  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-6">
      <title>Calendar · Herald</title>
      <header>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">Calendar</h1>
        <p className="mt-1 text-slate-600">
          Your posts by day.
          {canEdit &&
            view !== 'agenda' &&
            ' Drag a scheduled post to another day or hour to reschedule it.'}
        </p>
        <TimeZoneNote zone={zone} source={zoneSource} className="mt-1" />
      </header>
      <CalendarToolbar
        view={view}
        label={rangeLabel(view, anchor)}
        onToday={() => setPosition({ date: null })}
        onStep={(step) => setPosition({ date: dayKey(anchor.add(step, stepUnit(view))) })}
        onView={(next) => setPosition({ view: next })}
        isLoading={posts.isPlaceholderData}
      />
      <p id={DRAG_HINT_ID} className="sr-only">
        Drag to another day or hour to reschedule, or use Move to… in the day’s list.
      </p>
      <UnscheduledTray
        posts={tray}
        totalCount={trayTotal}
        canDrag={view !== 'agenda'}
        isMovable={isMovable}
        draggingId={draggingId}
        dragSource={dragSource}
      />
      {renderBody()}
      {openDayKey && (
        <DayModal
          day={parseWall(openDayKey)}
          posts={byDay.get(openDayKey) ?? []}
          canCreate={canCreate}
          onClose={() => setOpenDayKey(null)}
          isMovable={isMovable}
          onMove={(post, to) => void move(post, to)}
        />
      )}
    </div>
  );
}
