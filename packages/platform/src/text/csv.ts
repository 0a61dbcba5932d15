/**
 * Text that came from outside (site names, plugin names, payment methods): a
 * cell starting with = + - @ or a tab/CR would run as a formula when the CSV
 * is opened in a spreadsheet, so it gets a leading apostrophe (OWASP's
 * CSV-injection advice). So does one where these follow `;` or `,`: where
 * the locale's separator is `;`, Excel splits `;=cmd` into an empty cell and
 * a formula. Numbers and money are ours and stay as they are.
 */
export function csvTextCell(value: unknown): string {
  const text = String(value ?? "");
  return /^[;,]*[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}
