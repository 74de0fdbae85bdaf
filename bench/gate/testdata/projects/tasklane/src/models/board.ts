import { db } from "../db/pool.js";
import { forbidden, notFound } from "../util/errors.js";
import type { Card } from "./card.js";

export interface Lane { id: number; name: string; position: number; cards: Card[] }
export interface Board { id: number; name: string; lanes: Lane[] }

export async function requireMember(boardId: number, userId: number): Promise<void> {
  const { rowCount } = await db().query(`SELECT 1 FROM members WHERE board_id = $1 AND user_id = $2`, [boardId, userId]);
  if (!rowCount) throw forbidden();
}

export async function loadBoard(id: number): Promise<Board> {
  const { rows } = await db().query(`SELECT id, name FROM boards WHERE id = $1`, [id]);
  if (!rows.length) throw notFound("board");
  const lanes = await db().query(`SELECT id, name, position FROM lanes WHERE board_id = $1 ORDER BY position`, [id]);
  const cards = await db().query(
    `SELECT c.* FROM cards c JOIN lanes l ON l.id = c.lane_id WHERE l.board_id = $1 ORDER BY c.position`, [id]);
  return {
    ...rows[0],
    lanes: lanes.rows.map((l) => ({ ...l, cards: cards.rows.filter((c) => c.lane_id === l.id) })),
  };
}
