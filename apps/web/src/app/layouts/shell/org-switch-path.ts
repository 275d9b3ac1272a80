import { paths } from '@/config/paths';

/**
 * Where a switch of organization lands: the same section of the app (Calendar stays Calendar,
 * keeping its day and view), but never a page about one item of the old organization (a post,
 * a conversation), whose id means nothing in the new one, nor filters naming its accounts.
 */
export function pathAfterSwitch(pathname: string, search: string): string {
  const [section = ''] = pathname.split('/').filter(Boolean);
  const sections = [
    paths.dashboard,
    paths.team,
    paths.inbox,
    paths.content,
    paths.approvals,
    paths.calendar,
    paths.evergreen,
    paths.allClients,
    paths.analytics,
    paths.pricing,
    paths.settings,
    paths.notifications,
    paths.createPost,
  ];
  const same = sections.find((path) => path === `/${section}`);
  if (!same) return paths.dashboard;
  if (same === paths.content && pathname !== paths.content && pathname !== paths.importPosts)
    return paths.content;
  if (same === paths.content) return pathname;
  if (same === paths.calendar) {
    const kept = new URLSearchParams();
    const from = new URLSearchParams(search);
    for (const key of ['date', 'view']) {
      const value = from.get(key);
      if (value) kept.set(key, value);
    }
    const query = kept.toString();
    return query ? `${paths.calendar}?${query}` : paths.calendar;
  }
  return same;
}
