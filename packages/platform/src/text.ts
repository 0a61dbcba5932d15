/**
 * The first `max` characters of `text`, counted as code points, as a MySQL
 * utf8mb4 VARCHAR(max) counts them. Cutting UTF-16 units instead can split
 * an emoji's surrogate pair, and the lone half is stored as `?`.
 */
export function truncateCodePoints(text: string, max: number): string {
  // No more UTF-16 units than `max` means no more code points either.
  if (text.length <= max) return text;
  let end = 0;
  let count = 0;
  for (const char of text) {
    if (count === max) break;
    end += char.length;
    count += 1;
  }
  return text.slice(0, end);
}
