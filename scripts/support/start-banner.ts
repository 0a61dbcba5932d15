import type { Config } from "@mw/platform";

/** The line a second terminal on this machine pastes to reach the API at the port `pnpm start` serves on. */
export function apiExport(config: Pick<Config, "PORT">): string {
  return `export API=http://localhost:${config.PORT}`;
}

/** What `pnpm start` prints once the API and the worker are up; the first step only while nobody can administer. */
export function startBanner(config: Pick<Config, "PUBLIC_URL" | "PORT" | "API_ROOT">, administratorExists: boolean): string {
  const base = config.PUBLIC_URL ?? `http://localhost:${config.PORT}`;
  const lines = [
    `  API         ${base}${config.API_ROOT}`,
    `  Console     ${base}/console`,
    `  Bull Board  ${base}/admin/queues`,
    `  API docs    ${base}/docs`,
    `  Health      ${base}/readyz`,
    "",
    "  In a second terminal (same folder):",
    `    ${apiExport(config)}`,
  ];
  if (!administratorExists) {
    lines.push("", "  Create an admin (prints an application password for HTTP Basic, once):", "    pnpm cli user:create --login admin --capabilities manage_middleware,manage_options");
  }
  return `\n${lines.join("\n")}\n`;
}
