import type { Request, Response } from "express";
import { AppError, errors } from "@mw/platform";
import { LoginThrottle, verifyLogin, type Principal } from "@mw/shared/identity";
import { setSessionCookie } from "../../auth/cookies.ts";
import type { AppContext } from "../../context.ts";

/** One way to start a browser session (REST login and the console's form): the throttle, the password, the cookie. */
export class SignIn {
  private readonly throttle: LoginThrottle;

  constructor(private readonly ctx: AppContext) {
    const { config } = ctx;
    this.throttle = new LoginThrottle(ctx.redis, config.QUEUE_PREFIX, {
      perLogin: config.LOGIN_FAILURES_PER_LOGIN,
      perIp: config.LOGIN_FAILURES_PER_IP,
      windowSeconds: config.LOGIN_FAILURE_WINDOW_SECONDS,
    });
  }

  /** Throws 429 rate_limited (Retry-After set) or 403 for a wrong login or password. */
  async start(req: Request, res: Response, login: string, password: string): Promise<{ principal: Principal; nonce: string }> {
    const ip = req.ip ?? "unknown";
    const wait = await this.throttle.retryAfter(login, ip);
    if (wait) {
      res.set("Retry-After", String(wait));
      throw new AppError(429, "rate_limited", `Too many failed logins. Try again in ${wait} seconds.`, { retry_after: wait });
    }
    const principal = await verifyLogin(this.ctx.prisma, login, password);
    if (!principal) {
      await this.throttle.failed(login, ip);
      throw errors.forbidden("Invalid login or password.");
    }
    await this.throttle.succeeded(login, ip);
    const { sessionId, nonce } = await this.ctx.sessions.create(principal.userId);
    setSessionCookie(res, this.ctx.config, sessionId);
    this.ctx.logger.info("session started", { login: principal.login });
    return { principal, nonce };
  }
}
