import type { Request, RequestHandler, Response } from "express";
import { errors } from "@mw/platform";
import type { SiteKeyPrincipal } from "@mw/domains/sites";
import type { AppContext } from "../context.ts";
import { asCaller } from "./caller-reads.ts";

function presentedKey(req: Request): string | undefined {
  const header = req.headers.authorization;
  if (header?.startsWith("Bearer ")) return header.slice(7).trim();
  const apiKey = req.headers["x-api-key"];
  return typeof apiKey === "string" ? apiKey.trim() : undefined;
}

/** Per-site API key (`Authorization: Bearer` or `X-API-Key`); the key alone fixes the site (spec 1, 4.1 rule 1). */
export function requireSiteKey(ctx: Pick<AppContext, "siteKeys" | "callerWrites">): RequestHandler {
  return async (req, res, next) => {
    const key = presentedKey(req);
    const principal = key ? await ctx.siteKeys.verify(key) : null;
    if (!principal) throw errors.unauthorized("invalid or revoked API key");
    res.locals.siteKey = principal;
    asCaller(ctx, req, res, `key:${principal.keyId}`, next);
  };
}

export function siteKeyOf(res: Response): SiteKeyPrincipal {
  const principal = res.locals.siteKey as SiteKeyPrincipal | undefined;
  if (!principal) throw errors.unauthorized("invalid or revoked API key");
  return principal;
}
