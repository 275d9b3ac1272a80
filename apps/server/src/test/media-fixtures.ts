import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import sharp from 'sharp';

/**
 * Real media files for tests, made on the fly: images with sharp, videos with ffmpeg's test
 * source (small and fast, cached per process). Every call returns a fresh Buffer.
 */

const colour = { r: 40, g: 110, b: 180 };

function canvas(width: number, height: number) {
  return sharp({ create: { width, height, channels: 3, background: colour } });
}

/** A JPEG; `orientation` writes an EXIF Orientation tag (6 = shown turned 90° clockwise). */
export async function jpeg(
  width = 640,
  height = 480,
  options: { orientation?: number } = {},
): Promise<Buffer> {
  const image = canvas(width, height).jpeg({ quality: 70 });
  return options.orientation
    ? image.withMetadata({ orientation: options.orientation }).toBuffer()
    : image.toBuffer();
}

export const png = (width = 640, height = 480): Promise<Buffer> =>
  canvas(width, height).png().toBuffer();

export const gif = (width = 64, height = 48): Promise<Buffer> =>
  canvas(width, height).gif().toBuffer();

export const webp = (width = 640, height = 480): Promise<Buffer> =>
  canvas(width, height).webp({ quality: 70 }).toBuffer();

export const avif = (width = 320, height = 240): Promise<Buffer> =>
  canvas(width, height).avif({ quality: 50, effort: 0 }).toBuffer();

export interface VideoOptions {
  seconds?: number;
  /** Even numbers (the encoders use 4:2:0 chroma). */
  width?: number;
  height?: number;
  /** Stores a display rotation, as phones do for portrait video. */
  rotate?: 90 | 270;
}

let workDir: string | null = null;
const made = new Map<string, Promise<Buffer>>();

function fixturesDir(): string {
  if (!workDir) {
    workDir = mkdtempSync(join(tmpdir(), 'herald-fixtures-'));
    const dir = workDir;
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
  return workDir;
}

let ffmpegChecked = false;

/** Throws a sentence saying what to install when ffmpeg is missing. */
export function requireFfmpeg(): void {
  if (ffmpegChecked) return;
  const probe = spawnSync('ffmpeg', ['-version'], { stdio: 'ignore' });
  if (probe.error || probe.status !== 0)
    throw new Error(
      'ffmpeg is not installed, and the video fixtures are made with it: run `apt-get install ffmpeg`.',
    );
  ffmpegChecked = true;
}

const CODECS: Record<'mp4' | 'mov' | 'mkv' | 'webm', string[]> = {
  mp4: [
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-movflags',
    '+faststart',
  ],
  mov: ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-f', 'mov'],
  mkv: ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
  webm: ['-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '300k'],
};

function ffmpeg(name: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) =>
    execFile('ffmpeg', args, (err, _stdout, stderr) =>
      err ? reject(new Error(`ffmpeg could not make ${name}: ${stderr}`)) : resolve(),
    ),
  );
}

function video(format: keyof typeof CODECS, options: VideoOptions): Promise<Buffer> {
  requireFfmpeg();
  const { seconds = 2, width = 320, height = 240, rotate } = options;
  const name = `${format}-${seconds}-${width}x${height}-${rotate ?? 0}.${format}`;
  let file = made.get(name);
  if (!file) {
    const out = join(fixturesDir(), name);
    const encoded = rotate ? join(fixturesDir(), `unrotated-${name}`) : out;
    const quiet = ['-v', 'error', '-nostdin', '-y'];
    file = (async () => {
      await ffmpeg(name, [
        ...quiet,
        ...['-f', 'lavfi', '-i', `testsrc=size=${width}x${height}:rate=10:duration=${seconds}`],
        ...CODECS[format],
        encoded,
      ]);
      // ffmpeg writes a display matrix from `rotate` only when copying the stream.
      if (rotate)
        await ffmpeg(name, [
          ...quiet,
          '-i',
          encoded,
          '-c',
          'copy',
          '-metadata:s:v:0',
          `rotate=${rotate}`,
          out,
        ]);
      return readFile(out);
    })();
    made.set(name, file);
  }
  return file.then((b) => Buffer.from(b));
}

export const mp4 = (options: VideoOptions = {}) => video('mp4', options);
export const mov = (options: VideoOptions = {}) => video('mov', options);
export const mkv = (options: VideoOptions = {}) => video('mkv', options);
export const webm = (options: VideoOptions = {}) => video('webm', options);

const ZEROS = Buffer.alloc(1024 * 1024);

/**
 * A valid MP4 of exactly `totalBytes`: a small clip (2 seconds unless told) with its index first (faststart),
 * then a `free` box of zeros up to the size. Produced in 1 MiB chunks as it is read, so a test can
 * upload hundreds of megabytes without holding them.
 */
export function largeMp4Stream(totalBytes: number, seconds = 2): Readable {
  async function* chunks() {
    const clip = await mp4({ seconds, width: 320, height: 240 });
    const padding = totalBytes - clip.length;
    if (padding < 16)
      throw new Error(
        `largeMp4Stream needs at least ${clip.length + 16} bytes, not ${totalBytes}.`,
      );
    yield clip;
    let header: Buffer;
    if (padding <= 0xffffffff) {
      header = Buffer.alloc(8);
      header.writeUInt32BE(padding, 0);
      header.write('free', 4, 'latin1');
    } else {
      header = Buffer.alloc(16);
      header.writeUInt32BE(1, 0);
      header.write('free', 4, 'latin1');
      header.writeBigUInt64BE(BigInt(padding), 8);
    }
    yield header;
    let left = padding - header.length;
    while (left > 0) {
      const n = Math.min(left, ZEROS.length);
      yield n === ZEROS.length ? ZEROS : ZEROS.subarray(0, n);
      left -= n;
    }
  }
  return Readable.from(chunks(), { objectMode: false });
}
