import type { ErrorRequestHandler, RequestHandler } from "express";
import { AppError, errors, isDatabaseError, type DatabaseOutage, type Logger } from "@mw/platform";

type Shape = "rest" | "ajax" | "image";

/** Which error shape a request gets is decided by where it was mounted. */
function shapeFor(url: string): Shape {
  if (url.startsWith("/admin-ajax") || url.startsWith("/scp/ajax.php")) return "ajax";
  if (url === "/api" || url.startsWith("/api/") || url.startsWith("/api?")) return "image";
  return "rest";
}

/** body-parser errors carry `type` (decoding errors only a 400 and zlib's errno); map them to the REST codes of the design. */
function fromParserError(error: Error & { type?: string; status?: number; errno?: number }, contentEncoding: string | undefined): AppError | null {
  if (error.status === 400 && !error.type && typeof error.errno === "number" && contentEncoding) {
    return new AppError(400, "rest_invalid_body", `The request body is not valid ${contentEncoding.slice(0, 40)} data.`);
  }
  if (error.type === "entity.parse.failed") return new AppError(400, "rest_invalid_json", "Invalid JSON body passed.");
  if (error.type === "entity.too.large") return new AppError(413, "rest_payload_too_large", "Request body is larger than the limit.");
  if (error.type === "encoding.unsupported" || error.type === "charset.unsupported") {
    return new AppError(415, "rest_unsupported_encoding", "Unsupported request body encoding.");
  }
  // The router refuses a path parameter that is not valid percent-encoding (`/sites/%ZZ`).
  if (error instanceof URIError && error.status === 400) return new AppError(400, "rest_bad_request", "The URL has malformed percent-encoding.");
  if (typeof error.status === "number" && error.status >= 400 && error.status < 500 && error.type) {
    return new AppError(error.status, "rest_bad_request", "Malformed request.");
  }
  return null;
}

export function notFoundHandler(): RequestHandler {
  return (_req, _res, next) => next(errors.noRoute());
}

/** The database failure behind an error, whether a route wrapped it (order intake's db_error) or not. */
function databaseCause(error: unknown): unknown {
  if (isDatabaseError(error)) return error;
  if (error instanceof AppError && isDatabaseError(error.cause)) return error.cause;
  return undefined;
}

/**
 * The one error handler: renders every failure in its route family's shape,
 * never leaking a stack. Any database failure answers 500 `db_error`; during
 * an outage the `outage` watcher has said so once, so requests log nothing more.
 */
export function errorHandler(logger: Logger, outage?: DatabaseOutage): ErrorRequestHandler {
  return async (error: unknown, req, res, _next) => {
    const dbCause = databaseCause(error);
    const known = error instanceof AppError ? error : dbCause ? errors.database(dbCause) : fromParserError(error as Error, req.headers["content-encoding"]);
    const appError = known ?? new AppError(500, "rest_internal_error", "An unexpected error occurred.");
    if (dbCause && outage && (await outage.explains(dbCause))) {
      // Logged once for the whole outage.
    } else if (!known) {
      logger.error("unhandled error", { method: req.method, url: req.originalUrl, error });
    } else if (appError.status >= 500 || (appError.cause instanceof AppError && appError.cause.status >= 500)) {
      // A failure of ours behind whatever status the route family answers with (the image API says 404).
      logger.error(appError.message, { method: req.method, url: req.originalUrl, code: appError.code, cause: appError.cause });
    }
    if (res.headersSent) {
      res.destroy();
      return;
    }
    // Routes that ask for another scheme (a bearer token) have set their own challenge.
    if (appError.status === 401 && appError.code === "rest_forbidden" && !res.get("WWW-Authenticate")) {
      res.set("WWW-Authenticate", 'Basic realm="Middleware", charset="UTF-8"');
    }
    res.status(appError.status);
    switch (shapeFor(req.originalUrl)) {
      case "ajax":
        res.json({ success: false, data: appError.message });
        break;
      case "image":
        res.json({ error: appError.message });
        break;
      default:
        res.json({ code: appError.code, message: appError.message, data: { status: appError.status, ...appError.data } });
    }
  };
}
