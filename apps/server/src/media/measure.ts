import sharp from 'sharp';
import type { MediaTools } from './media-tools.js';
import { readVideoFacts, type VideoFacts } from './video-metadata.js';

/** What could be measured; a null field could not be read (the rule set then says so). */
export type Measurements = VideoFacts;

const UNREADABLE: Measurements = { width: null, height: null, durationSec: null };

/** Width and height as displayed, i.e. after the EXIF orientation is applied. */
export async function measureImage(path: string): Promise<Measurements> {
  try {
    const metadata = await sharp(path).metadata();
    const { width, height } = metadata.autoOrient;
    return { width: width || null, height: height || null, durationSec: null };
  } catch {
    return UNREADABLE;
  }
}

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
