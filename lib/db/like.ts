/** A LIKE pattern matching `fragment` anywhere, its `\`, `%` and `_` taken literally. */
export function likePattern(fragment: string): string {
  return `%${fragment.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
