import { Router } from "express";
import { inTransaction } from "../db/pool.js";
import type { AuthedRequest } from "../middleware/auth.js";
import { requireMember } from "../models/board.js";
import { getCard, updateCard } from "../models/card.js";
import { broadcast } from "../services/notifications.js";
import { needsRenumber, positionBetween, renumber } from "../services/ordering.js";
import { HttpError } from "../util/errors.js";

export function cardRoutes() {
  const router = Router();

  router.patch("/cards/:id", async (req, res, next) => {
    try {
      const { version, ...fields } = req.body ?? {};
      if (typeof version !== "number") throw new HttpError(400, "invalid", "version is required");
      const card = await updateCard(Number(req.params.id), version, fields);
      res.json(card);
    } catch (err) { next(err); }
  });

  // moveCard puts a card after another in a lane (or first when after is
  // null), renumbering the lane when the gap is too small.
  router.post("/cards/:id/move", async (req, res, next) => {
    try {
      const { lane, after } = req.body ?? {};
      const moved = await inTransaction(async (client) => {
        const card = await getCard(Number(req.params.id), client);
        const { rows: laneRows } = await client.query(`SELECT board_id FROM lanes WHERE id = $1`, [lane]);
        if (!laneRows.length) throw new HttpError(400, "invalid", "no such lane");
        await requireMember(laneRows[0].board_id, (req as AuthedRequest).userId);
        const { rows } = await client.query(`SELECT id, position FROM cards WHERE lane_id = $1 AND id <> $2 ORDER BY position`, [lane, card.id]);
        const i = after === null ? -1 : rows.findIndex((r) => r.id === after);
        const before = i >= 0 ? rows[i].position : null;
        const next = rows[i + 1]?.position ?? null;
        if (needsRenumber(before, next)) {
          const fresh = renumber(rows.map((r) => r.position));
          for (let k = 0; k < rows.length; k++) {
            await client.query(`UPDATE cards SET position = $1 WHERE id = $2`, [fresh[k] * 2, rows[k].id]);
          }
          return { id: card.id, lane, position: (i + 1) * 2 + 1, board: laneRows[0].board_id };
        }
        const position = positionBetween(before, next);
        await client.query(`UPDATE cards SET lane_id = $1, position = $2 WHERE id = $3`, [lane, position, card.id]);
        return { id: card.id, lane, position, board: laneRows[0].board_id };
      });
      broadcast(moved.board, "card.moved", moved);
      res.json(moved);
    } catch (err) { next(err); }
  });

  return router;
}
