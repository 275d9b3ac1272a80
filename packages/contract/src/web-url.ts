import { z } from 'zod';

/**
 * Addresses Herald is handed by a network (a person's picture, a post's permalink, an
 * attachment's file) end up in `href` and `src` attributes of the web app. Only web addresses are
 * kept: an absolute `http:` or `https:` URL with a host, no credentials (`https://x.com@evil.example`
 * reads as x.com but goes to evil.example), no whitespace or control characters (a browser drops
 * them, so `java\tscript:` would still run) and at most `WEB_URL_MAX` characters. Anything else —
 * `javascript:`, `data:`, a relative path — is no address to follow.
 */
export const WEB_URL_MAX = 2048;

/**
 * The shape of a web address as one regular expression (it also describes the field in
 * OpenAPI): the scheme, then an authority without `@`, `\` or a path character, then anything
 * without whitespace or control characters.
 */
export const WEB_URL_PATTERN =
  // Control characters are what the pattern refuses, so it names them.
  // eslint-disable-next-line no-control-regex
  /^[Hh][Tt][Tt][Pp][Ss]?:\/\/[^\\/?#@\u0000-\u0020\u007f-\u009f\u2028\u2029]+(?:[/?#][^\u0000-\u0020\u007f-\u009f\u2028\u2029]*)?$/;

/** Whether the value is a web address Herald may keep and serve (see `WEB_URL_MAX`). */
export function isWebUrl(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > WEB_URL_MAX || !WEB_URL_PATTERN.test(value))
    return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (
    (url.protocol === 'https:' || url.protocol === 'http:') &&
    url.hostname !== '' &&
    url.username === '' &&
    url.password === ''
  );
}

/** The value when it is a web address (`isWebUrl`), else null: what a network gave is dropped. */
export function webUrlOrNull(value: unknown): string | null {
  return isWebUrl(value) ? value : null;
}

/** An answer's web address: what `webUrlOrNull` lets through. */
export const WebUrlSchema = z
  .string()
  .max(WEB_URL_MAX)
  .regex(WEB_URL_PATTERN, 'Only an http or https address is accepted.');

/**
 * A request's web address: refused with `message` unless `isWebUrl` holds (with `tooLong` past
 * `WEB_URL_MAX` characters).
 */
export const webUrlInput = (
  message: string,
  tooLong = `Keep the address under ${WEB_URL_MAX} characters.`,
) =>
  z
    .string({ error: message })
    .trim()
    .max(WEB_URL_MAX, tooLong)
    .regex(WEB_URL_PATTERN, message)
    .refine(isWebUrl, message);
