import { createHash } from 'node:crypto';
import { XMLParser } from 'fast-xml-parser';

/** One item of a feed, in the shape every format is read into. */
export interface ParsedItem {
  /** RSS guid, Atom id, JSON Feed id; null when the item has none. */
  guid: string | null;
  link: string | null;
  title: string;
  summary: string;
  author: string;
  publishedAt: Date | null;
  /** The item's picture: an image enclosure, Media RSS content or thumbnail, JSON Feed image. */
  imageUrl: string | null;
}

export interface ParsedFeed {
  format: 'rss' | 'atom' | 'json';
  title: string | null;
  /** RSS `ttl`: minutes the feed may be cached. */
  ttlMinutes: number | null;
  /** RSS `skipHours` (0–23, GMT) and `skipDays` (0 = Sunday): when not to read the feed. */
  skipHours: number[];
  skipDays: number[];
  /** Newest first (by date where the items have one, else in the feed's own order). */
  items: ParsedItem[];
  /**
   * WebSub: the hub the feed advertises (`<link rel="hub">`, JSON Feed `hubs`) and its own
   * address as the hub knows it (`rel="self"`, `feed_url`); null when not given.
   */
  hub: string | null;
  self: string | null;
}

/** The `rel="hub"` and `rel="self"` links among Atom `link` / RSS `atom:link` elements. */
function websubLinks(...nodes: unknown[]): Pick<ParsedFeed, 'hub' | 'self'> {
  const links = nodes.flatMap(list);
  const find = (rel: string) =>
    httpUrl(attr(links.find((l) => (attr(l, 'rel') ?? '').toLowerCase() === rel) ?? null, 'href'));
  return { hub: find('hub'), self: find('self') };
}

/** Why a body is not a feed Herald reads: a sentence for the member who gave the address. */
export class NotAFeed extends Error {}

/**
 * Entity expansion is off: a feed's DOCTYPE can declare entities (the "billion laughs") but none
 * is ever expanded, and external entities are never fetched. The five predefined entities and
 * character references are decoded afterwards, once, by `decodeXml`.
 */
const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  processEntities: false,
  htmlEntities: false,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  isArray: (name) =>
    ['item', 'entry', 'link', 'enclosure', 'media:content', 'media:thumbnail', 'author'].includes(
      name,
    ),
});

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  rsquo: '’',
  lsquo: '‘',
  rdquo: '”',
  ldquo: '“',
};

/** One pass over the text: an entity's replacement is never read again (no expansion). */
function decodeXml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code =
        name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff
        ? String.fromCodePoint(code)
        : whole;
    }
    return NAMED[name.toLowerCase()] ?? whole;
  });
}

/**
 * Feed text as plain text: the XML's own escapes first (an RSS description is escaped HTML),
 * then tags out with paragraphs as line breaks, then the HTML's entities; each decode is one pass.
 */
function plainText(raw: string): string {
  return decodeXml(
    decodeXml(raw)
      .replace(/<(script|style)[\s\S]*?<\/\1>/gi, '')
      .replace(/<br\s*\/?>|<\/(p|div|li|h\d)>/gi, '\n')
      .replace(/<[^>]+>/g, ''),
  )
    .replace(/[ \t\u00a0]+/g, ' ')
    .replace(/\s*\n\s*/g, '\n')
    .trim();
}

/** A node's text: a string, or the `#text` of an element that also has attributes. */
function textOf(node: unknown): string {
  if (node === undefined || node === null) return '';
  if (typeof node === 'string' || typeof node === 'number') return String(node);
  if (Array.isArray(node)) return textOf(node[0]);
  if (typeof node === 'object' && '#text' in node)
    return textOf((node as { '#text': unknown })['#text']);
  return '';
}

const attr = (node: unknown, name: string): string | null => {
  if (!node || typeof node !== 'object') return null;
  const value = (node as Record<string, unknown>)[`@_${name}`];
  return typeof value === 'string' && value.trim() ? decodeXml(value.trim()) : null;
};

const list = (node: unknown): unknown[] =>
  node === undefined || node === null ? [] : Array.isArray(node) ? node : [node];

/** A date the feed wrote; an unreadable one is none (it must not make an old item look new). */
function dateOf(...values: unknown[]): Date | null {
  for (const value of values) {
    const text = textOf(value).trim();
    if (!text) continue;
    const at = Date.parse(text);
    if (!Number.isNaN(at)) return new Date(at);
  }
  return null;
}

const httpUrl = (value: string | null): string | null =>
  value && /^https?:\/\//i.test(value.trim()) ? value.trim() : null;

