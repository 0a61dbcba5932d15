import { setTimeout as sleep } from "node:timers/promises";
import { AppError } from "@mw/platform/core";
import { decryptSecret, encryptSecret, randomToken, safeEqual, sha256Hex } from "@mw/platform/crypto";
import type { HarvestAuth, HarvestTokens } from "@mw/providers/harvest";
import { notifyStaff, raiseOperatorAlert } from "../notifications/index.ts";
import { clearPlatformCredentialRefusal, recordPlatformCredentialRefusal } from "../sites/index.ts";
import { harvestClient, oauthApp, type TimeDeps } from "./settings.ts";

/** Spec 2, 4.5 rule 3: a token expiring within this is refreshed before use. */
const REFRESH_WINDOW_MS = 600_000;
/** How long a connect URL's state token stays good. */
const STATE_TTL_SECONDS = 600;
/** The longest one refresh may hold the per-staff lock. */
const REFRESH_LOCK_MS = 15_000;

const stateKey = (deps: TimeDeps, state: string) => `${deps.config.QUEUE_PREFIX}:timetracking:state:${state}`;

/** What a state token stands for: the staff member, and the hash of the nonce given to the browser that asked. */
interface PendingConnection {
  staff_id: number;
  browser_hash: string;
}

/**
 * The authorization URL with a state token bound to this staff member and to
 * the browser that asked: single use, expiring in 10 minutes. `browserNonce`
 * goes back to that browser (a cookie) and must come back with the callback.
 */
export async function connectUrl(deps: TimeDeps, staffId: number): Promise<{ url: string; expires_in: number; browserNonce: string }> {
  const app = await oauthApp(deps.options);
  const state = randomToken(24);
  const browserNonce = randomToken(24);
  const pending: PendingConnection = { staff_id: staffId, browser_hash: sha256Hex(browserNonce) };
  await deps.redis.set(stateKey(deps, state), JSON.stringify(pending), "EX", STATE_TTL_SECONDS);
  const url = (await harvestClient(deps)).authorizeUrl({ clientId: app.clientId, redirectUri: app.redirectUri, state });
  return { url, expires_in: STATE_TTL_SECONDS, browserNonce };
}

/** Who completes a connection: the nonce its browser holds, and the staff member it is signed in as (the ticket system's agent), if any. */
interface CallbackBrowser {
  nonce?: string;
  staffId?: number | null;
}

function pendingOf(raw: string | null): PendingConnection | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<PendingConnection>;
    return typeof value.staff_id === "number" && typeof value.browser_hash === "string" ? { staff_id: value.staff_id, browser_hash: value.browser_hash } : null;
  } catch {
    return null;
  }
}

/**
 * Whether the callback comes from the browser that asked for the link: it
 * holds the link's nonce (the platform's own pages), or it is signed in as
 * the same staff member (through the ticket system, whose proxy speaks for
 * its agent and keeps the platform's cookies to itself). Anyone else who
 * opens the link, and comes back with their own Harvest account, is refused.
 */
function fromSameBrowser(pending: PendingConnection, browser: CallbackBrowser): boolean {
  if (browser.nonce && safeEqual(sha256Hex(browser.nonce), pending.browser_hash)) return true;
  return browser.staffId !== undefined && browser.staffId !== null && browser.staffId === pending.staff_id;
}

function refused(message: string): AppError {
  return new AppError(400, "oauth_failed", message);
}

async function store(deps: TimeDeps, staffId: number, tokens: HarvestTokens, user: { providerUserId: number; accountId: number }): Promise<void> {
  const key = deps.config.ENCRYPTION_KEY;
  const columns = {
    access_token: encryptSecret(tokens.access_token, key),
    refresh_token: encryptSecret(tokens.refresh_token, key),
    token_expires_at: new Date(Date.now() + tokens.expires_in * 1000),
    provider_user_id: user.providerUserId,
    account_id: user.accountId,
    // New tokens: a connection marked broken works again.
    broken_at: null,
    broken_reason: null,
  };
  await deps.prisma.staffOauthConnection.upsert({ where: { staff_id: staffId }, create: { staff_id: staffId, ...columns }, update: columns });
}

