import { describe, expect, it } from 'vitest';
import { avif, gif, jpeg, mkv, mov, mp4, png, webm, webp } from '../test/media-fixtures.js';
import { sniffMedia } from './sniff.js';

const bytes = (...parts: Array<string | number[]>) =>
  Buffer.concat(
    parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))),
  );

/** An ISO-media ftyp box with a major brand and compatible brands. */
const ftyp = (major: string, ...compatible: string[]) => {
  const box = Buffer.alloc(16 + compatible.length * 4);
  box.writeUInt32BE(box.length, 0);
  box.write(`ftyp${major}`, 4, 'latin1');
  compatible.forEach((b, i) => box.write(b, 16 + i * 4, 'latin1'));
  return Buffer.concat([box, Buffer.alloc(64)]);
};

describe('sniffMedia', () => {
  it.each([
    ['jpeg', () => jpeg(32, 32), 'image/jpeg', 'jpg'],
    ['png', () => png(32, 32), 'image/png', 'png'],
    ['gif', () => gif(), 'image/gif', 'gif'],
    ['webp', () => webp(32, 32), 'image/webp', 'webp'],
    ['avif', () => avif(32, 32), 'image/avif', 'avif'],
    ['mp4', () => mp4(), 'video/mp4', 'mp4'],
    ['mov', () => mov(), 'video/quicktime', 'mov'],
    ['webm', () => webm(), 'video/webm', 'webm'],
    ['mkv', () => mkv(), 'video/x-matroska', 'mkv'],
  ])('recognises a real %s file', async (_name, make, mimeType, extension) => {
    const file = await make();
    expect(sniffMedia(file.subarray(0, 4096))).toMatchObject({
      accepted: true,
      mimeType,
      extension,
    });
  });

  it('tells MP4 brands from QuickTime, AVIF and formats it does not accept', () => {
    expect(sniffMedia(ftyp('isom', 'iso2', 'avc1'))).toMatchObject({ mimeType: 'video/mp4' });
    expect(sniffMedia(ftyp('mp42'))).toMatchObject({ mimeType: 'video/mp4', kind: 'video' });
    expect(sniffMedia(ftyp('qt  '))).toMatchObject({ mimeType: 'video/quicktime' });
    expect(sniffMedia(ftyp('mif1', 'avif', 'miaf'))).toMatchObject({ mimeType: 'image/avif' });
    expect(sniffMedia(ftyp('heic', 'mif1'))).toEqual({
      accepted: false,
      description: 'a HEIC/HEIF image',
    });
    expect(sniffMedia(ftyp('M4A ', 'mp42'))).toMatchObject({ accepted: false });
    // Old QuickTime: no ftyp, straight to an atom.
    expect(sniffMedia(bytes([0, 0, 0, 8], 'wide', [0, 0, 0, 8], 'mdat'))).toMatchObject({
      mimeType: 'video/quicktime',
    });
  });

  it.each([
    ['%PDF-1.7\n%âãÏÓ\n1 0 obj', 'a PDF document'],
    [bytes([0x50, 0x4b, 0x03, 0x04], 'rest of a zip'), 'a ZIP archive or an Office document'],
    [bytes('RIFF', [0, 0, 0, 0], 'AVI LIST'), 'an AVI video'],
    [bytes('RIFF', [0, 0, 0, 0], 'WAVEfmt '), 'a WAV audio file'],
    [bytes('ID3', [4, 0, 0, 0, 0, 0]), 'an MP3 audio file'],
    [bytes('BM', [0, 0, 0, 0]), 'a BMP image'],
    [bytes([0x49, 0x49, 0x2a, 0x00, 8, 0, 0, 0]), 'a TIFF image'],
    ['<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>', 'an SVG drawing'],
    ['<!DOCTYPE html><html><body>hi</body></html>', 'an HTML page'],
    ['Dear team,\nhere are the photos. — Zoë', 'plain text'],
    [bytes([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), 'a Linux program'],
    ['', 'an empty file'],
    [bytes([0x00, 0x13, 0x37, 0x00, 0x02, 0x99, 0xfe, 0x00]), 'unrecognised binary data'],
  ])('refuses %j as %s', (head, description) => {
    const buffer = typeof head === 'string' ? Buffer.from(head, 'utf8') : head;
    expect(sniffMedia(buffer)).toEqual({ accepted: false, description });
  });
});
