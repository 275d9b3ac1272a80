import { BLUESKY_LIMITS } from './limits.js';

/**
 * A link card (`app.bsky.embed.external`): Bluesky shows none by itself, the client that posts
 * reads the page and uploads its picture (docs/networks.md#bluesky-publishing). Read from the
 * page's Open Graph tags, falling back to its `<title>` and description.
 */
export interface LinkCard {
  uri: string;
  title: string;
  description: string;
  image: { bytes: Buffer; mimeType: string } | null;
}

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
  '&#x27;': "'",
};
const decode = (s: string) =>
  s.replace(/&(amp|lt|gt|quot|#39|#x27);/g, (e) => ENTITIES[e] ?? e).trim();

/** The `content` of `<meta property|name="{key}">`, in either attribute order. */
function meta(html: string, key: string): string | null {
  const k = key.replace(/[.:]/g, (c) => `\\${c}`);
  const a = new RegExp(
    `<meta[^>]+(?:property|name)=["']${k}["'][^>]*content=["']([^"']*)["']`,
    'i',
  ).exec(html);
  const b = new RegExp(
    `<meta[^>]+content=["']([^"']*)["'][^>]*(?:property|name)=["']${k}["']`,
    'i',
  ).exec(html);
  const found = a?.[1] ?? b?.[1];
  return found ? decode(found) : null;
}

/** What a page's head says of it. */
export function cardFromHtml(html: string, pageUrl: string) {
  const title =
    meta(html, 'og:title') ?? decode(/<title[^>]*>([^<]*)<\/title>/i.exec(html)?.[1] ?? '');
  const description = meta(html, 'og:description') ?? meta(html, 'description') ?? '';
  const image = meta(html, 'og:image');
  let imageUrl: string | null = null;
  if (image) {
    try {
      imageUrl = new URL(image, pageUrl).toString();
    } catch {
      imageUrl = null;
    }
  }
  return { title: title.slice(0, 300), description: description.slice(0, 1000), imageUrl };
}

/**
 * The card of a link, or null when its page cannot be read (the post then goes out without a
 * card, as it would from Bluesky's app). Every request goes through `fetchPage`, which is the SSRF
 * guard: the link is whatever the person wrote.
 */
export async function readLinkCard(
  uri: string,
  fetchPage: (url: string) => Promise<Response>,
): Promise<LinkCard | null> {
  const page = await fetchPage(uri).catch(() => null);
  if (!page?.ok || !(page.headers.get('content-type') ?? '').includes('html')) return null;
  const html = (await page.text()).slice(0, BLUESKY_LIMITS.linkCardPageBytes);
  const { title, description, imageUrl } = cardFromHtml(html, uri);
  if (!title && !description) return null;
  let image: LinkCard['image'] = null;
  if (imageUrl) {
    const res = await fetchPage(imageUrl).catch(() => null);
    const mimeType = res?.headers.get('content-type')?.split(';')[0]?.trim() ?? '';
    if (res?.ok && /^image\/(jpeg|png|webp|gif)$/.test(mimeType)) {
      const bytes = Buffer.from(await res.arrayBuffer());
      if (bytes.length <= BLUESKY_LIMITS.linkCardThumbBytes) image = { bytes, mimeType };
    }
  }
  return { uri, title: title || uri, description, image };
}
