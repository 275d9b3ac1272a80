/**
 * Error sentences quote what the request sent (an address, a column name, a key, a label) so the
 * caller can see what was refused; a 5,000-character path came back as a 5,000-character
 * sentence. Every sentence the error handler writes goes through `boundSentence`, so no input
 * makes one longer than SENTENCE_MAX, whichever code built it.
 */

/** Characters of one run of non-space text kept; a longer run is echoed input. */
export const ECHO_MAX = 100;
/** Characters of a whole error sentence. */
export const SENTENCE_MAX = 1_000;

// Code points, not UTF-16 units: a cut never splits an emoji into half a surrogate pair.
const LONG_RUN = new RegExp(`\\S{${ECHO_MAX + 1},}`, 'gu');

const cut = (text: string, max: number) => `${Array.from(text).slice(0, max).join('')}…`;

/**
 * The sentence with each run of more than ECHO_MAX non-space characters (no word or identifier
 * Herald writes is that long; a pasted path, value or key is) cut to its first ECHO_MAX and an
 * ellipsis, and the whole cut to SENTENCE_MAX (echoed text with spaces in it).
 */
export function boundSentence(sentence: string): string {
  const shortened = sentence.replace(LONG_RUN, (run) => cut(run, ECHO_MAX));
  return Array.from(shortened).length > SENTENCE_MAX ? cut(shortened, SENTENCE_MAX - 1) : shortened;
}
