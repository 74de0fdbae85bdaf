import { Router } from "express";
import { db } from "../db/pool.js";
import type { AuthedRequest } from "../middleware/auth.js";
import { loadBoard, requireMember } from "../models/board.js";
import { HttpError } from "../util/errors.js";

export function boardRoutes() {
  const router = Router();
  router.get("/boards", async (req, res, next) => {
    try {
      const { rows } = await db().query(
        `SELECT b.id, b.name FROM boards b JOIN members m ON m.board_id = b.id WHERE m.user_id = $1 ORDER BY b.name`,
        [(req as AuthedRequest).userId]);
      res.json(rows);
    } catch (err) { next(err); }
  });
  router.post("/boards", async (req, res, next) => {
    try {
      const name = String(req.body?.name ?? "").trim();
      if (!name) throw new HttpError(400, "invalid", "a board needs a name");
      const { rows } = await db().query(`INSERT INTO boards (name, owner_id) VALUES ($1, $2) RETURNING id`, [name, (req as AuthedRequest).userId]);
      await db().query(`INSERT INTO members VALUES ($1, $2)`, [rows[0].id, (req as AuthedRequest).userId]);
      res.status(201).json({ id: rows[0].id, name });
    } catch (err) { next(err); }
  });
  router.get("/boards/:id", async (req, res, next) => {
    try {
      const id = Number(req.params.id);
      await requireMember(id, (req as AuthedRequest).userId);
      res.json(await loadBoard(id));
    } catch (err) { next(err); }
  });
  return router;
}