/**
 * The OAuth callback (spec 2, 4.5 rule 3): the state names the staff member,
 * is accepted only from the browser that asked for the link (fromSameBrowser)
 * and is then spent; the code becomes tokens, the account is
 * `time_api.account_id` when the token reaches it, else the token's first
 * Harvest account.
 */
export async function completeConnection(
  deps: TimeDeps,
  input: { code?: string; state?: string; error?: string },
  browser: CallbackBrowser,
): Promise<{ staffId: number; name: string; account: string }> {
  if (input.error) throw refused(`Harvest did not grant access: ${input.error}.`);
  if (!input.state || !input.code) throw refused("The callback is missing its code or state.");
  const expired = () => refused("This connect link has expired or was already used. Start again from the ticket.");
  const key = stateKey(deps, input.state);
  const pending = pendingOf(await deps.redis.get(key));
  if (!pending) throw expired();
  // Left unspent: the browser that asked can still finish.
  if (!fromSameBrowser(pending, browser)) throw refused("This connect link was opened in another browser than the one that asked for it. Start again from the ticket, in this browser.");
  if (!(await deps.redis.del(key))) throw expired();
  const staff = pending.staff_id;
  const app = await oauthApp(deps.options);
  const harvest = await harvestClient(deps);
  const tokens = await harvest.exchangeCode({ clientId: app.clientId, clientSecret: app.clientSecret, code: input.code });
  const { user, accounts } = await harvest.accounts(tokens.access_token);
  const wanted = await deps.options.get("time_api.account_id");
  const harvestAccounts = accounts.filter((account) => account.product === "harvest");
  const account = harvestAccounts.find((candidate) => candidate.id === wanted) ?? (wanted === null ? harvestAccounts[0] : undefined);
  if (!account) throw refused(wanted === null ? "This Harvest login reaches no Harvest account." : `This Harvest login cannot reach account ${wanted}.`);
  await store(deps, staff, tokens, { providerUserId: user.id, accountId: account.id });
  return { staffId: staff, name: [user.first_name, user.last_name].filter(Boolean).join(" ") || (user.email ?? String(user.id)), account: account.name };
}

/** What the status says of a broken connection: not connected, and that reconnecting (connect-url) mends it. */
const brokenStatus = (reason: string | null) => ({ connected: false, reconnect: true, reason: reason ?? "Harvest refused the connection." });

/** Spec 2, 4.5: whether the staff member is connected to Harvest and as whom, after refreshing an expiring token; a broken connection says "reconnect". */
export async function connectionStatus(deps: TimeDeps, staffId: number) {
  const auth = await staffHarvestAuth(deps, staffId).catch((error: unknown) => {
    if (error instanceof AppError && error.code === RECONNECT_CODE) return "broken" as const;
    throw error;
  });
  if (auth === "broken") {
    const row = await deps.prisma.staffOauthConnection.findUnique({ where: { staff_id: staffId } });
    return brokenStatus(row?.broken_reason ?? null);
  }
  if (!auth) return { connected: false };
  const harvest = await harvestClient(deps);
  const me = await asConnectedStaff(deps, staffId, () => harvest.me(auth)).catch((error: unknown) => {
    if (error instanceof AppError && error.code === RECONNECT_CODE) return null;
    throw error;
  });
  // Just marked "reconnect": answered as every broken connection is.
  if (!me) return connectionStatus(deps, staffId);
  const row = await deps.prisma.staffOauthConnection.findUniqueOrThrow({ where: { staff_id: staffId } });
  return { connected: true, user: { id: me.id, name: [me.first_name, me.last_name].filter(Boolean).join(" "), email: me.email ?? null }, account_id: row.account_id, token_expires_at: row.token_expires_at.toISOString() };
}

