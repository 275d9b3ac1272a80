import { formatFileSize, type MediaKind, type MediaLibraryItem } from '@herald/contract';
import { Check, Crop, Film, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Modal } from '@/components/ui/modal';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { cn } from '@/lib/cn';
import {
  LIBRARY_PICKER_PAGE_SIZE,
  useDeleteMedia,
  useMediaLibrary,
  type LibraryQuery,
} from '../api/use-media-library';
import { CropDialog } from './crop-dialog';

interface MediaLibraryPickerProps {
  orgId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Where the files go, e.g. "shared media" or "X": said on the add button. */
  target: string;
  /** The chosen items, in the order they were chosen. */
  onPick: (items: MediaLibraryItem[]) => void;
}

const usedIn = (n: number) => (n === 0 ? 'Unused' : `Used in ${n} post${n === 1 ? '' : 's'}`);

function facts(item: MediaLibraryItem) {
  const size = item.width && item.height ? `${item.width}×${item.height}` : null;
  const duration = item.durationSec !== null ? `${Math.round(item.durationSec)} s` : null;
  return [size, duration, formatFileSize(item.size)].filter(Boolean).join(' · ');
}

/** The storage bar: what the library holds against the plan's limit. */
function StorageUse({ used, limit }: { used: number; limit: number }) {
  const percent = limit > 0 ? Math.min(100, Math.round((used / limit) * 100)) : 0;
  return (
    <div>
      <p className="text-sm text-slate-600">
        {formatFileSize(used)} of {formatFileSize(limit)} used
      </p>
      <div
        role="meter"
        aria-label="Library storage used"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="mt-1 h-1.5 w-full max-w-xs overflow-hidden rounded-full bg-slate-200"
      >
        <div
          className={cn('h-full', percent >= 90 ? 'bg-red-600' : 'bg-indigo-600')}
          style={{ width: `${percent}%` }}
        />
      </div>
    </div>
  );
}

/**
 * The composer's "Media library" (docs/media-library.md): every file the organization uploaded,
 * searchable and filtered; chosen files are attached by id, without uploading them again. Images
 * can be cropped to a network's ratio; files no post uses can be deleted.
 */
