import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const defaultWebDist = fileURLToPath(new URL('../../web/dist', import.meta.url));

const ZEnv = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  PUBLIC_URL: z.url().optional(),
  PROJECT_ID: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, _ and - only').default('fieldassist'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.url().optional(),
  DB_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  SERVICE_KEY: z.string().min(24, 'at least 24 characters').optional(),
  APP_ORIGINS: z.string().optional(),
  REST_MAX_ROWS: z.coerce.number().int().min(1).default(10_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().default(defaultWebDist),
});

export interface Config {
  env: 'development' | 'test' | 'production';
  port: number;
  host: string;
  /** The origin people reach this server at; links and the default CORS origin use it. */
  publicUrl: string;
  projectId: string;
  dataDir: string;
  /** Unset: the embedded PostgreSQL in dataDir/pg. */
  databaseUrl?: string;
  dbPoolMax: number;
  /** Unset: generated into dataDir on first start (see data-dir.ts). */
  serviceKey?: string;
  appOrigins: string[];
  restMaxRows: number;
  logLevel: string;
  webDist: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Parses the environment once; throws ConfigError listing every problem. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const blankToUndefined = Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v === '' ? undefined : v]));
  const parsed = ZEnv.safeParse(blankToUndefined);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const e = parsed.data;
  const publicUrl = (e.PUBLIC_URL ?? `http://${e.HOST === '0.0.0.0' ? 'localhost' : e.HOST}:${e.PORT}`).replace(/\/$/, '');
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    projectId: e.PROJECT_ID,
    dataDir: resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    dbPoolMax: e.DB_POOL_MAX,
    serviceKey: e.SERVICE_KEY,
    appOrigins: e.APP_ORIGINS ? e.APP_ORIGINS.split(',').map((o) => o.trim()).filter(Boolean) : [new URL(publicUrl).origin],
    restMaxRows: e.REST_MAX_ROWS,
    logLevel: e.LOG_LEVEL,
    webDist: resolve(e.WEB_DIST),
  };
}
