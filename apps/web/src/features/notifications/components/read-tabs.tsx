import { SegmentedTabs } from '@/components/ui/segmented-tabs';
import { TABS, type ReadTab } from './notification-format';

export const LIST_PANEL_ID = 'notification-list-panel';
export const tabId = (tab: ReadTab) => `notification-tab-${tab}`;

/** All, Unread, Read as ARIA tabs, each with its count. */
export function ReadTabs({
  value,
  counts,
  onChange,
}: {
  value: ReadTab;
  counts: Record<ReadTab, number>;
  onChange: (tab: ReadTab) => void;
}) {
  return (
    <SegmentedTabs
      label="Show notifications"
      tabs={TABS.map((tab) => ({
        value: tab.value,
        label: (
          <>
            {tab.label}
            <span className="rounded-full bg-slate-200 px-1.5 text-xs text-slate-700">
              {counts[tab.value]}
            </span>
          </>
        ),
      }))}
      value={value}
      onChange={onChange}
      idOf={tabId}
      panelId={LIST_PANEL_ID}
    />
  );
}
