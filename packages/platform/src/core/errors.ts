/**
 * What another system's failure answer means to whoever called it, read from
 * the HTTP status once (in `errors.upstream`), so that callers decide on the
 * meaning and no caller compares status numbers of its own.
 */
export type UpstreamKind =
  /** 400, 404, 422: it said no to this one request (this order, this item); other requests may still go through. */
  | "refused"
  /** 409: what we asked for clashes with what it holds, e.g. a sales order with that number already exists. */
  | "conflict"
  /** 401, 403: it does not accept our credentials; every request fails alike until an operator fixes them. */
  | "unauthorized"
  /** 429, or a rate limit that outlasted the wait we allow. */
  | "rate_limited"
  /** Another 4xx (405, 410, 413, ...): the request does not fit its API; sending it again will not help. */
  | "unsupported"
  /** 408, 5xx and anything else: it could not answer now; a later try may succeed. */
  | "unavailable";

export interface UpstreamFailure {
  status: number;
  kind: UpstreamKind;
  /** Who answered, as its client names itself in messages ("ERP", "storefront_a"): tells whose credentials an `unauthorized` concerns. */
  system?: string;
}

function upstreamKind(status: number): UpstreamKind {
  switch (status) {
    case 400:
    case 404:
    case 422:
      return "refused";
    case 409:
      return "conflict";
    case 401:
    case 403:
      return "unauthorized";
    case 429:
      return "rate_limited";
    case 408:
      return "unavailable";
  }
  return status >= 400 && status < 500 ? "unsupported" : "unavailable";
}

/** The kinds that waiting can cure; BullMQ retries them, the others are permanent. */
const PASSING_KINDS: ReadonlySet<UpstreamKind> = new Set(["rate_limited", "unavailable"]);

/**
 * The one error type of the platform. The HTTP error handler renders it in the
 * shape the route family expects (REST, admin AJAX, image API); workers record
 * its message as the job's failure reason.
 */
export class AppError extends Error {
  /** Set when another system's answer is what failed; decisions read its `kind`. */
  readonly upstream: UpstreamFailure | undefined;

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Extra members of the REST `data` object, beside `status`. */
    readonly data: Record<string, unknown> = {},
    options?: { cause?: unknown; upstream?: UpstreamFailure },
  ) {
    super(message, options);
    this.name = "AppError";
    this.upstream = options?.upstream;
  }

  /** A failure that retrying will not fix (bad payload, missing account): workers stop retrying it. */
  permanent = false;

  static permanent(message: string, code = "permanent_failure"): AppError {
    const error = new AppError(500, code, message);
    error.permanent = true;
    return error;
  }
}

/** 400 rest_invalid_param naming every bad parameter with what is wrong with it. */
function invalidParams(params: Record<string, string>): AppError {
  return new AppError(400, "rest_invalid_param", `Invalid parameter(s): ${Object.keys(params).join(", ")}`, { params });
}

/** 400 rest_missing_callback_param naming every absent required parameter. */
function missingParams(params: string[]): AppError {
  return new AppError(400, "rest_missing_callback_param", `Missing parameter(s): ${params.join(", ")}`, { params });
}

/**
 * Another system answered `status`: a 502 of ours, permanent unless its kind
 * passes with time. `data.upstream_status` is for people (the errors table,
 * REST answers); code decides on `upstream.kind`.
 */
function upstream(status: number, message: string, options: { code?: string; data?: Record<string, unknown>; cause?: unknown; system?: string } = {}): AppError {
  const kind = upstreamKind(status);
  // `cause` only when given: an Error built with `{ cause: undefined }` still has an own `cause`.
  const { code = "upstream_error", data, system, ...withCause } = options;
  const error = new AppError(502, code, message, { upstream_status: status, ...data }, { ...withCause, upstream: { status, kind, ...(system !== undefined && { system }) } });
  error.permanent = !PASSING_KINDS.has(kind);
  return error;
}

export const errors = {
  forbidden: (message = "Sorry, you are not allowed to do that.") => new AppError(403, "rest_forbidden", message),
  unauthorized: (message = "Authentication required.") => new AppError(401, "rest_forbidden", message),
  notFound: (message = "Resource not found.") => new AppError(404, "rest_not_found", message),
  invalidParams,
  invalidParam: (param: string, message: string) => invalidParams({ [param]: message }),
  /** Input that is wrong as a whole rather than in one named parameter (CLI arguments, the login rule). */
  invalidInput: (message: string) => new AppError(400, "rest_invalid_param", message),
  missingParams,
  missingParam: (param: string) => missingParams([param]),
  /** The request clashes with what is stored (a duplicate, a state that forbids it); `code` says which clash. */
  conflict: (code: string, message: string, data: Record<string, unknown> = {}) => new AppError(409, code, message, data),
  /** The database refused a write we expected to succeed; the cause is logged, not shown. */
  cannotSave: (code: "rest_cannot_create" | "rest_cannot_update", message: string, cause: unknown) => new AppError(500, code, message, {}, { cause }),
  /** The database failed or could not be reached; the cause is logged, not shown. */
  database: (cause: unknown) => new AppError(500, "db_error", "Database error: the request could not be completed.", {}, { cause }),
  noRoute: () => new AppError(404, "rest_no_route", "No route was found matching the URL and request method."),
  /** Redis refused a job; `what` says what was (or was not) kept, e.g. "The order was stored but its export could not be queued". */
  queueUnavailable: (what: string, cause: unknown) => new AppError(503, "queue_unavailable", `${what}; retrying is safe.`, {}, { cause }),
  upstream,
};

/** The other system answered 404: what was asked for is not there (an order, a product), which a lookup answers as "none". */
export function isUpstreamNotFound(error: unknown): boolean {
  return error instanceof AppError && error.upstream?.status === 404;
}

/** The image API's answers (spec 1, section 7), rendered as `{error}` under /api; the texts are the contract. */
export const imageErrors = {
  serialRequired: () => new AppError(400, "serial_number_required", "Serial number is required"),
  unauthorized: () => new AppError(401, "image_unauthorized", "401 Unauthorized. Access Not Allowed"),
  serialNotFound: () => new AppError(404, "serial_number_not_found", "Serial number not found"),
  fileNotFound: () => new AppError(404, "image_file_not_found", "Serial Number Image File not found"),
  /** Storage failed; the cause (a 503) is what gets logged. */
  unreadable: (cause: unknown) => new AppError(404, "image_unreadable", "Could not Retrieve the image. Please retry again", {}, { cause }),
};
