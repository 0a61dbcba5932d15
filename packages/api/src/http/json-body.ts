import express, { type RequestHandler } from "express";
import { AppError, MAX_JSON_DEPTH, nestedDeeperThan } from "@mw/platform";
import { keepSignedBody } from "../auth/signed-body.ts";

/** The JSON body parser of every REST route: bounded in size and, before parsing, in nesting. */
export function jsonBody(limit: string): RequestHandler {
  return express.json({
    limit,
    verify: (req, _res, body) => {
      if (nestedDeeperThan(body)) throw new AppError(400, "rest_invalid_json", `The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels.`);
      keepSignedBody(req, body);
    },
  });
}
