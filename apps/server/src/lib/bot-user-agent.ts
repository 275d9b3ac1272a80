/**
 * Whether a request's User-Agent is an obvious robot: crawlers, link previews (the networks
 * fetch a post's links to draw their cards), uptime checkers and command-line clients. Short
 * links do not count their visits (docs/analytics.md#short-links). A missing User-Agent is a
 * robot too: browsers always send one.
 */
const BOT_PATTERN =
  /bot\b|bot\/|crawl|spider|slurp|facebookexternalhit|facebookcatalog|meta-externalagent|embedly|preview|bingpreview|whatsapp|telegram|skypeuripreview|vkshare|pinterest|quora link|outbrain|nuzzel|flipboard|tumblr|bitlybot|redditbot|applebot|mastodon|akkoma|pleroma|misskey|bluesky|cardyb|headless|phantomjs|curl\/|wget\/|python-requests|python-urllib|httpx|aiohttp|go-http-client|java\/|okhttp|libwww|node-fetch|undici|axios|postman|insomnia|uptime|monitor|pingdom|statuscake|lighthouse|validator|feedfetcher|scrapy/i;

export function isBotUserAgent(userAgent: string | undefined | null): boolean {
  if (!userAgent?.trim()) return true;
  return BOT_PATTERN.test(userAgent);
}
