import type { NextFunction, Request, Response } from "express";
import jwt from "jsonwebtoken";
import { HttpError } from "../util/errors.js";

export interface AuthedRequest extends Request { userId: number }

// requireAuth checks the bearer token's signature and expiry and puts the
// user's id on the request.
export function requireAuth(secret: string) {
  return (req: Request, _res: Response, next: NextFunction) => {
    const header = req.headers.authorization ?? "";
    const [scheme, token] = header.split(" ");
    if (scheme !== "Bearer" || !token) return next(new HttpError(401, "unauthorized", "missing bearer token"));
    try {
      const claims = jwt.verify(token, secret) as { sub: string };
      (req as AuthedRequest).userId = Number(claims.sub);
      next();
    } catch (err) {
      const expired = err instanceof jwt.TokenExpiredError;
      next(new HttpError(401, expired ? "token_expired" : "unauthorized", expired ? "token expired, log in again" : "invalid token"));
    }
  };
}
