import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { MediaFacts } from '@herald/contract';
import sharp from 'sharp';
import { bufferSource, readVideoFactsFrom } from '../../media/video-metadata.js';
import type { PublishMedia } from '../../platforms/types.js';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requireFfmpeg } from '../media-fixtures.js';

/**
 * Real media files for the drift tests, of any size without holding it: a real image or video
 * (sharp, ffmpeg) followed by padding up to the size asked for (zeros after an image's end, an
 * MP4 `free` box). What the rules see (MediaFacts) is measured from the file made, and the same
 * bytes reach the network: uploaded by the adapter (X, LinkedIn, TikTok videos) or fetched by the
 * emulator from the stand-in for Herald's media route (the others), which answers with the
 * file's true length and streams the padding as it is read.
 */
export interface MediaSpec {
  kind: 'image' | 'video';
  /** image/jpeg, image/png, image/gif, image/webp, video/mp4, video/quicktime, video/webm */
  mimeType: string;
  width: number;
  height: number;
  durationSec?: number;
  /** Bytes wanted; the file is never smaller than its real content. */
  size?: number;
}

export interface MadeFile {
  facts: MediaFacts;
  /** The real content plus the padding's header: everything but the zeros. */
  head: Buffer;
  size: number;
}

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'video/mp4': 'mp4',
  'video/quicktime': 'mov',
  'video/webm': 'webm',
};

const images = new Map<string, Promise<Buffer>>();
function image(mimeType: string, width: number, height: number): Promise<Buffer> {
  const key = `${mimeType} ${width}x${height}`;
  let made = images.get(key);
  if (!made) {
    const canvas = sharp({
      create: { width, height, channels: 3, background: { r: 90, g: 140, b: 60 } },
    });
    made =
      mimeType === 'image/png'
        ? canvas.png().toBuffer()
        : mimeType === 'image/gif'
          ? canvas.gif().toBuffer()
          : mimeType === 'image/webp'
            ? canvas.webp({ quality: 50 }).toBuffer()
            : canvas.jpeg({ quality: 50 }).toBuffer();
    images.set(key, made);
  }
  return made;
}

let workDir: string | null = null;
const videos = new Map<string, Promise<Buffer>>();

/**
 * A video of `seconds` from ffmpeg's test source, its index first. Long ones run at a frame
 * every second or every ten seconds, so half an hour takes as little to make as a short clip.
 */
