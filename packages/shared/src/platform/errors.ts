/**
 * The one error type of the platform. The HTTP error handler renders it in the
 * shape the route family expects (REST, admin AJAX, image API); workers record
 * its message as the job's failure reason.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Extra members of the REST `data` object, beside `status`. */
    readonly data: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "AppError";
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
  noRoute: () => new AppError(404, "rest_no_route", "No route was found matching the URL and request method."),
  /** Redis refused a job; `what` says what was (or was not) kept, e.g. "The order was stored but its export could not be queued". */
  queueUnavailable: (what: string, cause: unknown) => new AppError(503, "queue_unavailable", `${what}; retrying is safe.`, {}, { cause }),
};

/** The image API's answers (spec 1, section 7), rendered as `{error}` under /api; the texts are the contract. */
export const imageErrors = {
  serialRequired: () => new AppError(400, "serial_number_required", "Serial number is required"),
  unauthorized: () => new AppError(401, "image_unauthorized", "401 Unauthorized. Access Not Allowed"),
  serialNotFound: () => new AppError(404, "serial_number_not_found", "Serial number not found"),
  fileNotFound: () => new AppError(404, "image_file_not_found", "Serial Number Image File not found"),
  /** Storage failed; the cause (a 503) is what gets logged. */
  unreadable: (cause: unknown) => new AppError(404, "image_unreadable", "Could not Retrieve the image. Please retry again", {}, { cause }),
};
