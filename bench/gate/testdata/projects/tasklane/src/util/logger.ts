type Level = "debug" | "info" | "warn" | "error";

const order: Level[] = ["debug", "info", "warn", "error"];
const threshold = order.indexOf((process.env.LOG_LEVEL as Level) ?? "info");

function log(level: Level, message: string, fields: Record<string, unknown> = {}) {
  if (order.indexOf(level) < threshold) return;
  const line = JSON.stringify({ time: new Date().toISOString(), level, message, ...fields });
  (level === "error" ? process.stderr : process.stdout).write(line + "\n");
}

export const logger = {
  debug: (m: string, f?: Record<string, unknown>) => log("debug", m, f),
  info: (m: string, f?: Record<string, unknown>) => log("info", m, f),
  warn: (m: string, f?: Record<string, unknown>) => log("warn", m, f),
  error: (m: string, f?: Record<string, unknown>) => log("error", m, f),
};