function video(mimeType: string, width: number, height: number, seconds: number) {
  requireFfmpeg();
  const key = `${mimeType}-${width}x${height}-${seconds}`;
  let made = videos.get(key);
  if (!made) {
    if (!workDir) {
      const dir = mkdtempSync(join(tmpdir(), 'herald-drift-'));
      workDir = dir;
      process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    }
    const webm = mimeType === 'video/webm';
    const out = join(
      workDir,
      `${key.replace(/\W/g, '_')}.${webm ? 'webm' : mimeType === 'video/quicktime' ? 'mov' : 'mp4'}`,
    );
    const rate = seconds <= 20 ? '10' : seconds <= 200 ? '1' : '1/10';
    const codec = webm
      ? ['-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '100k']
      : [
          '-c:v',
          'libx264',
          '-preset',
          'ultrafast',
          '-pix_fmt',
          'yuv420p',
          '-movflags',
          '+faststart',
        ];
    made = new Promise<Buffer>((resolve, reject) =>
      execFile(
        'ffmpeg',
        [
          '-v',
          'error',
          '-nostdin',
          '-y',
          '-f',
          'lavfi',
          '-i',
          `testsrc=size=${width}x${height}:rate=${rate}:duration=${seconds}`,
          ...codec,
          out,
        ],
        (err, _out, stderr) =>
          err
            ? reject(new Error(`ffmpeg could not make ${key}: ${stderr}`))
            : resolve(readFile(out)),
      ),
    );
    videos.set(key, made);
  }
  return made;
}

/** An ISO media `free` box header of `padding` bytes in all. */
function freeBox(padding: number): Buffer {
  if (padding <= 0xffffffff) {
    const header = Buffer.alloc(8);
    header.writeUInt32BE(padding, 0);
    header.write('free', 4, 'latin1');
    return header;
  }
  const header = Buffer.alloc(16);
  header.writeUInt32BE(1, 0);
  header.write('free', 4, 'latin1');
  header.writeBigUInt64BE(BigInt(padding), 8);
  return header;
}

export async function makeFile(spec: MediaSpec, name: string): Promise<MadeFile> {
  const content =
    spec.kind === 'image'
      ? await image(spec.mimeType, spec.width, spec.height)
      : await video(spec.mimeType, spec.width, spec.height, spec.durationSec ?? 5);
  let head = content;
  let size = content.length;
  const wanted = spec.size ?? 0;
  if (wanted > content.length + 16 && spec.mimeType !== 'video/webm') {
    head =
      spec.kind === 'video'
        ? Buffer.concat([content, freeBox(wanted - content.length)])
        : Buffer.from(content);
    size = wanted;
  }
  let width: number | null = spec.width;
  let height: number | null = spec.height;
  let durationSec: number | null = null;
  if (spec.kind === 'video') {
    const facts = await readVideoFactsFrom(bufferSource(content), spec.mimeType);
    width = facts?.width ?? null;
    height = facts?.height ?? null;
    durationSec = facts?.durationSec ?? null;
  }
  return {
    head,
    size,
    facts: {
      fileName: `${name}.${EXTENSIONS[spec.mimeType] ?? 'bin'}`,
      mimeType: spec.mimeType,
      size,
      width,
      height,
      durationSec,
    },
  };
}

/** Bytes `start..end` (inclusive) of a made file, streamed in 256 KB pieces. */
function streamOf(file: MadeFile, start = 0, end = file.size - 1): Readable {
  const PIECE = 256 * 1024;
  const zeros = Buffer.alloc(PIECE);
  async function* pieces() {
    for (let at = start; at <= end;) {
      const stop = Math.min(end + 1, at + PIECE);
      if (at < file.head.length) {
        const until = Math.min(stop, file.head.length);
        yield file.head.subarray(at, until);
        at = until;
      } else {
        yield stop - at === PIECE ? zeros : zeros.subarray(0, stop - at);
        at = stop;
      }
    }
  }
  return Readable.from(pieces(), { objectMode: false });
}

/**
 * The stand-in for Herald's media route (`{api}/media/{key}`): serves the made files with their
 * true length. The harnesses carry the emulators' fetches of Herald's media URLs here.
 */
export class MediaRoute {
  private files = new Map<string, MadeFile>();
  private server: Server | null = null;
  origin = '';

  async start() {
    this.server = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const file = this.files.get(path);
      if (!file) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-length': String(file.size) });
      const body = streamOf(file);
      body.pipe(res);
      res.on('close', () => body.destroy());
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop() {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  /** A PublishMedia over a made file, at a signed-looking Herald media URL this route serves. */
  publishMedia(file: MadeFile): PublishMedia {
    const key = `org/${randomBytes(6).toString('hex')}/${file.facts.fileName}`;
    this.files.set(`/media/${key}`, file);
    const exp = Math.floor(Date.now() / 1000) + 3600;
    const { facts } = file;
    return {
      kind: facts.mimeType.startsWith('video/') ? 'video' : 'image',
      mimeType: facts.mimeType,
      fileName: facts.fileName,
      url: `http://localhost:3000/api/media/${key}?exp=${exp}&sig=${randomBytes(32).toString('base64url')}`,
      size: file.size,
      width: facts.width ?? null,
      height: facts.height ?? null,
      durationSec: facts.durationSec ?? null,
      open: async (range) => streamOf(file, range?.start, range?.end),
    };
  }

  /** Forgets the files of one post once it is published or refused. */
  forget(media: PublishMedia[]) {
    for (const m of media) this.files.delete(new URL(m.url).pathname.replace(/^\/api/, ''));
  }
}
