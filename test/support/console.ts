import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { createUser, setLoginPassword, type Capability } from "@mw/domains/identity";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll } from "vitest";
import { startApi, uniqueLogin, type TestApi } from "./api.ts";
import { launchBrowser } from "./browser.ts";

export const CONSOLE_PASSWORD = "correct horse battery";

/** Where failing console tests leave a screenshot of every page they had open. */
export const SCREENSHOT_DIR = join(process.cwd(), "test-output", "console");

/** A user with a login password, as a person signs in with. */
export async function consoleUser(api: TestApi, capabilities: Capability[], staffId: number | null = null): Promise<string> {
  const login = uniqueLogin("console");
  await createUser(api.ctx, { login, capabilities, staffId: staffId ?? undefined });
  await setLoginPassword(api.ctx, login, CONSOLE_PASSWORD);
  return login;
}

/** Signs in through the console's own form; the page ends where the console sent it. */
export async function signIn(page: Page, url: string, login: string): Promise<void> {
  await page.goto(`${url}/console/login`);
  await page.fill("#login", login);
  await page.fill("#password", CONSOLE_PASSWORD);
  await Promise.all([page.waitForURL((target) => !target.pathname.endsWith("/login")), page.click("button[type=submit]")]);
}

/**
 * Opens browser contexts for a test and, when the test fails, saves a
 * screenshot of each of their pages under test-output/console before closing them.
 */
export function consoleContexts(browser: () => Browser): (options?: Parameters<Browser["newContext"]>[0]) => Promise<BrowserContext> {
  const open: BrowserContext[] = [];
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === "fail") {
      mkdirSync(SCREENSHOT_DIR, { recursive: true });
      const name = ctx.task.name.replace(/[^a-z0-9]+/gi, "-").slice(0, 80);
      let n = 0;
      for (const context of open) {
        for (const page of context.pages()) {
          n += 1;
          await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-${n}.png`), fullPage: true }).catch(() => undefined);
        }
      }
    }
    await Promise.all(open.splice(0).map((context) => context.close()));
  });
  return async (options) => {
    const context = await browser().newContext(options);
    open.push(context);
    return context;
  };
}

export interface ConsoleHarness {
  api: TestApi;
  browser: Browser;
  newContext: ReturnType<typeof consoleContexts>;
}

/** One API and one browser for a test file (filled in before its tests), closed after them; `env` is read when the API starts. */
export function useConsole(env: () => Record<string, string> = () => ({})): ConsoleHarness {
  const harness = {} as ConsoleHarness;
  harness.newContext = consoleContexts(() => harness.browser);
  beforeAll(async () => {
    harness.api = await startApi(env());
    harness.browser = await launchBrowser();
  });
  afterAll(async () => {
    await harness.browser?.close();
    await harness.api?.close();
  });
  return harness;
}
