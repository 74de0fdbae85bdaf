import pg from "pg";
import { logger } from "../util/logger.js";

let pool: pg.Pool | undefined;

export function connect(url: string): pg.Pool {
  pool = new pg.Pool({ connectionString: url, max: 10, idleTimeoutMillis: 30_000 });
  pool.on("error", (err) => logger.error("idle client error", { err }));
  return pool;
}

export function db(): pg.Pool {
  if (!pool) throw new Error("database pool used before connect()");
  return pool;
}

// inTransaction runs fn in one transaction, rolled back if it throws.
export async function inTransaction<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await db().connect();
  try {
    await client.query("BEGIN");
    const result = await fn(client);
    await client.query("COMMIT");
    return result;
  } catch (err) {
    await client.query("ROLLBACK");
    throw err;
  } finally {
    client.release();
  }
}
