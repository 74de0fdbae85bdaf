import type { NextFunction, Request, Response } from "express";
import { logger } from "./logger.js";

export class HttpError extends Error {
  constructor(public status: number, public code: string, message: string) {
    super(message);
  }
}

export const notFound = (what: string) => new HttpError(404, "not_found", `${what} not found`);
export const forbidden = () => new HttpError(403, "forbidden", "you are not a member of this board");

// errorHandler turns thrown errors into the API's error body; anything
// that is not an HttpError is a 500 and is logged with its stack.
export function errorHandler(err: unknown, req: Request, res: Response, _next: NextFunction) {
  if (err instanceof HttpError) {
    res.status(err.status).json({ error: { code: err.code, message: err.message } });
    return;
  }
  logger.error("unhandled error", { path: req.path, err });
  res.status(500).json({ error: { code: "internal", message: "internal error" } });
}
