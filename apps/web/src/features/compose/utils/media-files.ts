import {
  mediaKindOf,
  type MediaFacts,
  type MediaKind,
  type MediaLibraryItem,
  type PostMedia,
} from '@herald/contract';

/** A file taken from the media library: attached by its id, never uploaded again. */
export interface LibraryPick {
  libraryId: string;
}

/**
 * A file of the post, with what the page needs to show it: one chosen in this browser (measured
 * once), or one the post already has (when editing), named by `storedId`.
 */
export interface MediaItem {
  id: string;
  /** The chosen file; null for a file the post already has on the server. */
  file: File | null;
  /** The server's id of a file the post already has. */
  storedId?: string;
  /** A file from the media library (docs/media-library.md); `file` is then null. */
  library?: LibraryPick;
  facts: MediaFacts;
  /** Null when the file is neither an image nor a video (it is then refused). */
  kind: MediaKind | null;
  /** An object URL for thumbnails and previews; null where the browser cannot make one. */
  previewUrl: string | null;
  /** The image's description for people who cannot see it (docs/product.md#alt-text). */
  altText?: string;
}

/** A broken file must not keep the page waiting: metadata that takes longer counts as unreadable. */
const METADATA_TIMEOUT_MS = 15_000;

let sequence = 0;

function canMakeObjectUrls(): boolean {
  return typeof URL.createObjectURL === 'function' && typeof URL.revokeObjectURL === 'function';
}

export function revokePreview(item: Pick<MediaItem, 'previewUrl'>): void {
  // Stored files show through the server's URL, which is not ours to revoke.
  if (item.previewUrl?.startsWith('blob:') && canMakeObjectUrls()) {
    URL.revokeObjectURL(item.previewUrl);
  }
}

function withTimeout<T>(work: Promise<T>, fallback: T): Promise<T> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(fallback), METADATA_TIMEOUT_MS);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      () => {
        clearTimeout(timer);
        resolve(fallback);
      },
    );
  });
}

type Size = { width: number; height: number } | null;

async function imageSize(file: File): Promise<Size> {
  if (typeof createImageBitmap === 'function') {
    try {
      const bitmap = await createImageBitmap(file);
      const size = { width: bitmap.width, height: bitmap.height };
      bitmap.close();
      return size;
    } catch {
      // Some formats (e.g. SVG, or AVIF in older engines) only decode through <img>.
    }
  }
  if (!canMakeObjectUrls()) return null;
  const url = URL.createObjectURL(file);
  try {
    return await new Promise<Size>((resolve) => {
      const image = new Image();
      image.onload = () => resolve({ width: image.naturalWidth, height: image.naturalHeight });
      image.onerror = () => resolve(null);
      image.src = url;
    });
  } finally {
    URL.revokeObjectURL(url);
  }
}

type VideoInfo = { width: number; height: number; durationSec: number } | null;

async function videoInfo(file: File): Promise<VideoInfo> {
  if (!canMakeObjectUrls()) return null;
  const url = URL.createObjectURL(file);
  const video = document.createElement('video');
  try {
    return await new Promise<VideoInfo>((resolve) => {
      video.preload = 'metadata';
      video.muted = true;
      video.onloadedmetadata = () =>
        resolve({
          width: video.videoWidth,
          height: video.videoHeight,
          durationSec: video.duration,
        });
      video.onerror = () => resolve(null);
      video.src = url;
    });
  } finally {
    video.removeAttribute('src');
    URL.revokeObjectURL(url);
  }
}

/**
 * What the rules need to know about a file, measured in the browser before any upload: size
 * and type always, pixel size of images, duration and pixel size of videos. Unreadable metadata
 * stays null, and the rules that need it then say "Could not read metadata for file …".
 */
export async function readMediaFacts(file: File): Promise<MediaFacts> {
  const facts: MediaFacts = {
    fileName: file.name,
    mimeType: file.type,
    size: file.size,
    width: null,
    height: null,
    durationSec: null,
  };
  const kind = mediaKindOf({ fileName: file.name, mimeType: file.type });
  if (kind === 'image') {
    const size = await withTimeout(imageSize(file), null);
    return { ...facts, width: size?.width ?? null, height: size?.height ?? null };
  }
  if (kind === 'video') {
    const info = await withTimeout(videoInfo(file), null);
    if (!info) return facts;
    return {
      ...facts,
      width: info.width || null,
      height: info.height || null,
      durationSec: Number.isFinite(info.durationSec) ? info.durationSec : null,
    };
  }
  return facts;
}

/** Measures the chosen files (in parallel) and gives each an id and a preview. */
export async function toMediaItems(files: readonly File[]): Promise<MediaItem[]> {
  const facts = await Promise.all(files.map(readMediaFacts));
  return files.map((file, index) => {
    const itemFacts = facts[index] as MediaFacts;
    return {
      id: `media_${++sequence}`,
      file,
      facts: itemFacts,
      kind: mediaKindOf(itemFacts),
      previewUrl: null,
    };
  });
}

/** A file the post already has, as the composer holds it while editing. */
export function storedMediaItem(media: PostMedia): MediaItem {
  return {
    id: `stored_${media.id}`,
    file: null,
    storedId: media.id,
    facts: {
      fileName: media.fileName,
      mimeType: media.mimeType,
      size: media.size,
      width: media.width,
      height: media.height,
      durationSec: media.durationSec,
    },
    kind: media.kind,
    previewUrl: media.kind === 'image' ? (media.thumbnailUrl ?? media.mediaUrl) : media.mediaUrl,
    altText: media.altText ?? '',
  };
}

/** A file of the media library, attached without uploading; its saved alt text comes with it. */
export function libraryMediaItem(item: MediaLibraryItem): MediaItem {
  return {
    id: `library_${item.id}_${++sequence}`,
    file: null,
    library: { libraryId: item.id },
    facts: {
      fileName: item.fileName,
      mimeType: item.mimeType,
      size: item.size,
      width: item.width,
      height: item.height,
      durationSec: item.durationSec,
    },
    kind: item.kind,
    previewUrl: item.kind === 'image' ? (item.thumbnailUrl ?? item.url) : item.url,
    altText: item.altText ?? '',
  };
}

/** Gives an accepted item its object URL (refused files never get one, so nothing leaks). */
export function withPreview(item: MediaItem): MediaItem {
  return canMakeObjectUrls() && item.file
    ? { ...item, previewUrl: URL.createObjectURL(item.file) }
    : item;
}
