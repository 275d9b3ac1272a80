import type { Sharp } from 'sharp';
import type { MediaTools } from './media-tools.js';
import { loadSharp } from '../lib/sharp.js';

const THUMBNAIL_SIZE = 480;
export const THUMBNAIL_CONTENT_TYPE = 'image/webp';
export const THUMBNAIL_EXTENSION = 'webp';

const toWebp = (image: Sharp) =>
  image
    .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 80 })
    .toBuffer();

/** The first frame, turned upright by its EXIF orientation, fit in 480×480; null when unreadable. */
export async function imageThumbnail(path: string): Promise<Buffer | null> {
  const sharp = await loadSharp();
  try {
    return await toWebp(sharp(path).autoOrient());
  } catch {
    return null;
  }
}

/** A neutral poster with a play glyph, in the video's aspect ratio (16:9 when unknown). */
async function videoPoster(width: number | null, height: number | null): Promise<Buffer> {
  const ratio = width && height ? Math.min(Math.max(width / height, 0.2), 5) : 16 / 9;
  const w = ratio >= 1 ? THUMBNAIL_SIZE : Math.max(1, Math.round(THUMBNAIL_SIZE * ratio));
  const h = ratio >= 1 ? Math.max(1, Math.round(THUMBNAIL_SIZE / ratio)) : THUMBNAIL_SIZE;
  const r = Math.round(Math.min(w, h) * 0.18);
  const cx = w / 2;
  const cy = h / 2;
  const t = r * 0.45;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">
  <rect width="${w}" height="${h}" fill="#3f4651"/>
  <circle cx="${cx}" cy="${cy}" r="${r}" fill="#000" fill-opacity="0.35" stroke="#fff" stroke-opacity="0.85" stroke-width="${Math.max(2, r / 12)}"/>
  <polygon points="${cx - t * 0.6},${cy - t} ${cx - t * 0.6},${cy + t} ${cx + t},${cy}" fill="#fff"/>
</svg>`;
  const sharp = await loadSharp();
  return sharp(Buffer.from(svg)).webp({ quality: 80 }).toBuffer();
}

/**
 * A frame of the video (at 1 s, or the start of a shorter one) when ffmpeg is installed;
 * otherwise, or when ffmpeg cannot decode it, the poster.
 */
export async function videoThumbnail(
  path: string,
  facts: { width: number | null; height: number | null; durationSec: number | null },
  tools: MediaTools,
): Promise<Buffer> {
  const ffmpeg = await tools.ffmpeg();
  if (ffmpeg) {
    const at = facts.durationSec && facts.durationSec > 2 ? 1 : 0;
    for (const seek of at ? [at, 0] : [0]) {
      try {
        const frame = await ffmpeg(
          [
            ...['-v', 'error', '-nostdin', '-ss', String(seek), '-i', path, '-frames:v', '1'],
            // Fit in the box, never enlarging a small video.
            ...[
              '-vf',
              `scale='min(${THUMBNAIL_SIZE},iw)':'min(${THUMBNAIL_SIZE},ih)':force_original_aspect_ratio=decrease`,
            ],
            ...['-f', 'image2pipe', '-c:v', 'png', 'pipe:1'],
          ],
          60_000,
        );
        if (frame.length) return await toWebp((await loadSharp())(frame));
      } catch {
        // Try the next position, then fall back to the poster.
      }
    }
  }
  return videoPoster(facts.width, facts.height);
}
