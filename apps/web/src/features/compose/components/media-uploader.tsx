import { formatFileSize } from '@herald/contract';
import { Eye, Film, ImageIcon, ImagePlus, Trash2 } from 'lucide-react';
import { useState, type DragEvent } from 'react';
import { Modal } from '@/components/ui/modal';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/cn';
import type { MediaItem } from '../utils/media-files';
import { AltTextButton } from './alt-text';

/** What the file dialog offers first; anything else chosen is still checked and explained. */
const ACCEPT = 'image/*,video/*,.jpg,.jpeg,.png,.gif,.webp,.jfif,.avif,.mp4,.mov,.mkv,.webm,.m4v';

function MediaThumb({ item, className }: { item: MediaItem; className?: string }) {
  if (item.previewUrl && item.kind === 'image') {
    return <img src={item.previewUrl} alt="" className={cn('object-cover', className)} />;
  }
  if (item.previewUrl && item.kind === 'video') {
    return (
      <video
        src={item.previewUrl}
        muted
        preload="metadata"
        aria-hidden="true"
        className={cn('object-cover', className)}
      />
    );
  }
  const Icon = item.kind === 'video' ? Film : ImageIcon;
  return (
    <span className={cn('grid place-items-center bg-slate-100 text-slate-500', className)}>
      <Icon className="size-6" aria-hidden="true" />
    </span>
  );
}

interface MediaUploaderProps {
  /** What the files are, e.g. "Shared media" or "X media" (names the file list). */
  name: string;
  /** The add control's name, e.g. "Add shared media" or "Add media for X". */
  addLabel: string;
  items: readonly MediaItem[];
  onAdd: (files: File[]) => void;
  onRemove: (item: MediaItem) => void;
  disabled?: boolean;
  /** Said in place of the add control while it is disabled. */
  disabledReason?: string;
  /** Files are being measured before they are checked. */
  isReading?: boolean;
  /** docs/product.md#alt-text: images get an "Alt" button when given. */
  onAltText?: (item: MediaItem, text: string) => void;
  /** The longest alt text the selected networks take. */
  altTextLimit?: number;
}

/** Reusable uploader (docs/product.md#create-post): thumbnails with preview and remove, and an add control. */
export function MediaUploader({
  name,
  addLabel,
  items,
  onAdd,
  onRemove,
  disabled,
  disabledReason,
  isReading,
  onAltText,
  altTextLimit = 1000,
}: MediaUploaderProps) {
  const [previewing, setPreviewing] = useState<MediaItem | null>(null);
  const [isDragging, setIsDragging] = useState(false);

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setIsDragging(false);
    if (disabled) return;
    const files = Array.from(event.dataTransfer.files);
    if (files.length > 0) onAdd(files);
  };

  return (
    <div>
      {items.length > 0 && (
        <ul aria-label={name} className="mb-3 grid grid-cols-2 gap-3 sm:grid-cols-3">
          {items.map((item) => (
            <li
              key={item.id}
              className="overflow-hidden rounded-xl border border-slate-200 bg-white text-xs"
            >
              <MediaThumb item={item} className="aspect-square w-full" />
              <div className="flex items-center gap-1 p-2">
                <span className="min-w-0 flex-1">
                  <span className="block truncate font-medium text-slate-900">
                    {item.facts.fileName}
                  </span>
                  <span className="text-slate-600">{formatFileSize(item.facts.size)}</span>
                </span>
                {onAltText && item.kind === 'image' && (
                  <AltTextButton
                    item={item}
                    limit={altTextLimit}
                    onSave={(text) => onAltText(item, text)}
                  />
                )}
                <button
                  type="button"
                  aria-label={`Preview ${item.facts.fileName}`}
                  onClick={() => setPreviewing(item)}
                  className="rounded p-1 text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600"
                >
                  <Eye className="size-4" aria-hidden="true" />
                </button>
                <button
                  type="button"
                  aria-label={`Remove ${item.facts.fileName}`}
                  onClick={() => onRemove(item)}
                  className="rounded p-1 text-red-700 hover:bg-red-50 focus-visible:outline-2 focus-visible:outline-indigo-600"
                >
                  <Trash2 className="size-4" aria-hidden="true" />
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {disabled && disabledReason ? (
        <p className="rounded-lg bg-slate-50 p-3 text-sm text-slate-600">{disabledReason}</p>
      ) : (
        <label
          onDragOver={(event) => {
            event.preventDefault();
            setIsDragging(true);
          }}
          onDragLeave={() => setIsDragging(false)}
          onDrop={onDrop}
          className={cn(
            'flex cursor-pointer flex-col items-center gap-1 rounded-xl border-2 border-dashed p-4 text-center text-sm',
            'has-[input:focus-visible]:outline-2 has-[input:focus-visible]:outline-offset-2 has-[input:focus-visible]:outline-indigo-600',
            isDragging
              ? 'border-indigo-500 bg-indigo-50'
              : 'border-slate-300 hover:border-slate-400',
            disabled && 'cursor-not-allowed opacity-60',
          )}
        >
          <input
            type="file"
            multiple
            accept={ACCEPT}
            aria-label={addLabel}
            disabled={disabled}
            className="sr-only"
            onChange={(event) => {
              const files = Array.from(event.target.files ?? []);
              // Cleared so choosing the same file again (after removing it) fires again.
              event.target.value = '';
              if (files.length > 0) onAdd(files);
            }}
          />
          {isReading ? (
            <Spinner className="size-5" />
          ) : (
            <ImagePlus className="size-5 text-slate-500" aria-hidden="true" />
          )}
          <span className="font-semibold text-indigo-700">
            {isReading ? 'Checking files…' : 'Add images or videos'}
          </span>
          <span className="text-xs text-slate-600">or drop them here</span>
        </label>
      )}
      <Modal
        open={previewing !== null}
        onOpenChange={(open) => !open && setPreviewing(null)}
        title={previewing?.facts.fileName ?? 'Preview'}
        size="lg"
      >
        {previewing?.previewUrl ? (
          previewing.kind === 'video' ? (
            <video
              src={previewing.previewUrl}
              controls
              className="max-h-[70dvh] w-full rounded-lg"
            />
          ) : (
            <img
              src={previewing.previewUrl}
              alt={previewing.facts.fileName}
              className="max-h-[70dvh] w-full rounded-lg object-contain"
            />
          )
        ) : (
          <p className="text-sm text-slate-600">This browser cannot show a preview of the file.</p>
        )}
      </Modal>
    </div>
  );
}
