/**
 * Tells what a file is from its first bytes (magic numbers), never from its name or the type the
 * browser declared. Only the formats Herald can measure and publish are accepted; everything else
 * gets a description for the refusal sentence.
 */

/** How many leading bytes `sniffMedia` needs to decide. */
export const SNIFF_BYTES = 4096;

export type SniffResult =
  | { accepted: true; mimeType: string; kind: 'image' | 'video'; extension: string }
  | { accepted: false; description: string };

const image = (mimeType: string, extension: string): SniffResult => ({
  accepted: true,
  mimeType,
  kind: 'image',
  extension,
});
const video = (mimeType: string, extension: string): SniffResult => ({
  accepted: true,
  mimeType,
  kind: 'video',
  extension,
});
const other = (description: string): SniffResult => ({ accepted: false, description });

const startsWith = (head: Buffer, bytes: number[] | string, offset = 0) => {
  const sig = typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : Buffer.from(bytes);
  return (
    head.length >= offset + sig.length && head.subarray(offset, offset + sig.length).equals(sig)
  );
};

/** ISO base media (MP4, MOV, AVIF, HEIC, 3GP, M4A): decided by the `ftyp` brands. */
function sniffIsoMedia(head: Buffer): SniffResult | null {
  const firstBox = head.subarray(4, 8).toString('latin1');
  if (firstBox !== 'ftyp') {
    // Classic QuickTime files have no ftyp and start with one of these atoms.
    return ['moov', 'mdat', 'wide', 'pnot'].includes(firstBox) && head.length >= 8
      ? video('video/quicktime', 'mov')
      : null;
  }
  const boxSize = Math.min(head.readUInt32BE(0), head.length);
  const major = head.subarray(8, 12).toString('latin1');
  const brands = new Set([major]);
  for (let at = 16; at + 4 <= boxSize; at += 4)
    brands.add(head.subarray(at, at + 4).toString('latin1'));
  if (major === 'avif' || major === 'avis' || (major === 'mif1' && brands.has('avif')))
    return image('image/avif', 'avif');
  if (['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'mif1', 'msf1'].includes(major))
    return other('a HEIC/HEIF image');
  if (major === 'qt  ') return video('video/quicktime', 'mov');
  if (['M4A ', 'M4B ', 'M4P ', 'F4A ', 'F4B '].includes(major)) return other('an audio file (M4A)');
  if (major.startsWith('3g')) return other('a 3GP video');
  if (major === 'crx ') return other('a camera RAW image');
  return video('video/mp4', 'mp4');
}

/** Matroska and WebM share the EBML header; its DocType element tells them apart. */
function sniffEbml(head: Buffer): SniffResult {
  const at = head.indexOf(Buffer.from([0x42, 0x82]));
  if (at > 0 && at + 3 <= head.length) {
    const sizeByte = head[at + 2] ?? 0;
    // DocType's size is a one-byte vint in every muxer seen (0x8N, N = length).
    const length = sizeByte & 0x80 ? sizeByte & 0x7f : 0;
    const docType = head.subarray(at + 3, at + 3 + length).toString('latin1');
    if (docType === 'webm') return video('video/webm', 'webm');
    if (docType === 'matroska') return video('video/x-matroska', 'mkv');
  }
  return other('an unknown Matroska-family file');
}

function describeText(head: Buffer): string | null {
  const text = head.toString('utf8').replace(/^\uFEFF/, '');
  if (text.includes('\uFFFD') && !isUtf8Prefix(head)) return null;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000E-\u001F]/.test(text)) return null;
  const start = text.trimStart().slice(0, 512).toLowerCase();
  if (start.startsWith('<svg') || (start.startsWith('<?xml') && start.includes('<svg')))
    return 'an SVG drawing';
  if (start.startsWith('<!doctype html') || start.startsWith('<html')) return 'an HTML page';
  if (start.startsWith('<?xml')) return 'an XML document';
  if (start.startsWith('{') || start.startsWith('[')) return 'JSON text';
  return 'plain text';
}

/** A cut in the middle of a multi-byte character at the end of the sample is still UTF-8. */
function isUtf8Prefix(head: Buffer): boolean {
  for (let cut = 1; cut <= 3 && cut < head.length; cut++) {
    if (
      !head
        .subarray(0, head.length - cut)
        .toString('utf8')
        .includes('\uFFFD')
    )
      return true;
  }
  return false;
}

export function sniffMedia(head: Buffer): SniffResult {
  if (head.length === 0) return other('an empty file');
  if (startsWith(head, [0xff, 0xd8, 0xff])) return image('image/jpeg', 'jpg');
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    return image('image/png', 'png');
  if (startsWith(head, 'GIF87a') || startsWith(head, 'GIF89a')) return image('image/gif', 'gif');
  if (startsWith(head, 'RIFF')) {
    const form = head.subarray(8, 12).toString('latin1');
    if (form === 'WEBP') return image('image/webp', 'webp');
    if (form === 'AVI ') return other('an AVI video');
    if (form === 'WAVE') return other('a WAV audio file');
    return other('a RIFF file');
  }
  const iso = head.length >= 12 ? sniffIsoMedia(head) : null;
  if (iso) return iso;
  if (startsWith(head, [0x1a, 0x45, 0xdf, 0xa3])) return sniffEbml(head);

  if (startsWith(head, '%PDF-')) return other('a PDF document');
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04]) || startsWith(head, [0x50, 0x4b, 0x05, 0x06]))
    return other('a ZIP archive or an Office document');
  if (startsWith(head, [0x1f, 0x8b])) return other('a gzip archive');
  if (startsWith(head, 'Rar!')) return other('a RAR archive');
  if (startsWith(head, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c])) return other('a 7-Zip archive');
  if (startsWith(head, 'BM')) return other('a BMP image');
  if (startsWith(head, [0x49, 0x49, 0x2a, 0x00]) || startsWith(head, [0x4d, 0x4d, 0x00, 0x2a]))
    return other('a TIFF image');
  if (startsWith(head, '8BPS')) return other('a Photoshop document');
  if (startsWith(head, [0xff, 0x0a]) || startsWith(head, 'JXL ', 4))
    return other('a JPEG XL image');
  if (startsWith(head, [0x00, 0x00, 0x01, 0x00])) return other('an icon (ICO)');
  if (startsWith(head, 'ID3') || (head[0] === 0xff && ((head[1] ?? 0) & 0xe0) === 0xe0))
    return other('an MP3 audio file');
  if (startsWith(head, 'OggS')) return other('an Ogg media file');
  if (startsWith(head, 'fLaC')) return other('a FLAC audio file');
  if (startsWith(head, [0x00, 0x00, 0x01, 0xba]) || startsWith(head, [0x00, 0x00, 0x01, 0xb3]))
    return other('an MPEG-1/2 video');
  if (head[0] === 0x47 && head[188] === 0x47) return other('an MPEG transport stream');
  if (startsWith(head, 'MZ')) return other('a Windows program');
  if (startsWith(head, [0x7f, 0x45, 0x4c, 0x46])) return other('a Linux program');
  return other(describeText(head) ?? 'unrecognised binary data');
}
