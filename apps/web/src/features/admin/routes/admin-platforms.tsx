import type { Platform } from '@herald/contract';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { DataTable, EmptyRow } from '@/components/ui/data-table';
import { LoadError } from '@/components/ui/load-error';
import { NetworkMark } from '@/components/ui/network-mark';
import { LoadingIndicator } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { cn } from '@/lib/cn';
import { toast } from '@/lib/toast';
import { useAdminPlatforms, useSetPlatformActive } from '../api/platforms';
import { useAdminSearch } from '../components/admin-search';
import { AdminPageHeader, formatDate, StatusBadge } from '../components/admin-ui';
import { CreatePlatformModal } from '../components/platform-modal';
import { PublicMediaUrlNotice } from '../components/public-media-url-notice';

export const PLATFORMS_LOAD_FAILED = 'Failed to fetch platforms.';
const columns = ['Icon', 'Name', 'Status', 'Created At', 'Active'];
// docs/product.md#admin-platforms: the toasts of this page show at the top right.
const toastPosition = { position: 'top-right' as const };

function ActiveSwitch({ platform, onToggle }: { platform: Platform; onToggle: () => void }) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={platform.isActive}
      aria-label={`${platform.name} active`}
      onClick={onToggle}
      className={cn(
        'relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors',
        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600',
        platform.isActive ? 'bg-indigo-600' : 'bg-slate-300',
      )}
    >
      <span
        aria-hidden="true"
        className={cn(
          'inline-block size-5 rounded-full bg-white shadow transition-transform',
          platform.isActive ? 'translate-x-5.5' : 'translate-x-0.5',
        )}
      />
    </button>
  );
}

/** /admin/platforms (docs/product.md#admin-platforms): every network, with the switch that offers it or not. */
export function AdminPlatformsPage() {
  const platforms = useAdminPlatforms();
  const setActive = useSetPlatformActive();
  const { search } = useAdminSearch();
  const [isCreating, setIsCreating] = useState(false);
  const [toToggle, setToToggle] = useState<Platform | null>(null);
  const words = search.trim().toLowerCase();
  const rows = (platforms.data ?? []).filter((p) => p.name.toLowerCase().includes(words));
  const verb = toToggle?.isActive ? 'deactivate' : 'activate';

  const onConfirm = () => {
    if (!toToggle) return;
    const isActive = !toToggle.isActive;
    setActive.mutate(
      { id: toToggle.id, isActive },
      {
        onSuccess: () =>
          toast.success(
            isActive ? 'Platform activated successfully!' : 'Platform deactivated successfully!',
            toastPosition,
          ),
        onError: (error) =>
          toast.error(
            errorMessage(error, `Failed to ${isActive ? 'activate' : 'deactivate'} platform.`),
            toastPosition,
          ),
        onSettled: () => setToToggle(null),
      },
    );
  };

  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6">
      <AdminPageHeader
        title="Supported Platforms"
        description="Create, activate, or deactivate platforms. Only admins can toggle status."
        action={
          <Button onClick={() => setIsCreating(true)}>
            <Plus className="size-4" aria-hidden="true" />
            New Platform
          </Button>
        }
      />
      <PublicMediaUrlNotice />
      {platforms.isError && (
        <LoadError
          message={errorMessage(platforms.error, PLATFORMS_LOAD_FAILED)}
          onRetry={() => void platforms.refetch()}
        />
      )}
      {platforms.isPending ? (
        <LoadingIndicator label="Loading platforms" className="py-16" />
      ) : (
        <DataTable caption="Platforms" columns={columns}>
          {rows.length === 0 ? (
            <EmptyRow colSpan={columns.length}>No platforms found</EmptyRow>
          ) : (
            rows.map((platform) => (
              <tr key={platform.id}>
                <td className="px-4 py-3">
                  <NetworkMark name={platform.name} label="logo" size="lg" />
                </td>
                <th scope="row" className="px-4 py-3 font-semibold text-slate-900">
                  {platform.name}
                </th>
                <td className="px-4 py-3">
                  <StatusBadge active={platform.isActive} />
                </td>
                <td className="px-4 py-3 whitespace-nowrap text-slate-700">
                  {formatDate(platform.createdAt)}
                </td>
                <td className="px-4 py-3">
                  <ActiveSwitch platform={platform} onToggle={() => setToToggle(platform)} />
                </td>
              </tr>
            ))
          )}
        </DataTable>
      )}
      <CreatePlatformModal open={isCreating} onClose={() => setIsCreating(false)} />
      <ConfirmDialog
        open={toToggle !== null}
        onOpenChange={(open) => !open && !setActive.isPending && setToToggle(null)}
        title={verb === 'activate' ? 'Activate Platform' : 'Deactivate Platform'}
        message={`Are you sure you want to ${verb} "${toToggle?.name ?? ''}"?`}
        confirmLabel={verb === 'activate' ? 'Activate' : 'Deactivate'}
        isPending={setActive.isPending}
        onConfirm={onConfirm}
      />
    </div>
  );
}
