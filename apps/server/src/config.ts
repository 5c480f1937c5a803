import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { S3Options } from './storage/s3.js';

const defaultWebDist = fileURLToPath(new URL('../../web/dist', import.meta.url));

const ZEnv = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  PUBLIC_URL: z.url().optional(),
  PROJECT_ID: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, _ and - only')
    .default('fieldassist'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.url().optional(),
  DB_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  SERVICE_KEY: z.string().min(24, 'at least 24 characters').optional(),
  APP_ORIGINS: z.string().optional(),
  AUTH_SECRET: z.string().min(32, 'at least 32 characters').optional(),
  SIGNUP_MODE: z.enum(['invite', 'open']).default('invite'),
  ADMIN_EMAILS: z.string().optional(),
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'an smtp:// or smtps:// URL' }).optional(),
  SMTP_FROM: z.string().default('FieldAssist <noreply@localhost>'),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  GITHUB_CLIENT_ID: z.string().optional(),
  GITHUB_CLIENT_SECRET: z.string().optional(),
  APPLE_CLIENT_ID: z.string().optional(),
  APPLE_CLIENT_SECRET: z.string().optional(),
  MICROSOFT_CLIENT_ID: z.string().optional(),
  MICROSOFT_CLIENT_SECRET: z.string().optional(),
  OIDC_ISSUER: z.url().optional(),
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  OIDC_NAME: z.string().default('Single sign-on'),
  AI_BASE_URL: z.url().optional(),
  AI_API_KEY: z.string().optional(),
  AI_MODEL: z.string().default('gpt-4.1-mini'),
  AI_IMAGE_MODEL: z.string().default('gpt-image-1'),
  AI_SPEECH_MODEL: z.string().default('gpt-4o-mini-tts'),
  AI_TRANSCRIBE_MODEL: z.string().default('whisper-1'),
  AI_TIMEOUT_MS: z.coerce.number().int().min(1000).default(120_000),
  AI_MAX_OUTPUT_TOKENS: z.coerce.number().int().min(1).max(100_000).default(2000),
  AI_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  REDIS_URL: z.url({ protocol: /^rediss?$/, error: 'a redis:// or rediss:// URL' }).optional(),
  S3_ENDPOINT: z.url().optional(),
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  EXTRACT_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(1),
  EXTRACT_TIMEOUT_MS: z.coerce.number().int().min(1000).default(60_000),
  EXTRACT_MAX_MEMORY_MB: z.coerce.number().int().min(64).default(512),
  OCR_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(1),
  OCR_TIMEOUT_MS: z.coerce.number().int().min(1000).default(30_000),
  EMBEDDINGS: z.enum(['on', 'off']).default('on'),
  EMBED_TIMEOUT_MS: z.coerce.number().int().min(1000).default(60_000),
  EMBED_INDEX_WORKERS: z.coerce.number().int().min(1).max(8).default(1),
  SEARCH_URL: z.url({ protocol: /^https?$/, error: 'an http:// or https:// URL' }).optional(),
  DATA_FETCH_TIMEOUT_MS: z.coerce.number().int().min(1000).default(30_000),
  DATA_FETCH_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(10 * 1024 * 1024),
  DATA_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  CHROMIUM_PATH: z.string().min(1).default('/usr/bin/chromium'),
  SCREENSHOT_TIMEOUT_MS: z.coerce.number().int().min(1000).default(30_000),
  SCREENSHOT_CONCURRENCY: z.coerce.number().int().min(1).max(4).default(1),
  REST_MAX_ROWS: z.coerce.number().int().min(1).default(10_000),
  TRUST_PROXY: z
    .string()
    .regex(/^[\w.:/,\s]+$/, 'true, or comma-separated proxy addresses, CIDR ranges or loopback, linklocal, uniquelocal')
    .optional(),
  METRICS_TOKEN: z.string().min(16, 'at least 16 characters').optional(),
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
  /** Unset: generated into dataDir on first start; signs access tokens. */
  authSecret?: string;
  /** invite: after the first account, only emails an admin added may sign up. */
  signupMode: 'invite' | 'open';
  adminEmails: string[];
  smtpUrl?: string;
  smtpFrom: string;
  /** OAuth providers with both a client id and secret; `oidc` is the company's own provider. */
  oauth: Partial<Record<OAuthProviderName, { clientId: string; clientSecret: string }>>;
  oidc?: { issuer: string; clientId: string; clientSecret: string; name: string };
  /** Unset: the local provider (answers from the manuals, no network). Else any OpenAI-compatible server. */
  aiBaseUrl?: string;
  aiApiKey?: string;
  aiModel: string;
  aiImageModel: string;
  aiSpeechModel: string;
  aiTranscribeModel: string;
  aiTimeoutMs: number;
  /** The default and the ceiling of a call's output tokens (SPEC.md: 2000). */
  aiMaxOutputTokens: number;
  aiRateLimitPerMinute: number;
  /** Set: realtime channels, presence and history are shared by every instance through this Redis. */
  redisUrl?: string;
  /** Set (S3_BUCKET): stored files go to that bucket instead of DATA_DIR/storage. */
  s3?: S3Options;
  /** Document extraction: worker threads at once, and each job's time and heap limits. */
  extractConcurrency: number;
  extractTimeoutMs: number;
  extractMaxMemoryMb: number;
  /** OCR of chat photos and scanned pages: worker threads at once, and each photo's or page's time limit. */
  ocrConcurrency: number;
  ocrTimeoutMs: number;
  /** Semantic search: chunk and question embeddings in worker threads ('off': full text alone). */
  embeddings: boolean;
  embedTimeoutMs: number;
  /** Worker threads that embed manuals' chunks in the background, a batch each at once. */
  embedIndexWorkers: number;
  /** Data API (scrape, fetch, screenshot, search). Unset searchUrl: search answers 503. */
  searchUrl?: string;
  dataFetchTimeoutMs: number;
  dataFetchMaxBytes: number;
  dataRateLimitPerMinute: number;
  chromiumPath: string;
  screenshotTimeoutMs: number;
  screenshotConcurrency: number;
  restMaxRows: number;
  /** Behind a reverse proxy: whose X-Forwarded-For to believe (Fastify's trustProxy), so client addresses are real. */
  trustProxy: boolean | string;
  /** A bearer token for GET /metrics (the service key works too); lets Prometheus scrape without the service key. */
  metricsToken?: string;
  logLevel: string;
  webDist: string;
}

