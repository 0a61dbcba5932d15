import { existsSync } from "node:fs";
import { AppError } from "@mw/platform/core";
import type { Config } from "@mw/platform/config";
import { egressGuard, startEgressProxy, type EgressGuard } from "@mw/platform/egress";
import { upstreamError } from "@mw/platform/http";
import type { JobRun } from "@mw/platform/queues";
import type { Connections } from "@mw/platform/connections";
import { NO_BROWSER } from "./jobs.ts";
import { siteForJob, storeScreenshot } from "./site-results.ts";
import { ensureNoWebrtcUdp, WEBRTC_NO_UDP_ARGS } from "./webrtc-udp.ts";

const VIEWPORT = { width: 1366, height: 768 };

/** The browser take_screenshot drives: CHROME_PATH, which must exist on this machine. */
function browserPath(config: Pick<Config, "CHROME_PATH">): string {
  if (!config.CHROME_PATH) throw AppError.permanent(NO_BROWSER, "no_browser");
  if (!existsSync(config.CHROME_PATH)) throw AppError.permanent(`${NO_BROWSER} (${config.CHROME_PATH} does not exist)`, "no_browser");
  return config.CHROME_PATH;
}

/**
 * Chromium's switches. Its sandbox cannot start where the worker runs as
 * root, so every request it makes (the page, its redirects and
 * subresources, loopback included) goes through the egress guard's proxy;
 * WebRTC may not send UDP around it, which each worker checks before its
 * first page (docs/security.md).
 */
function browserArgs(proxyUrl: string): string[] {
  return ["--no-sandbox", `--proxy-server=${proxyUrl}`, "--proxy-bypass-list=<-loopback>", ...WEBRTC_NO_UDP_ARGS];
}

/**
 * A PNG of `url` as a 1366x768 window shows it. Half the time limit goes to
 * the page's first answer (none: the job fails), the rest to its load event;
 * a page still loading then is captured as it is, so no page holds the job.
 * A URL the egress guard refuses fails before the browser starts.
 */
export async function capture(executablePath: string, url: string, timeoutMs: number, egress: EgressGuard): Promise<{ png: Buffer; loaded: boolean; status: number | null }> {
  const deadline = Date.now() + timeoutMs;
  const left = () => Math.max(1000, deadline - Date.now());
  await egress.checkDestination(new URL(url)).catch((error: unknown) => {
    throw upstreamError(url, error);
  });
  // Loaded on first use: every worker process would otherwise pay for playwright at start.
  const { chromium } = await import("playwright-core");
  const proxy = await startEgressProxy(egress, timeoutMs);
  const browser = await chromium.launch({ executablePath, args: browserArgs(proxy.url), timeout: left() }).catch(async (error: unknown) => {
    await proxy.close();
    throw error;
  });
  try {
    await ensureNoWebrtcUdp(executablePath, browser);
    const page = await browser.newPage({ viewport: VIEWPORT });
    const answerWithin = Math.min(timeoutMs / 2, left());
    const response = await page.goto(url, { waitUntil: "commit", timeout: answerWithin }).catch((error: Error) => {
      throw new AppError(502, "page_unreachable", `${url} did not answer the browser within ${(answerWithin / 1000).toFixed(1)} s: ${error.message.split("\n")[0]}`);
    });
    const loaded = await page.waitForLoadState("load", { timeout: left() }).then(
      () => true,
      () => false,
    );
    const png = await page.screenshot({ type: "png", timeout: left() });
    return { png, loaded, status: response?.status() ?? null };
  } finally {
    await browser.close();
    await proxy.close();
  }
}

/** take_screenshot (issue 16): the PNG stored under a key of its own job (a rerun overwrites it), named in the result and on the site; the one it replaces goes. */
export async function takeScreenshot(deps: Pick<Connections, "prisma" | "config" | "storage"> & Pick<JobRun, "progress">, siteId: number, jobId: string | undefined) {
  const executablePath = browserPath(deps.config);
  const site = await siteForJob(deps, siteId);
  await deps.progress(0, 2, `opening ${site.url}`);
  const shot = await capture(executablePath, site.url, deps.config.SCREENSHOT_TIMEOUT_MS, egressGuard(deps.config));
  const key = `screenshots/site-${site.id}/${jobId ?? Date.now()}.png`;
  await deps.storage.put(key, shot.png, "image/png");
  const takenAt = new Date();
  // A site keeps its latest screenshot only: one file each, however often it is taken.
  const replaced = await storeScreenshot(deps, site.id, key, takenAt);
  if (replaced) await deps.storage.delete(replaced);
  await deps.progress(2, 2, "stored");
  return { site_id: site.id, url: site.url, storage_key: key, bytes: shot.png.length, page_status: shot.status, loaded: shot.loaded, taken_at: takenAt.toISOString() };
}
