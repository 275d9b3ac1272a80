import type { PostStatus } from '@herald/contract';
import { SegmentedTabs } from '@/components/ui/segmented-tabs';

export type LibraryTab = 'all' | 'published' | 'scheduled' | 'drafts';

export interface LibraryTabInfo {
  value: LibraryTab;
  label: string;
  /**
   * What the server filters on; All Posts sends no status. A partially published post is both
   * out somewhere and waiting elsewhere, so Published and Scheduled both list it.
   */
  status: PostStatus | PostStatus[] | undefined;
  /** docs/product.md#content-library: 'No {tab label} Yet', worded so each reads as a sentence. */
  emptyTitle: string;
}

export const LIBRARY_TABS: readonly LibraryTabInfo[] = [
  { value: 'all', label: 'All Posts', status: undefined, emptyTitle: 'No Posts Yet' },
  {
    value: 'published',
    label: 'Published',
    status: ['published', 'partially_published'],
    emptyTitle: 'No Published Posts Yet',
  },
  {
    value: 'scheduled',
    label: 'Scheduled',
    status: ['scheduled', 'partially_published'],
    emptyTitle: 'No Scheduled Posts Yet',
  },
  { value: 'drafts', label: 'Drafts', status: 'draft', emptyTitle: 'No Drafts Yet' },
];

export const LIBRARY_PANEL_ID = 'library-panel';
export const libraryTabId = (tab: LibraryTab) => `library-tab-${tab}`;

export function libraryTab(value: string | null): LibraryTabInfo {
  return LIBRARY_TABS.find((tab) => tab.value === value) ?? LIBRARY_TABS[0]!;
}

/** All Posts, Published, Scheduled, Drafts as ARIA tabs. */
export function LibraryTabs({
  value,
  onChange,
}: {
  value: LibraryTab;
  onChange: (tab: LibraryTab) => void;
}) {
  return (
    <SegmentedTabs
      label="Filter posts by status"
      tabs={LIBRARY_TABS}
      value={value}
      onChange={onChange}
      idOf={libraryTabId}
      panelId={LIBRARY_PANEL_ID}
      className="w-full overflow-x-auto sm:w-auto"
    />
  );
}
