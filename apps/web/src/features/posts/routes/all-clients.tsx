import { defaultContent, type Client, type Post } from '@herald/contract';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import { generatePath, useSearchParams } from 'react-router';
import { LoadError } from '@/components/ui/load-error';
import { NetworkMark } from '@/components/ui/network-mark';
import { RelativeTime } from '@/components/ui/relative-time';
import { SegmentedTabs } from '@/components/ui/segmented-tabs';
import { LoadingIndicator } from '@/components/ui/spinner';
import { TimeZoneNote } from '@/components/ui/time-zone-note';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-error';
import { useAuth } from '@/lib/auth';
import { browserTimeZone, ruleTimeZone } from '@/lib/time-zone';
import { wallAt } from '@/lib/zoned-time';
import {
  useAllClientsApprovals,
  useAllClientsCalendar,
  useAllClientsInbox,
  useOpenInOrganization,
} from '../api/all-clients';
import {
  agendaDays,
  dayKey,
  groupByDay,
  parseAnchor,
  postCountLabel,
  rangeLabel,
  visibleDays,
  visibleRange,
} from '../components/calendar/calendar-dates';
import { StatusBadge } from '../components/status-badge';

type View = 'calendar' | 'approvals' | 'inbox';
const VIEWS: ReadonlyArray<{ value: View; label: string }> = [
  { value: 'calendar', label: 'Calendar' },
  { value: 'approvals', label: 'Approvals' },
  { value: 'inbox', label: 'Inbox' },
];
const isView = (value: string | null): value is View => VIEWS.some((v) => v.value === value);

/** Each organization keeps one colour on the page, by its place in the list. */
const BADGE_COLOURS = [
  'bg-indigo-50 text-indigo-800 ring-indigo-200',
  'bg-emerald-50 text-emerald-800 ring-emerald-200',
  'bg-amber-50 text-amber-900 ring-amber-200',
  'bg-sky-50 text-sky-800 ring-sky-200',
  'bg-rose-50 text-rose-800 ring-rose-200',
  'bg-violet-50 text-violet-800 ring-violet-200',
] as const;

function OrganizationBadge({ clients, id }: { clients: readonly Client[]; id: string }) {
  const index = clients.findIndex((c) => c.id === id);
  const name = clients[index]?.name ?? 'Organization';
  return (
    <span
      className={`inline-flex max-w-full items-center truncate rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${BADGE_COLOURS[Math.max(index, 0) % BADGE_COLOURS.length]}`}
    >
      {name}
    </span>
  );
}

/** One row of a list: the whole row opens the item in its organization. */
function ItemButton({
  onOpen,
  label,
  children,
}: {
  onOpen: () => void;
  label: string;
  children: ReactNode;
}) {
  return (
    <li>
      <button
        type="button"
        onClick={onOpen}
        aria-label={label}
        className="flex w-full min-w-0 items-start gap-3 rounded-lg px-3 py-2.5 text-left hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        {children}
      </button>
    </li>
  );
}

function Covered({ clients, what }: { clients: readonly Client[]; what: string }) {
  return (
    <p className="text-sm text-slate-600">
      {clients.length === 0
        ? `None of your organizations lets you see ${what}.`
        : `${what[0]!.toUpperCase()}${what.slice(1)} of ${clients.map((c) => c.name).join(', ')}.`}
    </p>
  );
}

const postText = (post: Post) =>
  post.title?.trim() || defaultContent(post.content).trim() || 'No content';

/** A post's row: its time, text, organization and networks (and status, on the calendar). */
function PostItem({
  post,
  clients,
  when,
  label,
  withStatus = false,
  onOpen,
}: {
  post: Post;
  clients: readonly Client[];
  when: string;
  label: string;
  withStatus?: boolean;
  onOpen: () => void;
}) {
  return (
    <ItemButton label={label} onOpen={onOpen}>
      <span className="w-[4.75rem] shrink-0 pt-0.5 text-sm font-semibold text-slate-900 tabular-nums sm:w-28">
        {when}
      </span>
      <span className="flex min-w-0 flex-1 flex-col gap-1">
        <span className="line-clamp-2 text-sm break-words text-slate-800">{postText(post)}</span>
        <span className="flex flex-wrap items-center gap-1.5">
          <OrganizationBadge clients={clients} id={post.organizationId} />
          {post.platforms.map((platform) => (
            <NetworkMark key={platform.id} name={platform.name} size="xs" />
          ))}
          {withStatus && <StatusBadge status={post.status} />}
        </span>
      </span>
    </ItemButton>
  );
}

