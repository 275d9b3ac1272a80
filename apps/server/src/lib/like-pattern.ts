/**
 * A LIKE pattern that finds `text` anywhere. `%`, `_` and `\` are wildcards to LIKE; someone
 * searching for "50%" means those characters.
 */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
