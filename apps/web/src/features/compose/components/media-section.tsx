import { altTextLimitFor, maxFilesFor, type PostValidationError } from '@herald/contract';
import { Library } from 'lucide-react';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { NetworkMark } from '@/components/ui/network-mark';
import type { ComposePlatform } from '../utils/compose-platforms';
import { libraryMediaItem, type MediaItem } from '../utils/media-files';
import { AltTextReminder } from './alt-text';
import { MediaLibraryPicker } from './media-library-picker';
import { MediaUploader } from './media-uploader';

/** The section's id: the validation dialog's "Go to Media Section" moves focus here. */
export const MEDIA_SECTION_ID = 'media-section';

export const SHARED_BLOCKS_PLATFORM_MEDIA =
  'Remove the shared media to give each platform its own files.';
export const PLATFORM_BLOCKS_SHARED_MEDIA =
  'Remove the platform-specific media below to share files with every platform.';

interface MediaSectionProps {
  selected: readonly ComposePlatform[];
  sharedMedia: readonly MediaItem[];
  platformMedia: Record<string, MediaItem[]>;
  uploadedCount: number;
  onAdd: (platformId: string | null, files: File[]) => void;
  onRemove: (platformId: string | null, item: MediaItem) => void;
  onViewRequirements: (platforms: readonly ComposePlatform[]) => void;
  /** Which uploader is measuring files: a platform id, 'shared', or null. */
  readingFor: string | null;
  mediaErrors: readonly PostValidationError[];
  tooManyFiles: string | null;
  disabled?: boolean;
  /** docs/product.md#alt-text: describes an image (by its item id). */
  onAltText?: (itemId: string, text: string) => void;
  /** docs/media-library.md: the organization whose library the picker opens. */
  orgId?: string;
  /** Attaches files of the media library (shared: null) without uploading them. */
  onAddFromLibrary?: (platformId: string | null, items: MediaItem[]) => void;
}

/** Opens the media library for one set of files. */
function LibraryButton({
  label,
  onClick,
  disabled,
}: {
  label: string;
  onClick: () => void;
  disabled?: boolean;
}) {
  return (
    <Button variant="ghost" size="sm" aria-label={label} onClick={onClick} disabled={disabled}>
      <Library className="size-4" aria-hidden="true" /> Media library
    </Button>
  );
}

/**
 * Shared media, or media per platform (docs/product.md#create-post). Shared media goes to every selected network,
 * so while there is some, per-platform media is off (docs/product.md#composer-states), and the other way round.
 */