export type OAuthProviderName = 'google' | 'github' | 'apple' | 'microsoft';

/** Config with the secrets that prepareDataDir fills in when the environment leaves them unset. */
export type ResolvedConfig = Config & { serviceKey: string; authSecret: string };

const list = (value?: string) =>
  value
    ? value
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean)
    : [];

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** loadConfig for a process's entry point: a bad setting is printed, listing every problem, and the process exits 1. */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
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
  const publicUrl = (e.PUBLIC_URL ?? `http://${e.HOST === '0.0.0.0' ? 'localhost' : e.HOST}:${e.PORT}`).replace(
    /\/$/,
    '',
  );
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
    appOrigins: e.APP_ORIGINS ? list(e.APP_ORIGINS) : [new URL(publicUrl).origin],
    authSecret: e.AUTH_SECRET,
    signupMode: e.SIGNUP_MODE,
    adminEmails: list(e.ADMIN_EMAILS).map((email) => email.toLowerCase()),
    smtpUrl: e.SMTP_URL,
    smtpFrom: e.SMTP_FROM,
    oauth: Object.fromEntries(
      (['google', 'github', 'apple', 'microsoft'] as const).flatMap((name) => {
        const id = e[`${name.toUpperCase() as Uppercase<OAuthProviderName>}_CLIENT_ID`];
        const secret = e[`${name.toUpperCase() as Uppercase<OAuthProviderName>}_CLIENT_SECRET`];
        return id && secret ? [[name, { clientId: id, clientSecret: secret }]] : [];
      }),
    ),
    oidc:
      e.OIDC_ISSUER && e.OIDC_CLIENT_ID && e.OIDC_CLIENT_SECRET
        ? { issuer: e.OIDC_ISSUER, clientId: e.OIDC_CLIENT_ID, clientSecret: e.OIDC_CLIENT_SECRET, name: e.OIDC_NAME }
        : undefined,
    aiBaseUrl: e.AI_BASE_URL,
    aiApiKey: e.AI_API_KEY,
    aiModel: e.AI_MODEL,
    aiImageModel: e.AI_IMAGE_MODEL,
    aiSpeechModel: e.AI_SPEECH_MODEL,
    aiTranscribeModel: e.AI_TRANSCRIBE_MODEL,
    aiTimeoutMs: e.AI_TIMEOUT_MS,
    aiMaxOutputTokens: e.AI_MAX_OUTPUT_TOKENS,
    aiRateLimitPerMinute: e.AI_RATE_LIMIT_PER_MINUTE,
    redisUrl: e.REDIS_URL,
    s3: e.S3_BUCKET
      ? {
          endpoint: e.S3_ENDPOINT,
          bucket: e.S3_BUCKET,
          region: e.S3_REGION,
          forcePathStyle: e.S3_FORCE_PATH_STYLE,
          accessKeyId: e.S3_ACCESS_KEY_ID,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY,
        }
      : undefined,
    extractConcurrency: e.EXTRACT_CONCURRENCY,
    extractTimeoutMs: e.EXTRACT_TIMEOUT_MS,
    extractMaxMemoryMb: e.EXTRACT_MAX_MEMORY_MB,
    ocrConcurrency: e.OCR_CONCURRENCY,
    ocrTimeoutMs: e.OCR_TIMEOUT_MS,
    embeddings: e.EMBEDDINGS === 'on',
    embedTimeoutMs: e.EMBED_TIMEOUT_MS,
    embedIndexWorkers: e.EMBED_INDEX_WORKERS,
    searchUrl: e.SEARCH_URL?.replace(/\/$/, ''),
    dataFetchTimeoutMs: e.DATA_FETCH_TIMEOUT_MS,
    dataFetchMaxBytes: e.DATA_FETCH_MAX_BYTES,
    dataRateLimitPerMinute: e.DATA_RATE_LIMIT_PER_MINUTE,
    chromiumPath: e.CHROMIUM_PATH,
    screenshotTimeoutMs: e.SCREENSHOT_TIMEOUT_MS,
    screenshotConcurrency: e.SCREENSHOT_CONCURRENCY,
    restMaxRows: e.REST_MAX_ROWS,
    trustProxy: e.TRUST_PROXY === undefined ? false : e.TRUST_PROXY === 'true' || list(e.TRUST_PROXY).join(','),
    metricsToken: e.METRICS_TOKEN,
    logLevel: e.LOG_LEVEL,
    webDist: resolve(e.WEB_DIST),
  };
}
