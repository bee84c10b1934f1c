import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { EnvironmentVariables } from './environment-variables';

export { EnvironmentVariables } from './environment-variables';

export type DatabaseMode = 'embedded' | 'external';

export interface DatabaseTimeouts {
  statementMs: number;
  acquireMs: number;
}

/** A clinic's defaults: no screen waits longer than this on one statement, nor on a free connection. */
export const DEFAULT_DATABASE_TIMEOUTS: DatabaseTimeouts = { statementMs: 15_000, acquireMs: 5_000 };

/** The resolved configuration the application runs with. */
export interface AppConfig {
  env: 'development' | 'production' | 'test';
  port: number;
  dataDir: string;
  databaseMode: DatabaseMode;
  /** Set for external mode; filled in at start-up for embedded mode. */
  databaseUrl?: string;
  /** Deadlines on every database connection: a hung database costs a request a 503, not a hang. */
  databaseTimeouts: DatabaseTimeouts;
  redisUrl?: string;
  jwtSecret: string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  publicUrl: string;
  /**
   * PUBLIC_URL was set. CDS Hooks then checks a client JWT's aud against it and builds card links
   * from it; without it, against `allowedOrigins` and the local addresses (see cds-hooks/service-origins.ts).
   */
  publicUrlConfigured: boolean;
  /** ALLOWED_ORIGINS, as URL origins (lower-case host, no default port). */
  allowedOrigins: string[];
  google?: {
    clientId: string;
    clientSecret: string;
    authorizationURL?: string;
    tokenURL?: string;
    userProfileURL?: string;
  };
  polishLlm?: { url: string; model: string; key?: string; timeoutMs: number };
  queue: { prefix: string; stalledIntervalMs: number };
  rateLimit: { perIp: number; perEmail: number; windowMs: number };
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  /** Browser origins allowed by CORS; none by default in production. */
  corsOrigins: (string | RegExp)[];
  /** Periodic polish catch-up (ms); 0 when off. */
  polishSweepIntervalMs: number;
  bodyLimit: string;
  /** `POST /api/fhir`: one patient's whole record fits; a panel goes through $import. */
  recordsBodyLimit: string;
  /** `POST /api/fhir/$import` with an NDJSON body (a panel); larger panels come by URL. */
  importBodyLimit: string;
  /** IMPORT_ALLOWED_BASES: base URLs (no trailing slash) an $import may fetch from. */
  importAllowedBases: string[];
  importChunkLines: number;
  /** MEASURE_RUN_CHUNK_PATIENTS: patients per committed step of a measure run. */
  measureRunChunkPatients: number;
  /** PANEL_TREND_MAX_PATIENTS (2,000). */
  panelTrendMaxPatients: number;
  /** ECQM_DIR: where the conformance decks are (they may be absent). */
  ecqmDir: string;
  version: string;
  apiProcesses: number;
  workerConcurrency: number;
  /** Express `trust proxy`: whose X-Forwarded-For names the client (rate limits are per client address). */
  trustProxy: string[];
  /** HTTP_ADAPTER: the HTTP framework under Nest; Fastify by default, `express` kept (docs/operations.md#http-adapter). */
  httpAdapter: 'express' | 'fastify';
}

export class ConfigError extends Error {}