/** The first image among Media RSS contents and thumbnails (also inside media:group). */
function mediaImage(item: Record<string, unknown>): string | null {
  const groups = list(item['media:group']) as Array<Record<string, unknown>>;
  for (const holder of [item, ...groups]) {
    for (const content of list(holder['media:content'])) {
      const type = attr(content, 'type') ?? '';
      const medium = attr(content, 'medium') ?? '';
      if (medium === 'image' || type.startsWith('image/') || (!medium && !type)) {
        const url = httpUrl(attr(content, 'url'));
        if (url) return url;
      }
    }
    for (const thumbnail of list(holder['media:thumbnail'])) {
      const url = httpUrl(attr(thumbnail, 'url'));
      if (url) return url;
    }
  }
  return null;
}

function rssItems(items: unknown[]): ParsedItem[] {
  return items.map((raw) => {
    const item = (raw ?? {}) as Record<string, unknown>;
    const link = httpUrl(decodeXml(textOf(item.link)).trim() || null);
    const guid = decodeXml(textOf(item.guid)).trim() || attr(item, 'rdf:about');
    const enclosure = list(item.enclosure).find((e) =>
      (attr(e, 'type') ?? '').startsWith('image/'),
    );
    const description = textOf(item.description) || textOf(item['content:encoded']);
    return {
      guid: guid || null,
      link: link ?? (guid && /^https?:\/\//i.test(guid) ? guid : null),
      title: plainText(textOf(item.title)),
      summary: plainText(description),
      author: plainText(textOf(item['dc:creator']) || textOf(item.author)),
      publishedAt: dateOf(item.pubDate, item['dc:date']),
      imageUrl: httpUrl(attr(enclosure, 'url')) ?? mediaImage(item),
    };
  });
}

function atomItems(entries: unknown[]): ParsedItem[] {
  return entries.map((raw) => {
    const entry = (raw ?? {}) as Record<string, unknown>;
    const links = list(entry.link);
    const rel = (l: unknown) => attr(l, 'rel') ?? 'alternate';
    const alternate = links.find((l) => rel(l) === 'alternate') ?? links[0];
    const enclosure = links.find(
      (l) => rel(l) === 'enclosure' && (attr(l, 'type') ?? '').startsWith('image/'),
    );
    const author = list(entry.author)[0] as Record<string, unknown> | undefined;
    return {
      guid: decodeXml(textOf(entry.id)).trim() || null,
      link: httpUrl(attr(alternate, 'href')),
      title: plainText(textOf(entry.title)),
      summary: plainText(textOf(entry.summary) || textOf(entry.content)),
      author: plainText(textOf(author?.name)),
      publishedAt: dateOf(entry.published, entry.updated),
      imageUrl: httpUrl(attr(enclosure, 'href')) ?? mediaImage(entry),
    };
  });
}

function jsonItems(items: unknown[]): ParsedItem[] {
  const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
  return items.map((raw) => {
    const item = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
    const authors = Array.isArray(item.authors) ? item.authors : item.author ? [item.author] : [];
    const author =
      authors[0] && typeof authors[0] === 'object' ? (authors[0] as { name?: unknown }) : null;
    const url = httpUrl(str(item.url) || null) ?? httpUrl(str(item.external_url) || null);
    return {
      guid: str(item.id).trim() || null,
      link: url,
      title: str(item.title).trim(),
      summary:
        str(item.summary).trim() ||
        str(item.content_text).trim() ||
        plainText(str(item.content_html)),
      author: str(author?.name).trim(),
      publishedAt: dateOf(item.date_published, item.date_modified),
      imageUrl: httpUrl(str(item.image) || null) ?? httpUrl(str(item.banner_image) || null),
    };
  });
}

/** Newest first where dates say so; undated items keep the feed's order among themselves. */
function newestFirst(items: ParsedItem[]): ParsedItem[] {
  return items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => {
      const at = a.item.publishedAt?.getTime();
      const bt = b.item.publishedAt?.getTime();
      if (at !== undefined && bt !== undefined && at !== bt) return bt - at;
      return a.index - b.index;
    })
    .map(({ item }) => item);
}

const DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/** A channel's `skipHours` and `skipDays`; values outside their ranges are ignored. */
function skipsOf(channel: Record<string, unknown>) {
  const values = (node: unknown, name: string) =>
    list((node as Record<string, unknown> | undefined)?.[name]).map((v) =>
      textOf(v).trim().toLowerCase(),
    );
  return {
    skipHours: values(channel.skipHours, 'hour')
      .map(Number)
      .filter((h) => Number.isInteger(h) && h >= 0 && h <= 23),
    skipDays: values(channel.skipDays, 'day')
      .map((d) => DAYS.indexOf(d))
      .filter((d) => d >= 0),
  };
}

