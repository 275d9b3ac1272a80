import { countText, type MediaConstraints } from '@herald/contract';

type Counting = NonNullable<MediaConstraints['text']>['counting'];

/**
 * Splits a text where a network stops accepting it: the part within `max` (counted the
 * network's way) and the overflow. Counts are not strictly monotonic (a URL counts 23 only once
 * it is complete), so the cut is a prefix that fits, found by bisection, never a broken
 * surrogate pair.
 */
export function splitAtLimit(
  text: string,
  max: number,
  counting: Counting = 'codepoints',
): [string, string] {
  if (countText(text, counting) <= max) return [text, ''];
  const chars = Array.from(text);
  let low = 0;
  let high = chars.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (countText(chars.slice(0, middle).join(''), counting) <= max) low = middle;
    else high = middle - 1;
  }
  return [chars.slice(0, low).join(''), chars.slice(low).join('')];
}

/**
 * The beginning of a caption as a feed shows it before its "more" link: at most `limit`
 * characters, cut at the last space when there is one near the end.
 */
export function clampCaption(text: string, limit: number): { shown: string; isClamped: boolean } {
  const chars = Array.from(text);
  if (chars.length <= limit) return { shown: text, isClamped: false };
  const head = chars.slice(0, limit).join('');
  const space = head.lastIndexOf(' ');
  const shown = space > limit * 0.6 ? head.slice(0, space) : head;
  return { shown: shown.trimEnd(), isClamped: true };
}