export function MediaLibraryPicker({
  orgId,
  open,
  onOpenChange,
  target,
  onPick,
}: MediaLibraryPickerProps) {
  const [query, setQuery] = useState<LibraryQuery>({ q: '', type: null, unused: false, page: 1 });
  const [chosen, setChosen] = useState<MediaLibraryItem[]>([]);
  const [cropping, setCropping] = useState<MediaLibraryItem | null>(null);
  const library = useMediaLibrary(orgId, query, open);
  const remove = useDeleteMedia(orgId);
  const page = library.data;
  const pages = page ? Math.max(1, Math.ceil(page.totalCount / LIBRARY_PICKER_PAGE_SIZE)) : 1;

  const change = (next: Partial<LibraryQuery>) => setQuery((q) => ({ ...q, page: 1, ...next }));
  const toggle = (item: MediaLibraryItem) =>
    setChosen((list) =>
      list.some((c) => c.id === item.id) ? list.filter((c) => c.id !== item.id) : [...list, item],
    );
  const close = (next: boolean) => {
    if (!next) {
      setChosen([]);
      remove.reset();
    }
    onOpenChange(next);
  };

  return (
    <>
      <Modal
        open={open}
        onOpenChange={close}
        title="Media library"
        description="Every file uploaded to this organization, ready to reuse."
        size="lg"
      >
        {page && <StorageUse used={page.storage.usedBytes} limit={page.storage.limitBytes} />}
        <div className="mt-3 flex flex-wrap items-end gap-3">
          <label className="w-full min-w-0 text-sm font-medium text-slate-800 sm:w-auto sm:flex-1">
            Search
            <input
              type="search"
              value={query.q}
              onChange={(e) => change({ q: e.target.value })}
              placeholder="File name, alt text or tag"
              className="mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2 text-sm"
            />
          </label>
          <label className="text-sm font-medium text-slate-800">
            Type
            <select
              value={query.type ?? ''}
              onChange={(e) => change({ type: (e.target.value || null) as MediaKind | null })}
              className="mt-1 block rounded-lg border border-slate-300 px-3 py-2 text-sm"
            >
              <option value="">All files</option>
              <option value="image">Images</option>
              <option value="video">Videos</option>
            </select>
          </label>
          <label className="flex items-center gap-2 py-2 text-sm text-slate-800">
            <input
              type="checkbox"
              checked={query.unused}
              onChange={(e) => change({ unused: e.target.checked })}
            />
            Unused only
          </label>
        </div>

        {remove.isError && (
          <Alert className="mt-3">
            {errorMessage(remove.error, 'The file could not be deleted. Try again.')}
          </Alert>
        )}

        <div className="mt-4 min-h-40">
          {library.isPending && (
            <p className="flex items-center gap-2 text-sm text-slate-600">
              <Spinner /> Loading the library…
            </p>
          )}
          {library.isError && (
            <Alert>{errorMessage(library.error, 'The media library could not be loaded.')}</Alert>
          )}
          {page && page.items.length === 0 && (
            <p className="text-sm text-slate-600">
              {query.q || query.type || query.unused
                ? 'No file matches. Change the search or the filters.'
                : 'The library is empty. Every file you upload to a post is kept here.'}
            </p>
          )}
          {page && page.items.length > 0 && (
            <ul aria-label="Library files" className="grid grid-cols-2 gap-3 sm:grid-cols-3">
              {page.items.map((item) => {
                const isChosen = chosen.some((c) => c.id === item.id);
                return (
                  <li
                    key={item.id}
                    className={cn(
                      'overflow-hidden rounded-xl border',
                      isChosen ? 'border-indigo-600 ring-2 ring-indigo-600' : 'border-slate-200',
                    )}
                  >
                    <button
                      type="button"
                      aria-pressed={isChosen}
                      aria-label={`Choose ${item.fileName}`}
                      onClick={() => toggle(item)}
                      className="relative block aspect-square w-full bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600"
                    >
                      {item.kind === 'image' ? (
                        <img
                          src={item.thumbnailUrl ?? item.url}
                          alt={item.altText ?? ''}
                          className="size-full object-cover"
                        />
                      ) : item.thumbnailUrl ? (
                        <img src={item.thumbnailUrl} alt="" className="size-full object-cover" />
                      ) : (
                        <Film className="mx-auto size-8 text-slate-500" aria-hidden="true" />
                      )}
                      {isChosen && (
                        <span className="absolute top-2 right-2 grid size-6 place-items-center rounded-full bg-indigo-600 text-white">
                          <Check className="size-4" aria-hidden="true" />
                        </span>
                      )}
                    </button>
                    <div className="p-2">
                      <p
                        className="truncate text-sm font-medium text-slate-900"
                        title={item.fileName}
                      >
                        {item.fileName}
                      </p>
                      <p className="text-xs text-slate-600">{facts(item)}</p>
                      <p className="text-xs text-slate-600">
                        {usedIn(item.usedInPosts)}
                        {item.cropRatio ? ` · ${item.cropRatio} crop` : ''}
                      </p>
                      {item.tags.length > 0 && (
                        <p className="truncate text-xs text-slate-500">{item.tags.join(', ')}</p>
                      )}
                      <div className="mt-1 flex gap-1">
                        {item.kind === 'image' && (
                          <Button
                            variant="ghost"
                            size="sm"
                            aria-label={`Crop ${item.fileName}`}
                            onClick={() => setCropping(item)}
                          >
                            <Crop className="size-4" aria-hidden="true" /> Crop
                          </Button>
                        )}
                        {item.usedInPosts === 0 && (
                          <Button
                            variant="ghost"
                            size="sm"
                            aria-label={`Delete ${item.fileName}`}
                            disabled={remove.isPending}
                            onClick={() => {
                              setChosen((list) => list.filter((c) => c.id !== item.id));
                              remove.mutate(item.id);
                            }}
                          >
                            <Trash2 className="size-4" aria-hidden="true" />
                          </Button>
                        )}
                      </div>
                    </div>
                  </li>
                );
              })}
            </ul>
          )}
        </div>

        {pages > 1 && (
          <div className="mt-3 flex items-center justify-between gap-2 text-sm text-slate-700">
            <Button
              variant="secondary"
              size="sm"
              disabled={query.page <= 1}
              onClick={() => setQuery((q) => ({ ...q, page: q.page - 1 }))}
            >
              Previous
            </Button>
            <span>
              Page {query.page} of {pages}
            </span>
            <Button
              variant="secondary"
              size="sm"
              disabled={query.page >= pages}
              onClick={() => setQuery((q) => ({ ...q, page: q.page + 1 }))}
            >
              Next
            </Button>
          </div>
        )}

        <div className="mt-5 flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={() => close(false)}>
            Cancel
          </Button>
          <Button
            disabled={chosen.length === 0}
            onClick={() => {
              onPick(chosen);
              close(false);
            }}
          >
            {chosen.length === 0
              ? `Add to ${target}`
              : `Add ${chosen.length} file${chosen.length === 1 ? '' : 's'} to ${target}`}
          </Button>
        </div>
      </Modal>
      <CropDialog
        orgId={orgId}
        item={cropping}
        onClose={() => setCropping(null)}
        onCropped={(cropped) => {
          setCropping(null);
          // The crop is what the author wanted: chosen in place of its original.
          setChosen((list) => [...list.filter((c) => c.id !== cropping?.id), cropped]);
        }}
      />
    </>
  );
}