/** An item with neither id nor link is known by a hash of what it says. */
function withIdentity(item: ParsedItem): ParsedItem {
  if (item.guid || item.link) return item;
  const hash = createHash('sha256').update(`${item.title}\n${item.summary}`).digest('hex');
  return { ...item, guid: `sha256:${hash}` };
}

function looksLikeHtml(body: string) {
  return /^\s*(<!doctype html|<html)/i.test(body);
}

/** JSON Feed's `hubs` (the first of type WebSub) and `feed_url`. */
function jsonWebsub(feed: {
  hubs?: unknown;
  feed_url?: unknown;
}): Pick<ParsedFeed, 'hub' | 'self'> {
  const hubs = Array.isArray(feed.hubs)
    ? (feed.hubs as Array<{ type?: unknown; url?: unknown }>)
    : [];
  const hub = hubs.find((h) => typeof h?.type === 'string' && h.type.toLowerCase() === 'websub');
  return {
    hub: typeof hub?.url === 'string' ? httpUrl(hub.url) : null,
    self: typeof feed.feed_url === 'string' ? httpUrl(feed.feed_url) : null,
  };
}

/**
 * Reads an RSS 2.0 (or RSS 1.0), Atom 1.0 or JSON Feed 1.x document; throws NotAFeed with a
 * sentence when the body is none of them.
 */
export function parseFeed(body: string, contentType: string): ParsedFeed {
  const trimmed = body.replace(/^\uFEFF/, '').trimStart();
  if (trimmed.startsWith('{') || /json/i.test(contentType)) {
    let doc: unknown;
    try {
      doc = JSON.parse(trimmed);
    } catch {
      throw new NotAFeed('This address answers JSON that cannot be read (it is not valid JSON).');
    }
    const feed = doc as { version?: unknown; title?: unknown; items?: unknown };
    if (
      !feed ||
      typeof feed.version !== 'string' ||
      !feed.version.startsWith('https://jsonfeed.org/version/') ||
      !Array.isArray(feed.items)
    ) {
      throw new NotAFeed(
        'This address answers JSON, but not a JSON Feed (no jsonfeed.org version and items).',
      );
    }
    return {
      format: 'json',
      title: typeof feed.title === 'string' ? feed.title.trim() || null : null,
      ttlMinutes: null,
      skipHours: [],
      skipDays: [],
      items: newestFirst(jsonItems(feed.items)).map(withIdentity),
      ...jsonWebsub(doc as { hubs?: unknown; feed_url?: unknown }),
    };
  }
  if (looksLikeHtml(trimmed)) {
    throw new NotAFeed(
      'This address is a web page, not a feed. Give the address of its RSS, Atom or JSON feed (often linked as "RSS" or ending in /feed).',
    );
  }
  let doc: Record<string, unknown>;
  try {
    doc = xml.parse(trimmed) as Record<string, unknown>;
  } catch (error) {
    throw new NotAFeed(
      `This address does not answer a feed Herald can read: the XML is broken (${(error as Error).message.split('\n')[0]}).`,
    );
  }
  const rss = doc.rss as { channel?: Record<string, unknown> } | undefined;
  if (rss?.channel) {
    const channel = rss.channel;
    const ttl = Number(textOf(channel.ttl));
    return {
      format: 'rss',
      title: plainText(textOf(channel.title)) || null,
      ttlMinutes: Number.isFinite(ttl) && ttl > 0 ? Math.round(ttl) : null,
      ...skipsOf(channel),
      items: newestFirst(rssItems(list(channel.item))).map(withIdentity),
      ...websubLinks(channel['atom:link'], channel['atom10:link']),
    };
  }
  const rdf = doc['rdf:RDF'] as Record<string, unknown> | undefined;
  if (rdf) {
    const channel = (rdf.channel ?? {}) as Record<string, unknown>;
    return {
      format: 'rss',
      title: plainText(textOf(channel.title)) || null,
      ttlMinutes: null,
      skipHours: [],
      skipDays: [],
      items: newestFirst(rssItems(list(rdf.item))).map(withIdentity),
      hub: null,
      self: null,
    };
  }
  const atom = doc.feed as Record<string, unknown> | undefined;
  if (atom && typeof atom === 'object') {
    return {
      format: 'atom',
      title: plainText(textOf(atom.title)) || null,
      ttlMinutes: null,
      skipHours: [],
      skipDays: [],
      items: newestFirst(atomItems(list(atom.entry))).map(withIdentity),
      ...websubLinks(atom.link),
    };
  }
  throw new NotAFeed(
    'This address answers something that is not an RSS, Atom or JSON feed. Check the address of the feed.',
  );
}
