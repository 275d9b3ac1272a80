/**
 * LinkedIn's "little" text format (docs/networks.md#linkedin-publishing): commentary with `\ | { } @ [ ] ( ) < > * _ ~`
 * backslash-escaped, so they show as typed instead of starting a mention or a template. A `#`
 * that starts a word stays a hashtag; any other `#` is escaped.
 */
const RESERVED = /[\\|{}@[\]()<>*_~]/g;

export const escapeLittleText = (text: string) =>
  text.replace(RESERVED, (c) => `\\${c}`).replace(/#(?![\p{L}\p{N}_])/gu, '\\#');
