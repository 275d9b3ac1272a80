import { ADMIN_PAGE_SIZE } from '@herald/contract';
import { Eye, Search } from 'lucide-react';
import { useState } from 'react';
import { Avatar } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import { DataTable, EmptyRow } from '@/components/ui/data-table';
import { LoadError } from '@/components/ui/load-error';
import { Pagination } from '@/components/ui/pagination';
import { LoadingIndicator } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { useAdminUsers } from '../api/users';
import { useAdminSearch, usePagedSearch } from '../components/admin-search';
import { AdminPageHeader, formatDate } from '../components/admin-ui';
import { UserModal, userName } from '../components/user-modal';

export const USERS_LOAD_FAILED = 'Failed to fetch users.';
const columns = ['User', 'Email', 'Created At', { label: 'Actions', hidden: true as const }];

/** /admin/users (docs/product.md#admin-users): every user, searched and paged on the server. */
export function AdminUsersPage() {
  const { search, setSearch } = useAdminSearch();
  const { query, page, setPage } = usePagedSearch();
  const users = useAdminUsers(query, page);
  const [openUserId, setOpenUserId] = useState<string | null>(null);
  const rows = users.data?.users ?? [];

  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6">
      <AdminPageHeader
        title="User Management"
        description="View and manage all users in the system."
      />
      <label className="relative max-w-md">
        <span className="sr-only">Search users</span>
        <Search
          className="pointer-events-none absolute top-2.5 left-3 size-4 text-slate-400"
          aria-hidden="true"
        />
        <input
          type="search"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          placeholder="Search users..."
          className="w-full rounded-lg border border-slate-300 bg-white py-2 pr-3 pl-9 text-sm"
        />
      </label>
      {users.isError && (
        <LoadError
          message={errorMessage(users.error, USERS_LOAD_FAILED)}
          onRetry={() => void users.refetch()}
        />
      )}
      {users.isPending ? (
        <LoadingIndicator label="Loading users" className="py-16" />
      ) : (
        <>
          <DataTable caption="Users" columns={columns} busy={users.isPlaceholderData}>
            {rows.length === 0 ? (
              <EmptyRow colSpan={columns.length}>No users found</EmptyRow>
            ) : (
              rows.map((user) => (
                <tr key={user.id}>
                  <td className="px-4 py-3">
                    <div className="flex items-center gap-3">
                      <Avatar
                        name={user.displayName || user.email}
                        url={user.avatarUrl}
                        className="size-9"
                      />
                      <span className="font-medium text-slate-900">{userName(user)}</span>
                    </div>
                  </td>
                  <td className="px-4 py-3 text-slate-700">{user.email}</td>
                  <td className="px-4 py-3 whitespace-nowrap text-slate-700">
                    {formatDate(user.createdAt)}
                  </td>
                  <td className="px-4 py-3 text-right">
                    <Button variant="ghost" size="sm" onClick={() => setOpenUserId(user.id)}>
                      <Eye className="size-4" aria-hidden="true" />
                      View<span className="sr-only"> or edit {user.email}</span>
                    </Button>
                  </td>
                </tr>
              ))
            )}
          </DataTable>
          <Pagination
            label="Users pages"
            page={page}
            pageSize={ADMIN_PAGE_SIZE}
            totalCount={users.data?.totalCount ?? 0}
            onPageChange={setPage}
          />
        </>
      )}
      <UserModal userId={openUserId} onClose={() => setOpenUserId(null)} />
    </div>
  );
}
