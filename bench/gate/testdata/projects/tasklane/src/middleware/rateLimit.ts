import type { NextFunction, Request, Response } from "express";
import { HttpError } from "../util/errors.js";

// A fixed window per client address: at most perMinute requests in each
// minute, then 429 with Retry-After.
export function rateLimit(perMinute: number) {
  const windows = new Map<string, { start: number; count: number }>();
  return (req: Request, res: Response, next: NextFunction) => {
    const now = Date.now();
    const key = req.ip ?? "unknown";
    const w = windows.get(key);
    if (!w || now - w.start >= 60_000) {
      windows.set(key, { start: now, count: 1 });
      return next();
    }
    if (++w.count > perMinute) {
      res.setHeader("Retry-After", Math.ceil((w.start + 60_000 - now) / 1000));
      return next(new HttpError(429, "rate_limited", "too many requests"));
    }
    next();
  };
}