export function MediaSection({
  selected,
  sharedMedia,
  platformMedia,
  uploadedCount,
  onAdd,
  onRemove,
  onViewRequirements,
  readingFor,
  mediaErrors,
  tooManyFiles,
  disabled,
  onAltText,
  orgId,
  onAddFromLibrary,
}: MediaSectionProps) {
  // Which files the library picker adds to: a platform id, null for shared; undefined: closed.
  const [libraryFor, setLibraryFor] = useState<string | null | undefined>(undefined);
  const withLibrary = Boolean(orgId && onAddFromLibrary);
  const libraryTarget =
    libraryFor === null
      ? 'shared media'
      : (selected.find((p) => p.id === libraryFor)?.label ?? 'the post');
  const altText = onAltText && {
    onAltText: (item: MediaItem, text: string) => onAltText(item.id, text),
    altTextLimit: altTextLimitFor(selected.map((p) => p.name)),
  };
  const hasSharedMedia = sharedMedia.length > 0;
  const hasPlatformMedia = selected.some((p) => (platformMedia[p.id] ?? []).length > 0);

  return (
    <section
      id={MEDIA_SECTION_ID}
      tabIndex={-1}
      aria-labelledby="media-heading"
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm focus:outline-2 focus:outline-indigo-600"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="media-heading" className="text-base font-semibold text-slate-900">
          Media
        </h2>
        <p className="text-xs text-slate-600">
          {uploadedCount} of {maxFilesFor(selected.map((p) => p.constraints))} files
        </p>
      </div>

      <div className="mt-4">
        <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
          <h3 className="text-sm font-semibold text-slate-800">Shared media</h3>
          <div className="flex flex-wrap gap-1">
            {withLibrary && (
              <LibraryButton
                label="Choose shared media from the media library"
                onClick={() => setLibraryFor(null)}
                disabled={disabled || hasPlatformMedia}
              />
            )}
            <Button
              variant="ghost"
              size="sm"
              aria-label="View requirements for shared media"
              onClick={() => onViewRequirements(selected)}
            >
              View requirements
            </Button>
          </div>
        </div>
        <MediaUploader
          name="Shared media"
          addLabel="Add shared media"
          items={sharedMedia}
          onAdd={(files) => onAdd(null, files)}
          onRemove={(item) => onRemove(null, item)}
          disabled={disabled || hasPlatformMedia}
          disabledReason={hasPlatformMedia ? PLATFORM_BLOCKS_SHARED_MEDIA : undefined}
          isReading={readingFor === 'shared'}
          {...altText}
        />
      </div>

      {selected.length > 0 && (
        <div className="mt-6">
          <h3 className="text-sm font-semibold text-slate-800">Platform-specific media</h3>
          {hasSharedMedia && (
            <p className="mt-1 text-sm text-slate-600">{SHARED_BLOCKS_PLATFORM_MEDIA}</p>
          )}
          <ul className="mt-3 space-y-4">
            {selected.map((platform) => (
              <li
                key={platform.id}
                aria-label={`${platform.label} media`}
                className="rounded-xl border border-slate-200 p-3"
              >
                <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
                  <span className="flex items-center gap-2 text-sm font-medium text-slate-900">
                    <NetworkMark name={platform.name} size="sm" />
                    {platform.label}
                  </span>
                  <div className="flex flex-wrap gap-1">
                    {withLibrary && (
                      <LibraryButton
                        label={`Choose media for ${platform.label} from the media library`}
                        onClick={() => setLibraryFor(platform.id)}
                        disabled={disabled || hasSharedMedia}
                      />
                    )}
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-label={`View requirements for ${platform.label}`}
                      onClick={() => onViewRequirements([platform])}
                    >
                      View requirements
                    </Button>
                  </div>
                </div>
                <MediaUploader
                  name={`Files for ${platform.label}`}
                  addLabel={`Add media for ${platform.label}`}
                  items={platformMedia[platform.id] ?? []}
                  onAdd={(files) => onAdd(platform.id, files)}
                  onRemove={(item) => onRemove(platform.id, item)}
                  disabled={disabled || hasSharedMedia}
                  isReading={readingFor === platform.id}
                  {...(altText && {
                    ...altText,
                    altTextLimit: altTextLimitFor([platform.name]),
                  })}
                />
              </li>
            ))}
          </ul>
        </div>
      )}

      {onAltText && (
        <AltTextReminder
          items={[...sharedMedia, ...selected.flatMap((p) => platformMedia[p.id] ?? [])]}
        />
      )}

      {orgId && onAddFromLibrary && (
        <MediaLibraryPicker
          orgId={orgId}
          open={libraryFor !== undefined}
          onOpenChange={(open) => !open && setLibraryFor(undefined)}
          target={libraryTarget}
          onPick={(items) => onAddFromLibrary(libraryFor ?? null, items.map(libraryMediaItem))}
        />
      )}

      {(mediaErrors.length > 0 || tooManyFiles) && (
        <Alert className="mt-4">
          <p className="font-semibold">Fix the media before creating the post:</p>
          <ul className="mt-1 list-disc space-y-0.5 pl-4">
            {tooManyFiles && <li>{tooManyFiles}</li>}
            {mediaErrors.map((error) => (
              <li key={`${error.platformId}:${error.message}`}>
                {error.platformName}: {error.message}
              </li>
            ))}
          </ul>
        </Alert>
      )}
    </section>
  );
}