export async function disconnectStaff(deps: Pick<TimeDeps, "prisma">, staffId: number): Promise<boolean> {
  const { count } = await deps.prisma.staffOauthConnection.deleteMany({ where: { staff_id: staffId } });
  return count > 0;
}

const expiring = (row: { token_expires_at: Date }) => row.token_expires_at.getTime() - Date.now() < REFRESH_WINDOW_MS;

/** The error every call with a broken connection gets, instead of another refresh Harvest would refuse again. */
const RECONNECT_CODE = "harvest_reconnect";

/** Why a connection broke, in the words of the staff member's notification and refusals. */
const RENEWAL_REFUSED = "Harvest refused to renew it";
const TOKEN_REFUSED = "Harvest no longer accepts its access token";

function reconnectError(why = RENEWAL_REFUSED): AppError {
  return new AppError(403, RECONNECT_CODE, `Your Harvest connection stopped working (${why}). Reconnect to Harvest to track time.`);
}

const upstreamStatus = (error: unknown) => (error instanceof AppError ? error.upstream?.status : undefined);

/**
 * Whether the token endpoint refused the staff member's refresh token for
 * good: OAuth answers 400 (`invalid_grant`: revoked, spent or unknown).
 * Another try with the same token cannot succeed, unlike an outage or a 429,
 * which pass. A 401 there is `invalid_client`: the platform's app is refused,
 * not the staff member's token (appRefused).
 */
function refusedForGood(error: unknown): error is AppError {
  return upstreamStatus(error) === 400;
}

/** The key of the one operator alert while Harvest refuses the platform's app credentials. */
const APP_REFUSED_ALERT = "harvest-app-credentials";

/** The platform's own Harvest credentials as /readyz's credentials check keeps them (sync_credential_failures). */
const APP_CREDENTIAL = "harvest.app";
const SYNC_CREDENTIAL = "harvest.sync";

/**
 * `invalid_client` at refresh: the app's client id or secret (time_api.client_id,
 * time_api.client_secret) is wrong, for every staff member at once. Their tokens
 * are kept (they are fine, and mending the settings makes them work again); the
 * operators get one alert, and the call fails as a temporary outage.
 */
async function appRefused(deps: TimeDeps, error: AppError): Promise<AppError> {
  await recordPlatformCredentialRefusal(
    deps,
    APP_CREDENTIAL,
    401,
    `time tracking: Harvest refused the platform's app settings (invalid_client): check time_api.client_id and time_api.client_secret (${error.message})`,
  );
  await raiseOperatorAlert(deps, {
    key: APP_REFUSED_ALERT,
    subject: "Time tracking stopped: Harvest refused the platform's app credentials",
    text: [
      `Harvest's token endpoint refused the platform's OAuth app (${error.message}).`,
      "The Harvest app settings are wrong: check time_api.client_id and time_api.client_secret against the app at Harvest (Developers, OAuth2 applications).",
      "Agents' connections are kept: once the settings are right, their tokens renew on their next action, nobody needs to reconnect.",
    ].join("\n\n"),
  });
  return new AppError(503, "harvest_app_refused", "Harvest refused the platform's app settings; the operators have been told. Your connection is kept: try again once they are put right.");
}

/**
 * Marks the connection broken and tells the staff member, once: only the
 * call that flips it notifies (one notification per breakage).
 */
async function markBroken(deps: TimeDeps, staffId: number, reason: string, why = RENEWAL_REFUSED): Promise<void> {
  const { count } = await deps.prisma.staffOauthConnection.updateMany({ where: { staff_id: staffId, broken_at: null }, data: { broken_at: new Date(), broken_reason: reason.slice(0, 255) } });
  if (count === 0) return;
  await notifyStaff(deps, [
    {
      staff_id: staffId,
      ticket_id: null,
      kind: RECONNECT_CODE,
      title: "Reconnect to Harvest",
      body: `Your Harvest connection stopped working: ${why} (${reason}). Time cannot be tracked until you reconnect: open a ticket's time panel and press Reconnect to Harvest.`,
    },
  ]);
}

