import { defaultContent, type Post } from '@herald/contract';
import { Pencil } from 'lucide-react';
import { generatePath, Link } from 'react-router';
import { DataTable } from '@/components/ui/data-table';
import { NetworkMark } from '@/components/ui/network-mark';
import { paths } from '@/config/paths';
import { formatPostDate } from '../post-dates';
import { isEditable } from '../post-status';
import { DuplicatePostButton } from '../duplicate-button';
import { StatusBadge } from '../status-badge';
import { postName, type Selection } from './selection';

/** When the post went out, or is planned to (in the reader's time zone). */
function whenOf(post: Post, zone: string): { label: string; value: string } {
  if (post.status === 'published') {
    return {
      label: 'Published',
      value: formatPostDate(post.publishedAt ?? post.scheduledAt, zone),
    };
  }
  return {
    label: post.scheduledAt ? 'Scheduled for' : '',
    value: formatPostDate(post.scheduledAt, zone),
  };
}

/**
 * The library as a table: title and text, networks, status and time, one row per post. On a
 * phone the table scrolls inside its card, never the page.
 */
export function PostTable({
  posts,
  zone,
  selection,
  busy,
  canEdit = false,
}: {
  posts: readonly Post[];
  zone: string;
  selection: Selection | null;
  busy: boolean;
  /** The member may edit posts: each row not yet out ends with Edit. */
  canEdit?: boolean;
}) {
  const columns = [
    ...(selection ? [{ label: 'Select', hidden: true as const }] : []),
    'Post',
    'Networks',
    'Status',
    'Scheduled / published',
    { label: 'Actions', hidden: true as const },
  ];
  return (
    <DataTable caption="Posts" columns={columns} busy={busy}>
      {posts.map((post) => {
        const title = post.title?.trim();
        const text = defaultContent(post.content).trim();
        const when = whenOf(post, zone);
        return (
          <tr key={post.id} className="align-top hover:bg-slate-50">
            {selection && (
              <td className="w-10 py-3 pr-0 pl-4">
                <input
                  type="checkbox"
                  aria-label={`Select ${postName(post)}`}
                  checked={selection.isSelected(post.id)}
                  onChange={(event) => selection.toggle(post.id, event.target.checked)}
                  className="mt-0.5 size-4 accent-indigo-600"
                />
              </td>
            )}
            <td className="max-w-md min-w-56 px-4 py-3">
              <Link
                to={generatePath(paths.postDetails, { postId: post.id })}
                className="block rounded text-slate-900 hover:text-indigo-700 focus-visible:outline-2 focus-visible:outline-indigo-600"
              >
                {title && <span className="block truncate font-semibold">{title}</span>}
                <span className={title ? 'line-clamp-1 text-slate-600' : 'line-clamp-2'}>
                  {text || <span className="text-slate-500 italic">No content</span>}
                </span>
              </Link>
            </td>
            <td className="px-4 py-3">
              <ul className="flex flex-col gap-1" aria-label="Networks">
                {post.platforms.map((platform) => (
                  <li key={platform.id} className="flex items-center gap-1.5 whitespace-nowrap">
                    <NetworkMark name={platform.name} size="xs" />
                    <span className="text-slate-700">{platform.name}</span>
                  </li>
                ))}
              </ul>
            </td>
            <td className="px-4 py-3">
              <StatusBadge status={post.status} />
            </td>
            <td className="px-4 py-3 whitespace-nowrap">
              {when.label && <span className="block text-xs text-slate-500">{when.label}</span>}
              <span className="text-slate-800">{when.value}</span>
            </td>
            <td className="px-4 py-3 text-right whitespace-nowrap">
              <DuplicatePostButton post={post} look="row" />
              {canEdit && isEditable(post.status) && (
                <Link
                  to={generatePath(paths.editPost, { postId: post.id })}
                  aria-label={`Edit ${postName(post)}`}
                  className="inline-flex items-center gap-1 rounded-md px-2 py-1 text-sm font-semibold text-indigo-700 hover:bg-indigo-50 focus-visible:outline-2 focus-visible:outline-indigo-600"
                >
                  <Pencil className="size-3.5" aria-hidden="true" />
                  Edit
                </Link>
              )}
            </td>
          </tr>
        );
      })}
    </DataTable>
  );
}
