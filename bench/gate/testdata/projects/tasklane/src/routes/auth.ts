import { Router } from "express";
import jwt from "jsonwebtoken";
import { scrypt, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";
import { db } from "../db/pool.js";
import { HttpError } from "../util/errors.js";

const scryptAsync = promisify(scrypt);

async function passwordMatches(password: string, stored: string): Promise<boolean> {
  const [salt, hash] = stored.split(":");
  const derived = (await scryptAsync(password, salt, 64)) as Buffer;
  return timingSafeEqual(derived, Buffer.from(hash, "hex"));
}

export function authRoutes(secret: string, ttlSeconds: number) {
  const router = Router();
  router.post("/auth/login", async (req, res, next) => {
    try {
      const { email, password } = req.body ?? {};
      const { rows } = await db().query(`SELECT id, password_hash FROM users WHERE email = $1`, [email]);
      if (!rows.length || !(await passwordMatches(String(password), rows[0].password_hash))) {
        throw new HttpError(401, "bad_credentials", "wrong email or password");
      }
      const token = jwt.sign({ sub: String(rows[0].id) }, secret, { expiresIn: ttlSeconds });
      res.json({ token });
    } catch (err) {
      next(err);
    }
  });
  return router;
}