/** What a panel shows while its list loads or when it cannot. */
function PanelState({
  query,
  what,
}: {
  query: {
    isPending: boolean;
    isError: boolean;
    error: unknown;
    isFetching: boolean;
    refetch: () => unknown;
  };
  what: string;
}) {
  if (query.isPending) return <LoadingIndicator label={`Loading ${what}`} className="py-12" />;
  const title = `${what[0]!.toUpperCase()}${what.slice(1)} could not be loaded.`;
  return (
    <LoadError
      title={title}
      message={errorMessage(query.error, title)}
      onRetry={() => void query.refetch()}
      isRetrying={query.isFetching}
    />
  );
}

function CalendarPanel({ zone }: { zone: string }) {
  const [params, setParams] = useSearchParams();
  const anchor = parseAnchor(params.get('date'), wallAt(Date.now(), zone));
  const days = visibleDays('week', anchor);
  const { from, to } = visibleRange(days, zone);
  const calendar = useAllClientsCalendar(from, to);
  const open = useOpenInOrganization();
  const go = (weeks: number) =>
    setParams((now) => {
      const next = new URLSearchParams(now);
      next.set('date', dayKey(anchor.add(weeks, 'week')));
      return next;
    });

  if (!calendar.data) return <PanelState query={calendar} what="the calendar" />;
  const { clients, posts, truncated } = calendar.data;
  const agenda = agendaDays(days, groupByDay(posts, zone));
  const total = agenda.reduce((sum, day) => sum + day.posts.length, 0);
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center gap-2">
        <button
          type="button"
          aria-label="Previous week"
          onClick={() => go(-1)}
          className="rounded-lg border border-slate-200 p-2 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          <ChevronLeft className="size-4" aria-hidden="true" />
        </button>
        <button
          type="button"
          aria-label="Next week"
          onClick={() => go(1)}
          className="rounded-lg border border-slate-200 p-2 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          <ChevronRight className="size-4" aria-hidden="true" />
        </button>
        <h2 className="text-lg font-semibold text-slate-900">{rangeLabel('week', anchor)}</h2>
        <TimeZoneNote zone={zone} className="sm:ml-auto" />
      </div>
      <Covered clients={clients} what="the calendars" />
      {truncated.length > 0 && (
        <p role="status" className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {clients
            .filter((c) => truncated.includes(c.id))
            .map((c) => c.name)
            .join(', ')}{' '}
          has more posts this week than one page shows: open its own calendar for all of them.
        </p>
      )}
      {total === 0 ? (
        <p className="rounded-2xl border border-dashed border-slate-300 px-4 py-3 text-sm text-slate-600">
          Nothing is planned this week in any of your organizations.
        </p>
      ) : (
        agenda
          .filter((day) => day.posts.length > 0)
          .map((day) => (
            <section
              key={day.key}
              aria-label={day.day.format('dddd, MMMM D')}
              className="rounded-2xl border border-slate-200 bg-white p-2 shadow-sm"
            >
              <h3 className="px-3 pt-2 pb-1 text-sm font-semibold text-slate-900">
                {day.day.format('dddd, MMM D')}
                <span className="ml-2 font-normal text-slate-600">
                  {postCountLabel(day.posts.length)}
                </span>
              </h3>
              <ul className="divide-y divide-slate-100">
                {day.posts.map(({ post, at }) => {
                  const client = clients.find((c) => c.id === post.organizationId);
                  return (
                    <PostItem
                      key={post.id}
                      post={post}
                      clients={clients}
                      when={at.format('h:mm A')}
                      label={`${at.format('h:mm A')}, ${client?.name ?? ''}: ${postText(post)}`}
                      withStatus
                      onOpen={() =>
                        client && open(client, generatePath(paths.postDetails, { postId: post.id }))
                      }
                    />
                  );
                })}
              </ul>
            </section>
          ))
      )}
    </div>
  );
}

