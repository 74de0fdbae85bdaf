import express from "express";
import { createServer } from "node:http";
import { loadConfig } from "./config.js";
import { connect } from "./db/pool.js";
import { requireAuth } from "./middleware/auth.js";
import { rateLimit } from "./middleware/rateLimit.js";
import { authRoutes } from "./routes/auth.js";
import { boardRoutes } from "./routes/boards.js";
import { cardRoutes } from "./routes/cards.js";
import { attach } from "./services/notifications.js";
import { errorHandler } from "./util/errors.js";
import { logger } from "./util/logger.js";

const config = loadConfig();
connect(config.databaseUrl);

const app = express();
app.use(express.json({ limit: "100kb" }));
app.use(rateLimit(config.rateLimitPerMinute));
app.use(authRoutes(config.jwtSecret, config.tokenTtlSeconds));
app.use(requireAuth(config.jwtSecret));
app.use(boardRoutes());
app.use(cardRoutes());
app.use(errorHandler);

const server = createServer(app);
attach(server);
server.listen(config.port, () => logger.info("listening", { port: config.port }));
