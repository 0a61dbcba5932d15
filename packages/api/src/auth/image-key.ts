import type { RequestHandler } from "express";
import { imageErrors } from "@mw/platform";
import { verifyImageApiKey } from "@mw/domains/images";
import type { AppContext } from "../context.ts";

/** The image API's key, the query parameter `api_key` (spec 1, section 5); missing or invalid is 401. */
export function requireImageKey(ctx: Pick<AppContext, "prisma">): RequestHandler {
  return async (req, _res, next) => {
    const key = req.query.api_key;
    const keyId = typeof key === "string" && key !== "" ? await verifyImageApiKey(ctx.prisma, key) : null;
    if (keyId === null) throw imageErrors.unauthorized();
    next();
  };
}
