import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gif, png } from '../test/media-fixtures.js';
import { measureImage } from './measure.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'herald-measure-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function file(name: string, bytes: Uint8Array) {
  const path = join(dir, name);
  await writeFile(path, bytes);
  return path;
}

function chunk(type: string, data: Buffer) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

/** A valid-looking PNG header that declares a size its few bytes cannot hold. */
function pngDeclaring(width: number, height: number) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', Buffer.from([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('measureImage', () => {
  it('measures a real image', async () => {
    const path = await file('ok.png', await png(640, 480));
    expect(await measureImage(path, 'ok.png')).toEqual({
      width: 640,
      height: 480,
      durationSec: null,
    });
  });

  it('refuses a 1 KB PNG that declares 100000×100000 pixels, and a 16000×16000 one', async () => {
    const bomb = await file('bomb.png', pngDeclaring(100_000, 100_000));
    await expect(measureImage(bomb, 'bomb.png')).rejects.toThrow(
      /bomb\.png is 100000×100000 pixels; images can have at most 67,108,864 pixels/,
    );
    const huge = await file('huge.png', pngDeclaring(16_000, 16_000));
    await expect(measureImage(huge, 'huge.png')).rejects.toThrow(/16000×16000 pixels/);
  });

  it('refuses an image whose data is damaged', async () => {
    const good = await gif(64, 48);
    const broken = Buffer.from(good.subarray(0, Math.floor(good.length * 0.6)));
    const path = await file('broken.gif', broken);
    await expect(measureImage(path, 'broken.gif')).rejects.toThrow(
      /broken\.gif could not be read as an image/,
    );
    const lying = await file('lying.png', pngDeclaring(640, 480));
    await expect(measureImage(lying, 'lying.png')).rejects.toThrow(/could not be read/);
  });
});