function ApprovalsPanel({ zone }: { zone: string }) {
  const approvals = useAllClientsApprovals();
  const open = useOpenInOrganization();
  if (!approvals.data) return <PanelState query={approvals} what="approvals" />;
  const { clients, posts } = approvals.data;
  return (
    <div className="flex flex-col gap-4">
      <Covered clients={clients} what="the approval queues" />
      {clients.length > 0 && (
        <ul aria-label="Waiting per organization" className="flex flex-wrap gap-2">
          {clients.map((client) => (
            <li
              key={client.id}
              className="rounded-full bg-white px-3 py-1 text-sm text-slate-700 ring-1 ring-slate-200"
            >
              {client.name}: <span className="font-semibold">{client.waiting}</span> waiting
            </li>
          ))}
        </ul>
      )}
      {posts.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-slate-300 px-4 py-3 text-sm text-slate-600">
          Nothing is waiting for your approval.
        </p>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-2xl border border-slate-200 bg-white p-2 shadow-sm">
          {posts.map((post) => {
            const client = clients.find((c) => c.id === post.organizationId);
            const when = post.scheduledAt
              ? wallAt(post.scheduledAt, zone).format('MMM D, h:mm A')
              : 'No time yet';
            return (
              <PostItem
                key={post.id}
                post={post}
                clients={clients}
                when={when}
                label={`Review in ${client?.name ?? 'its organization'}: ${postText(post)}`}
                onOpen={() => client && open(client, paths.approvals)}
              />
            );
          })}
        </ul>
      )}
    </div>
  );
}

function InboxPanel() {
  const inbox = useAllClientsInbox();
  const open = useOpenInOrganization();
  if (!inbox.data) return <PanelState query={inbox} what="the inbox" />;
  const { clients, conversations } = inbox.data;
  return (
    <div className="flex flex-col gap-4">
      <Covered clients={clients} what="the inboxes" />
      {conversations.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-slate-300 px-4 py-3 text-sm text-slate-600">
          No open conversations in your organizations.
        </p>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-2xl border border-slate-200 bg-white p-2 shadow-sm">
          {conversations.map(({ organizationId, conversation }) => {
            const client = clients.find((c) => c.id === organizationId);
            return (
              <ItemButton
                key={conversation.id}
                label={`${client?.name ?? ''}: ${conversation.title}${conversation.unread ? ', unread' : ''}`}
                onOpen={() =>
                  client && open(client, `${paths.inbox}?c=${encodeURIComponent(conversation.id)}`)
                }
              >
                <NetworkMark name={conversation.platform} size="sm" />
                <span className="flex min-w-0 flex-1 flex-col gap-1">
                  <span className="flex items-baseline gap-2">
                    <span
                      className={`truncate text-sm ${conversation.unread ? 'font-semibold text-slate-900' : 'text-slate-800'}`}
                    >
                      {conversation.title}
                    </span>
                    <RelativeTime
                      iso={conversation.lastMessageAt}
                      className="ml-auto shrink-0 text-xs text-slate-500"
                    />
                  </span>
                  {conversation.lastMessage && (
                    <span className="line-clamp-1 text-sm text-slate-600">
                      {conversation.lastMessage.text}
                    </span>
                  )}
                  <OrganizationBadge clients={clients} id={organizationId} />
                </span>
              </ItemButton>
            );
          })}
        </ul>
      )}
    </div>
  );
}

/**
 * docs/product.md#all-clients: the calendar, approvals and inbox of every organization the
 * person works in, each item marked with its organization; opening one switches to it first.
 */
export function AllClientsPage() {
  const { user } = useAuth();
  const [params, setParams] = useSearchParams();
  const requested = params.get('view');
  const view: View = isView(requested) ? requested : 'calendar';
  const id = useId();
  // No one organization's zone rules here: the person's own.
  const zone = ruleTimeZone(null, user?.timezone ?? browserTimeZone()).zone;
  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-5">
      <div>
        <h1 className="text-2xl font-bold text-slate-900">All clients</h1>
        <p className="mt-1 text-slate-600">
          Every organization you work in, side by side. Opening an item takes you to it in its
          organization.
        </p>
      </div>
      <SegmentedTabs
        tabs={VIEWS}
        value={view}
        onChange={(next) =>
          setParams((now) => {
            const changed = new URLSearchParams(now);
            changed.set('view', next);
            return changed;
          })
        }
        label="All clients views"
        idOf={(value) => `${id}-${value}`}
        panelId={`${id}-panel`}
        className="self-start"
      />
      <div id={`${id}-panel`} role="tabpanel" aria-labelledby={`${id}-${view}`}>
        {view === 'calendar' && <CalendarPanel zone={zone} />}
        {view === 'approvals' && <ApprovalsPanel zone={zone} />}
        {view === 'inbox' && <InboxPanel />}
      </div>
    </div>
  );
}
