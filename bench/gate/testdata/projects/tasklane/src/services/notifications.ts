import type { Server } from "node:http";
import { WebSocketServer, WebSocket } from "ws";
import { logger } from "../util/logger.js";

// Browsers viewing a board subscribe to it; every change to the board is
// broadcast to them as { type, boardId, payload }.
const subscribers = new Map<number, Set<WebSocket>>();

export function attach(server: Server) {
  const wss = new WebSocketServer({ server, path: "/live" });
  wss.on("connection", (socket, req) => {
    const boardId = Number(new URL(req.url ?? "", "http://x").searchParams.get("board"));
    if (!boardId) return socket.close(1008, "board query parameter required");
    const set = subscribers.get(boardId) ?? new Set();
    set.add(socket);
    subscribers.set(boardId, set);
    socket.on("close", () => set.delete(socket));
  });
}

export function broadcast(boardId: number, type: string, payload: unknown) {
  const message = JSON.stringify({ type, boardId, payload });
  for (const socket of subscribers.get(boardId) ?? []) {
    if (socket.readyState === WebSocket.OPEN) socket.send(message);
    else logger.debug("skipping closed socket", { boardId });
  }
}