/**
 * Runs a Harvest API call made with the staff member's token. A 401 means
 * Harvest no longer accepts the token (revoked at Harvest, the user removed):
 * the connection is marked "reconnect" at once, as a refused refresh marks it,
 * instead of failing every action until the token would have expired.
 */
export async function asConnectedStaff<T>(deps: TimeDeps, staffId: number, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (upstreamStatus(error) !== 401) throw error;
    await markBroken(deps, staffId, (error as Error).message, TOKEN_REFUSED);
    throw reconnectError(TOKEN_REFUSED);
  }
}

/**
 * Runs the platform's own Harvest work (the sync and the import, with
 * time_api.sync_token). A 401 means Harvest no longer accepts that token
 * (revoked, its user removed): /readyz says the platform's connection needs
 * reconnecting (a new token) until a run gets through again.
 */
export async function asPlatform<T>(deps: TimeDeps, call: () => Promise<T>): Promise<T> {
  let result: T;
  try {
    result = await call();
  } catch (error) {
    if (upstreamStatus(error) === 401) {
      await recordPlatformCredentialRefusal(deps, SYNC_CREDENTIAL, 401, `time tracking: Harvest refused the platform's sync token (${(error as Error).message}): reconnect by entering a new time_api.sync_token`);
    }
    throw error;
  }
  await clearPlatformCredentialRefusal(deps, SYNC_CREDENTIAL);
  return result;
}

/**
 * The staff member's Harvest credentials, refreshed first when they expire
 * within 600 s. One refresh per staff member even under concurrent requests:
 * the refresher holds a Redis lock; the others wait for it and read what it
 * stored (Harvest rotates refresh tokens, so a second refresh would fail).
 * Null when the staff member has not connected.
 */
export async function staffHarvestAuth(deps: TimeDeps, staffId: number): Promise<HarvestAuth | null> {
  const lock = `${deps.config.QUEUE_PREFIX}:timetracking:refresh:${staffId}`;
  const deadline = Date.now() + REFRESH_LOCK_MS;
  for (;;) {
    const row = await deps.prisma.staffOauthConnection.findUnique({ where: { staff_id: staffId } });
    if (!row) return null;
    if (row.broken_at) throw reconnectError();
    if (!expiring(row)) return { accessToken: decryptSecret(row.access_token, deps.config.ENCRYPTION_KEY), accountId: row.account_id };
    const owner = randomToken(12);
    if (await deps.redis.set(lock, owner, "PX", REFRESH_LOCK_MS, "NX")) {
      try {
        const current = await deps.prisma.staffOauthConnection.findUnique({ where: { staff_id: staffId } });
        if (!current) return null;
        if (!current.broken_at && expiring(current)) {
          const app = await oauthApp(deps.options);
          const tokens = await (await harvestClient(deps))
            .refresh({ clientId: app.clientId, clientSecret: app.clientSecret, refreshToken: decryptSecret(current.refresh_token, deps.config.ENCRYPTION_KEY) })
            .catch(async (error: unknown) => {
              if (upstreamStatus(error) === 401) throw await appRefused(deps, error as AppError);
              if (!refusedForGood(error)) throw error;
              await markBroken(deps, staffId, error.message);
              throw reconnectError();
            });
          await store(deps, staffId, tokens, { providerUserId: current.provider_user_id, accountId: current.account_id });
          // Harvest took the app's settings: /readyz no longer says they are wrong.
          await clearPlatformCredentialRefusal(deps, APP_CREDENTIAL);
        }
      } finally {
        // Only our own lock: compare-and-delete in one step.
        await deps.redis.eval("if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0", 1, lock, owner);
      }
      continue;
    }
    if (Date.now() > deadline) throw new AppError(503, "oauth_refresh_busy", "The Harvest connection is being refreshed; try again in a moment.");
    await sleep(100);
  }
}
