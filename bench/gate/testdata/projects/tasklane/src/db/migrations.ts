import { connect, db } from "./pool.js";
import { loadConfig } from "../config.js";

// Each migration runs once, in order; schema_migrations records the applied ones.
const migrations: string[] = [
  `CREATE TABLE users (id SERIAL PRIMARY KEY, email TEXT UNIQUE NOT NULL, password_hash TEXT NOT NULL)`,
  `CREATE TABLE boards (id SERIAL PRIMARY KEY, name TEXT NOT NULL, owner_id INT REFERENCES users(id))`,
  `CREATE TABLE members (board_id INT REFERENCES boards(id), user_id INT REFERENCES users(id), PRIMARY KEY (board_id, user_id))`,
  `CREATE TABLE lanes (id SERIAL PRIMARY KEY, board_id INT REFERENCES boards(id), name TEXT NOT NULL, position DOUBLE PRECISION NOT NULL)`,
  `CREATE TABLE cards (id SERIAL PRIMARY KEY, lane_id INT REFERENCES lanes(id), title TEXT NOT NULL, description TEXT DEFAULT '', assignee_id INT, position DOUBLE PRECISION NOT NULL, version INT NOT NULL DEFAULT 1)`,
  `CREATE INDEX cards_lane_position ON cards (lane_id, position)`,
];

export async function migrate(): Promise<number> {
  await db().query(`CREATE TABLE IF NOT EXISTS schema_migrations (n INT PRIMARY KEY)`);
  const { rows } = await db().query(`SELECT COALESCE(MAX(n), -1) AS last FROM schema_migrations`);
  let applied = 0;
  for (let n = rows[0].last + 1; n < migrations.length; n++) {
    await db().query(migrations[n]);
    await db().query(`INSERT INTO schema_migrations (n) VALUES ($1)`, [n]);
    applied++;
  }
  return applied;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  connect(loadConfig().databaseUrl);
  migrate().then((n) => console.log(`${n} migrations applied`));
}
