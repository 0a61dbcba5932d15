import type { Config } from "@mw/platform/config";
import type { Connections } from "@mw/platform/connections";
import { LoginThrottle, type LoginSubject } from "./login-throttle.ts";
import type { Principal } from "./principal.ts";
import type { SessionStore } from "./sessions.ts";
import { findLoginUser, sessionPrincipal, verifyLoginPassword } from "./users.ts";

type SignInOutcome =
  | { outcome: "signed_in"; principal: Principal; sessionId: string; nonce: string }
  /** Too many failed logins for this login or address: nothing was checked. */
  | { outcome: "throttled"; retryAfter: number }
  | { outcome: "refused" };

interface SignInDeps extends Pick<Connections, "prisma" | "redis" | "logger"> {
  config: Pick<Config, "QUEUE_PREFIX" | "LOGIN_FAILURES_PER_LOGIN" | "LOGIN_FAILURES_PER_IP" | "LOGIN_FAILURE_WINDOW_SECONDS">;
  sessions: SessionStore;
}

/**
 * Starts a browser session with the user's own password (the REST login and
 * the console's form): a place in the throttle's counts first, then the
 * password, then the session.
 * The throttle counts by the user the login reaches, so another spelling the
 * database takes for the same login ("Opt", "opt ", "ópt") shares its count.
 */
export async function signIn(deps: SignInDeps, attempt: { login: string; password: string; ip: string }): Promise<SignInOutcome> {
  const { config } = deps;
  const { login, password, ip } = attempt;
  const throttle = new LoginThrottle(deps.redis, config.QUEUE_PREFIX, {
    perLogin: config.LOGIN_FAILURES_PER_LOGIN,
    perIp: config.LOGIN_FAILURES_PER_IP,
    windowSeconds: config.LOGIN_FAILURE_WINDOW_SECONDS,
  });
  const user = await findLoginUser(deps, login);
  const subject: LoginSubject = user ? { userId: user.id } : { login };
  // The place is taken before the password is checked, so parallel guesses each count.
  const reservation = await throttle.reserve(subject, ip);
  if (!reservation.ok) return { outcome: "throttled", retryAfter: reservation.retryAfter };
  const match = await verifyLoginPassword(user, password);
  if (!match) return { outcome: "refused" };
  const { principal } = match;
  await throttle.succeeded(subject, ip);
  const { sessionId, nonce } = await deps.sessions.create(principal.userId, match.passwordStamp);
  deps.logger.info("session started", { login: principal.login });
  return { outcome: "signed_in", principal, sessionId, nonce };
}

/**
 * The session behind a cookie, with its user and nonce; null when there is
 * none, or it has ended: expired, logged out, its user deleted, or the
 * user's password changed since it started (it is then removed).
 */
export async function resumeSession(deps: { prisma: Connections["prisma"]; sessions: SessionStore }, sessionId: string): Promise<{ principal: Principal; nonce: string } | null> {
  const session = await deps.sessions.get(sessionId);
  if (!session) return null;
  const principal = await sessionPrincipal(deps, session);
  if (!principal) {
    await deps.sessions.destroy(sessionId);
    return null;
  }
  return { principal, nonce: session.nonce };
}