/** Validates the environment and resolves defaults; throws ConfigError naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const vars = plainToInstance(EnvironmentVariables, { ...env }, { enableImplicitConversion: false });
  const errors = validateSync(vars, { whitelist: true, forbidUnknownValues: false });
  if (errors.length > 0) {
    const messages = errors.flatMap((e) => Object.values(e.constraints ?? {}).map((m) => `${e.property}: ${m}`));
    throw new ConfigError(`Invalid configuration:\n  ${messages.join('\n  ')}`);
  }
  const apiProcesses = vars.API_PROCESSES ?? 1;
  // PGlite is one process's in-memory database behind a socket (and DATA_DIR is locked to one
  // process); a second API process would need its own copy, and the two would diverge.
  if (apiProcesses > 1 && !vars.DATABASE_URL)
    throw new ConfigError(
      'Invalid configuration:\n  API_PROCESSES: more than 1 needs DATABASE_URL (the embedded database serves one process)',
    );
  // Without Redis, rate limits and the job queue live inside each process and would split.
  if (apiProcesses > 1 && !vars.REDIS_URL)
    throw new ConfigError(
      'Invalid configuration:\n  API_PROCESSES: more than 1 needs REDIS_URL (rate limits and jobs are shared through Redis)',
    );
  const nodeEnv = (vars.NODE_ENV ?? 'development') as AppConfig['env'];
  const dataDir = resolve(vars.DATA_DIR ?? 'data');
  const port = vars.PORT ?? 3000;
  return {
    env: nodeEnv,
    port,
    dataDir,
    databaseMode: vars.DATABASE_URL ? 'external' : 'embedded',
    databaseUrl: vars.DATABASE_URL,
    databaseTimeouts: {
      statementMs: vars.DATABASE_STATEMENT_TIMEOUT_MS ?? DEFAULT_DATABASE_TIMEOUTS.statementMs,
      acquireMs: vars.DATABASE_ACQUIRE_TIMEOUT_MS ?? DEFAULT_DATABASE_TIMEOUTS.acquireMs,
    },
    redisUrl: vars.REDIS_URL,
    jwtSecret: vars.JWT_SECRET ?? persistentSecret(dataDir),
    accessTokenTtlSeconds: 3600,
    refreshTokenTtlSeconds: 30 * 24 * 3600,
    publicUrl: (vars.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
    publicUrlConfigured: vars.PUBLIC_URL !== undefined,
    allowedOrigins: originsOf(vars.ALLOWED_ORIGINS, 'ALLOWED_ORIGINS'),
    google: vars.GOOGLE_CLIENT_ID
      ? {
          clientId: vars.GOOGLE_CLIENT_ID,
          clientSecret: vars.GOOGLE_CLIENT_SECRET!,
          authorizationURL: vars.GOOGLE_AUTH_URL,
          tokenURL: vars.GOOGLE_TOKEN_URL,
          userProfileURL: vars.GOOGLE_USERINFO_URL,
        }
      : undefined,
    polishLlm: vars.POLISH_LLM_URL
      ? {
          url: vars.POLISH_LLM_URL,
          model: vars.POLISH_LLM_MODEL ?? 'gpt-4o-mini',
          key: vars.POLISH_LLM_KEY,
          timeoutMs: vars.POLISH_LLM_TIMEOUT_MS ?? 5000,
        }
      : undefined,
    queue: { prefix: vars.QUEUE_PREFIX ?? 'cds', stalledIntervalMs: vars.QUEUE_STALLED_INTERVAL_MS ?? 30_000 },
    rateLimit: {
      perIp: vars.AUTH_RATE_LIMIT_PER_IP ?? 60,
      perEmail: vars.AUTH_RATE_LIMIT_PER_EMAIL ?? 10,
      windowMs: 15 * 60 * 1000,
    },
    logLevel: (vars.LOG_LEVEL ?? (nodeEnv === 'test' ? 'warn' : 'info')) as AppConfig['logLevel'],
    corsOrigins: vars.CORS_ORIGINS
      ? vars.CORS_ORIGINS.split(',').map((o) => o.trim().replace(/\/$/, ''))
      : nodeEnv === 'production'
        ? []
        : [/^http:\/\/localhost:\d+$/, /^http:\/\/127\.0\.0\.1:\d+$/],
    polishSweepIntervalMs: vars.POLISH_SWEEP_INTERVAL_MS ?? 5 * 60_000,
    bodyLimit: '100kb',
    recordsBodyLimit: '10mb',
    importBodyLimit: `${vars.IMPORT_BODY_LIMIT_MB ?? 100}mb`,
    importAllowedBases: (vars.IMPORT_ALLOWED_BASES ?? '')
      .split(',')
      .map((b) => b.trim().replace(/\/+$/, ''))
      .filter(Boolean),
    importChunkLines: vars.IMPORT_CHUNK_LINES ?? 1000,
    measureRunChunkPatients: vars.MEASURE_RUN_CHUNK_PATIENTS ?? 500,
    panelTrendMaxPatients: vars.PANEL_TREND_MAX_PATIENTS ?? 2000,
    ecqmDir: vars.ECQM_DIR ?? join(__dirname, '..', '..', '..', '..', 'shared', 'conformance', 'ecqm-2024'),
    version: readVersion(),
    apiProcesses,
    workerConcurrency: vars.WORKER_CONCURRENCY ?? 4,
    trustProxy: (vars.TRUST_PROXY ?? 'loopback').split(',').map((p) => p.trim()),
    httpAdapter: (vars.HTTP_ADAPTER ?? 'fastify') as AppConfig['httpAdapter'],
  };
}

/**
 * DATA_DIR when the product will run on the embedded database (no DATABASE_URL), read without
 * validating or writing anything: main.ts locks it before loadConfig writes the JWT secret there.
 */
export function embeddedDataDirOf(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env.DATABASE_URL ? undefined : resolve(env.DATA_DIR || 'data');
}

/** A comma-separated list of origins, normalised as the URL standard does (lower-case host, no default port). */
function originsOf(list: string | undefined, variable: string): string[] {
  if (!list) return [];
  return [
    ...new Set(
      list.split(',').map((o) => {
        try {
          return new URL(o.trim()).origin;
        } catch {
          throw new ConfigError(
            `Invalid configuration:\n  ${variable}: ${o.trim()} is not an origin such as https://cds.clinic.example.org`,
          );
        }
      }),
    ),
  ];
}

/** Embedded mode keeps one generated secret under DATA_DIR so sessions survive a restart. */
function persistentSecret(dataDir: string): string {
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

function readVersion(): string {
  try {
    return JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')).version as string;
  } catch {
    return 'unknown';
  }
}

export const APP_CONFIG = Symbol('APP_CONFIG');
