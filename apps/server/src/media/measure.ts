import { AppError } from '../lib/app-error.js';
import type { MediaTools } from './media-tools.js';
import { loadSharp } from '../lib/sharp.js';
import { readVideoFacts, type VideoFacts } from './video-metadata.js';

/** What could be measured; a null field could not be read (the rule set then says so). */
export type Measurements = VideoFacts;

const UNREADABLE: Measurements = { width: null, height: null, durationSec: null };

/**
 * The largest image Herald takes: X's 8192×8192, the largest any network accepts. Decoding is
 * what costs (width × height × 4 bytes), not the file: a 1 KB PNG can declare 100000×100000.
 */
export const MAX_IMAGE_PIXELS = 8192 * 8192;

/**
 * Width and height as displayed (after the EXIF orientation), once the whole image has been
 * decoded under a pixel cap: a header that lies, a bomb or a damaged file is refused here, not
 * stored and handed to a network.
 */
export async function measureImage(path: string, fileName: string): Promise<Measurements> {
  let width: number | undefined;
  let height: number | undefined;
  const sharp = await loadSharp();
  try {
    // Only the header is read here; the cap applies below, with a message naming the size.
    ({ width, height } = (await sharp(path, { limitInputPixels: false }).metadata()).autoOrient);
  } catch {
    throw unreadableImage(fileName);
  }
  if (!width || !height) throw unreadableImage(fileName);
  if (width * height > MAX_IMAGE_PIXELS) {
    throw new AppError(
      'VALIDATION_FAILED',
      `${fileName} is ${width}×${height} pixels; images can have at most ${MAX_IMAGE_PIXELS.toLocaleString('en-US')} pixels (8192×8192). Resize it and upload it again.`,
    );
  }
  try {
    // Every pixel is decoded (streamed, into a tiny result): truncated or corrupt data fails.
    await sharp(path, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error', animated: true })
      .resize(16, 16, { fit: 'inside' })
      .raw()
      .toBuffer();
  } catch {
    throw unreadableImage(fileName);
  }
  return { width, height, durationSec: null };
}

const unreadableImage = (fileName: string) =>
  new AppError(
    'VALIDATION_FAILED',
    `${fileName} could not be read as an image: the file looks damaged. Export it again and upload the new file.`,
  );

interface FfprobeOutput {
  format?: { duration?: string };
  streams?: Array<{
    codec_type?: string;
    width?: number;
    height?: number;
    duration?: string;
    tags?: { rotate?: string };
    side_data_list?: Array<{ rotation?: number }>;
  }>;
}

function fromFfprobe(output: FfprobeOutput): Measurements | null {
  const stream = output.streams?.find((s) => s.codec_type === 'video' && s.width && s.height);
  const duration = Number(output.format?.duration ?? stream?.duration);
  if (!stream && !Number.isFinite(duration)) return null;
  let width = stream?.width ?? null;
  let height = stream?.height ?? null;
  const rotation = Number(
    stream?.side_data_list?.find((d) => d.rotation !== undefined)?.rotation ??
      stream?.tags?.rotate ??
      0,
  );
  // Portrait phone video is stored landscape with a rotation; report it as it is shown.
  if (Math.abs(rotation) % 180 === 90) [width, height] = [height, width];
  return {
    width,
    height,
    durationSec: Number.isFinite(duration) && duration > 0 ? duration : null,
  };
}

/** Duration and size of a video: ffprobe when installed, otherwise the built-in header reader. */
export async function measureVideo(
  path: string,
  mimeType: string,
  tools: MediaTools,
): Promise<Measurements> {
  const ffprobe = await tools.ffprobe();
  if (ffprobe) {
    try {
      const json = await ffprobe(
        ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', path],
        30_000,
      );
      const measured = fromFfprobe(JSON.parse(json.toString('utf8')) as FfprobeOutput);
      if (measured) return measured;
    } catch {
      // Fall through to the parser: it may still read what ffprobe refused.
    }
  }
  return (await readVideoFacts(path, mimeType)) ?? UNREADABLE;
}
