import { defaultContent, type Post } from '@herald/contract';
import { useState } from 'react';

/** The posts chosen for a bulk action, as the views read and change it. */
export interface Selection {
  isSelected: (postId: string) => boolean;
  toggle: (postId: string, selected: boolean) => void;
}

/** How a checkbox names its post: the title, else the start of the text. */
export function postName(post: Post): string {
  const words = (post.title?.trim() || defaultContent(post.content).trim()).replace(/\s+/g, ' ');
  if (!words) return 'post without content';
  return words.length > 60 ? `${words.slice(0, 59)}…` : words;
}

/**
 * The chosen posts among those shown. A new tab, search, filter or page (`scope`) starts with
 * none chosen, and a post that left the list (deleted elsewhere) is no longer counted.
 */
export function usePostSelection(scope: string, shown: readonly Post[]) {
  const [state, setState] = useState<{ scope: string; ids: ReadonlySet<string> }>({
    scope,
    ids: new Set(),
  });
  const chosen = state.scope === scope ? state.ids : new Set<string>();
  const selectedIds = shown.filter((post) => chosen.has(post.id)).map((post) => post.id);
  const set = (ids: Iterable<string>) => setState({ scope, ids: new Set(ids) });
  const selection: Selection = {
    isSelected: (postId) => chosen.has(postId),
    toggle: (postId, selected) => {
      const next = new Set(selectedIds);
      if (selected) next.add(postId);
      else next.delete(postId);
      set(next);
    },
  };
  return {
    selection,
    selectedIds,
    allSelected: shown.length > 0 && selectedIds.length === shown.length,
    selectAll: (selected: boolean) => set(selected ? shown.map((post) => post.id) : []),
    clear: () => set([]),
  };
}
