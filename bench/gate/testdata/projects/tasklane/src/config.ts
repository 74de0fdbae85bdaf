export interface Config {
  port: number;
  databaseUrl: string;
  jwtSecret: string;
  tokenTtlSeconds: number;
  rateLimitPerMinute: number;
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) {
    throw new Error(`${name} is not set; see README.md`);
  }
  return value;
}

export function loadConfig(): Config {
  return {
    port: Number(process.env.PORT ?? 8080),
    databaseUrl: required("DATABASE_URL"),
    jwtSecret: required("JWT_SECRET"),
    tokenTtlSeconds: Number(process.env.TOKEN_TTL_SECONDS ?? 12 * 3600),
    rateLimitPerMinute: Number(process.env.RATE_LIMIT_PER_MINUTE ?? 120),
  };
}
