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

/**
 * `text` without the trailing run of `chars` (each one UTF-16 unit): what
 * `/[…]+$/` does, by one scan from the end. The regex retries from every
 * character of a run that is not at the end ("///x"), which is quadratic.
 */
export function trimEndChars(text: string, chars: string): string {
  let end = text.length;
  while (end > 0 && chars.includes(text[end - 1]!)) end -= 1;
  return text.slice(0, end);
}
