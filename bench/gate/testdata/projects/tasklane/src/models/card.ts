import type pg from "pg";
import { db } from "../db/pool.js";
import { HttpError, notFound } from "../util/errors.js";

export interface Card {
  id: number;
  lane_id: number;
  title: string;
  description: string;
  assignee_id: number | null;
  position: number;
  version: number;
}

export async function getCard(id: number, client: pg.PoolClient | pg.Pool = db()): Promise<Card> {
  const { rows } = await client.query(`SELECT * FROM cards WHERE id = $1`, [id]);
  if (!rows.length) throw notFound("card");
  return rows[0];
}

// updateCard applies an edit only if the card is still at the version the
// client saw; otherwise someone else edited it first and the client gets 409.
export async function updateCard(id: number, version: number, fields: Partial<Pick<Card, "title" | "description" | "assignee_id">>): Promise<Card> {
  const { rows } = await db().query(
    `UPDATE cards SET title = COALESCE($3, title), description = COALESCE($4, description),
       assignee_id = COALESCE($5, assignee_id), version = version + 1
     WHERE id = $1 AND version = $2 RETURNING *`,
    [id, version, fields.title, fields.description, fields.assignee_id]);
  if (!rows.length) {
    await getCard(id);
    throw new HttpError(409, "conflict", "the card was changed by someone else; reload it");
  }
  return rows[0];
}
