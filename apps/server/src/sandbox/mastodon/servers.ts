import type { SandboxStore } from '../store.js';

/**
 * The servers the Mastodon emulator plays (docs/networks.md#mastodon-sandbox): two, with
 * different limits, so that what Herald reads from each server's `/api/v2/instance` is seen to
 * decide for the accounts on it. Any other host answers 404, as a host without Mastodon would.
 */
export const SANDBOX_SERVERS = {
  'social.example': {
    title: 'Social (sandbox)',
    maxCharacters: 500,
    maxMedia: 4,
    imageSizeLimit: 16 * 1024 * 1024,
    videoSizeLimit: 99 * 1024 * 1024,
  },
  'writers.example': {
    title: 'Writers (sandbox)',
    maxCharacters: 1000,
    maxMedia: 2,
    imageSizeLimit: 8 * 1024 * 1024,
    videoSizeLimit: 40 * 1024 * 1024,
  },
} as const;

export type SandboxServerName = keyof typeof SANDBOX_SERVERS;

const MIME_TYPES = [
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'video/mp4',
  'video/quicktime',
  'video/webm',
];

/** How long a server keeps an Idempotency-Key (Mastodon: one hour). */
export const IDEMPOTENCY_SECONDS = 3600;

/** One server's memory inside the emulator's store: its records are kept apart by a prefix. */
export function serverStore(store: SandboxStore, server: string): SandboxStore {
  const k = (kind: string) => `${server}:${kind}`;
  return {
    get: (kind, id) => store.get(k(kind), id),
    put: (kind, id, data) => store.put(k(kind), id, data),
    delete: (kind, id) => store.delete(k(kind), id),
    list: (kind) => store.list(k(kind)),
  };
}

/** The instance document (`GET /api/v2/instance`), with the server's limits. */
export function instanceDocument(host: SandboxServerName) {
  const s = SANDBOX_SERVERS[host];
  return {
    domain: host,
    title: s.title,
    version: '4.4.0',
    api_versions: { mastodon: 6 },
    configuration: {
      statuses: {
        max_characters: s.maxCharacters,
        max_media_attachments: s.maxMedia,
        characters_reserved_per_url: 23,
      },
      media_attachments: {
        supported_mime_types: MIME_TYPES,
        image_size_limit: s.imageSizeLimit,
        video_size_limit: s.videoSizeLimit,
        description_limit: 1500,
      },
      polls: { max_options: 4 },
    },
  };
}

/**
 * A status's length as Mastodon counts it: code points, every link as 23, and a mention of an
 * account on another server (`@name@host`) as its `@name` part only.
 */
export function statusLength(text: string): number {
  const links = text.replace(/https?:\/\/[^\s<>"]+/gi, 'x'.repeat(23));
  const mentions = links.replace(/(^|[^\w/])@(\w+)@[\w.-]*\w/g, '$1@$2');
  return [...mentions].length;
}

/** The kind of a file from its first bytes, as the server's media processing reads it. */
export function sniffMediaType(file: Buffer): 'image' | 'video' | null {
  const ascii = (from: number, to: number) => file.subarray(from, to).toString('latin1');
  if (file[0] === 0xff && file[1] === 0xd8 && file[2] === 0xff) return 'image';
  if (ascii(1, 4) === 'PNG' || ascii(0, 4) === 'GIF8') return 'image';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image';
  if (ascii(4, 8) === 'ftyp') return 'video';
  if (file.readUInt32BE(0) === 0x1a45dfa3) return 'video';
  return null;
}

export const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
