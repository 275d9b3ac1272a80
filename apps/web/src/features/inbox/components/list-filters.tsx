import type { InboxAccount, PlatformName } from '@herald/contract';
import { Search, Tag } from 'lucide-react';
import { useState } from 'react';
import { SegmentedTabs } from '@/components/ui/segmented-tabs';
import { cn } from '@/lib/cn';
import type { AssigneeFilter, InboxListQuery, InboxTab } from '../api/inbox';
import { labelText } from './format';

export const LIST_PANEL_ID = 'inbox-list-panel';
export const tabId = (tab: string) => `inbox-tab-${tab}`;

/** All, Unread, and one tab per network the organization has connected. */
export function tabsOf(accounts: InboxAccount[]) {
  const networks = [...new Set(accounts.map((a) => a.platform))] as PlatformName[];
  return [
    { value: 'all' as InboxTab, label: 'All' },
    { value: 'unread' as InboxTab, label: 'Unread' },
    ...networks.map((platform) => ({ value: platform as InboxTab, label: platform })),
  ];
}

const chip =
  'rounded-full border px-2.5 py-1 text-xs font-medium focus-visible:outline-2 focus-visible:outline-indigo-600';

export function ListFilters({
  query,
  onChange,
  search,
  onSearchChange,
  accounts,
  labels,
  onManageLabels,
}: {
  query: InboxListQuery;
  onChange: (next: Partial<InboxListQuery>) => void;
  search: string;
  onSearchChange: (value: string) => void;
  accounts: InboxAccount[];
  labels: string[];
  /** Opens the label manager; absent for members who may not change labels. */
  onManageLabels?: (() => void) | undefined;
}) {
  const [showLabels, setShowLabels] = useState(false);
  const toggleLabel = (label: string) =>
    onChange({
      labels: query.labels.includes(label)
        ? query.labels.filter((l) => l !== label)
        : [...query.labels, label],
    });

  return (
    <div className="flex flex-col gap-3">
      <SegmentedTabs
        tabs={tabsOf(accounts)}
        value={query.tab}
        onChange={(tab) => onChange({ tab })}
        label="Conversations to show"
        idOf={tabId}
        panelId={LIST_PANEL_ID}
        className="flex-wrap"
      />
      <div className="flex flex-wrap items-center gap-2">
        <div role="group" aria-label="Status" className="flex rounded-lg bg-slate-100 p-1">
          {(['open', 'done'] as const).map((status) => (
            <button
              key={status}
              type="button"
              aria-pressed={query.status === status}
              onClick={() => onChange({ status })}
              className={cn(
                'rounded-md px-3 py-1 text-sm font-medium focus-visible:outline-2 focus-visible:outline-indigo-600',
                query.status === status
                  ? 'bg-white text-slate-900 shadow-sm'
                  : 'text-slate-600 hover:text-slate-900',
              )}
            >
              {status === 'open' ? 'Open' : 'Done'}
            </button>
          ))}
        </div>
        <label className="sr-only" htmlFor="inbox-assignee">
          Assigned to
        </label>
        <select
          id="inbox-assignee"
          value={query.assignee}
          onChange={(event) => onChange({ assignee: event.target.value as AssigneeFilter })}
          className="min-w-0 rounded-lg border border-slate-300 bg-white px-2 py-1.5 text-sm text-slate-800"
        >
          <option value="">Anyone&apos;s</option>
          <option value="me">Assigned to me</option>
          <option value="unassigned">Unassigned</option>
        </select>
      </div>
      <div className="flex items-center gap-2">
        <div className="relative min-w-0 flex-1">
          <Search
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400"
            aria-hidden="true"
          />
          <input
            type="search"
            value={search}
            onChange={(event) => onSearchChange(event.target.value)}
            placeholder="Search conversations..."
            aria-label="Search conversations"
            maxLength={200}
            className="w-full rounded-lg border border-slate-300 bg-white py-2 pr-3 pl-9 text-sm"
          />
        </div>
        <button
          type="button"
          aria-expanded={showLabels}
          aria-controls="inbox-label-filter"
          onClick={() => setShowLabels((v) => !v)}
          className="inline-flex items-center gap-1 rounded-lg border border-slate-300 bg-white px-2 py-2 text-sm whitespace-nowrap text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          <Tag className="size-3.5" aria-hidden="true" />
          Labels<span className="sr-only"> filter</span>
          {query.labels.length > 0 ? ` (${query.labels.length})` : ''}
        </button>
      </div>
      {(showLabels || query.labels.length > 0) && (
        <div role="group" aria-label="Labels" id="inbox-label-filter" className="min-w-0">
          <div className="flex flex-wrap items-center gap-1.5">
            {(showLabels ? labels : query.labels).map((label) => {
              const on = query.labels.includes(label);
              return (
                <button
                  key={label}
                  type="button"
                  aria-pressed={on}
                  onClick={() => toggleLabel(label)}
                  className={cn(
                    chip,
                    on
                      ? 'border-indigo-600 bg-indigo-600 text-white'
                      : 'border-slate-300 bg-white text-slate-700 hover:bg-slate-50',
                  )}
                >
                  {labelText(label)}
                </button>
              );
            })}
            {showLabels && onManageLabels && (
              <button
                type="button"
                onClick={onManageLabels}
                className="px-1 text-xs font-medium text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
              >
                Manage labels
              </button>
            )}
            {query.labels.length > 0 && (
              <button
                type="button"
                onClick={() => onChange({ labels: [] })}
                className="px-1 text-xs font-medium text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
              >
                Clear all
              </button>
            )}
          </div>
        </div>
      )}
    </div>
  );
}
