import axe from "axe-core";
import type { Page } from "playwright-core";
import { expect } from "vitest";

interface Finding {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/** One line per finding and element: what rule, how bad, where, and what to fix. */
function describe(findings: Finding[]): string {
  return findings
    .flatMap((finding) => finding.nodes.map((node) => `${finding.impact} ${finding.id} (${finding.help}) at ${node.target.join(" ")}: ${(node.failureSummary ?? "").replace(/\s+/g, " ").trim()}`))
    .join("\n");
}

/**
 * Issue 45, point 5: runs axe-core over the page as it is now and fails on
 * any serious or critical finding, naming the rule and the element. The
 * console's CSP allows no inline script, but Playwright's evaluate goes
 * through the DevTools protocol, which the CSP does not govern.
 */
export async function expectAccessible(page: Page, label = new URL(page.url()).pathname): Promise<void> {
  const loaded = await page.evaluate("typeof window.axe === 'object'");
  if (!loaded) await page.evaluate(axe.source);
  const findings = (await page.evaluate(`window.axe.run(document, { resultTypes: ["violations"] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target.map(String), failureSummary: n.failureSummary })) })))`)) as Finding[];
  const serious = findings.filter((finding) => finding.impact === "serious" || finding.impact === "critical");
  expect(describe(serious), `accessibility of ${label}`).toBe("");
}
