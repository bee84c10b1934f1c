import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, IsUrl, Matches, Max, Min, MinLength, ValidateIf } from 'class-validator';

const toInt = ({ value }: { value: unknown }) => (value === undefined || value === '' ? undefined : Number(value));
const emptyToUndefined = ({ value }: { value: unknown }) => (value === '' ? undefined : value);

/**
 * Every environment variable the product reads, validated once at start-up.
 * Nothing else in the code base reads process.env.
 */
export class EnvironmentVariables {
  @IsOptional()
  @IsIn(['development', 'production', 'test'])
  NODE_ENV?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/.+/, { message: 'DATABASE_URL must be a postgres:// connection URL' })
  DATABASE_URL?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^rediss?:\/\/.+/, { message: 'REDIS_URL must be a redis:// connection URL' })
  REDIS_URL?: string;

  @Transform(toInt)
  @IsOptional()
  @IsInt({ message: 'PORT must be an integer' })
  @Min(0)
  @Max(65535)
  PORT?: number;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  DATA_DIR?: string;

  // Production must not silently generate a secret that differs per process.
  @Transform(emptyToUndefined)
  @ValidateIf((env: EnvironmentVariables) => env.NODE_ENV === 'production' || env.JWT_SECRET !== undefined)
  @IsString({ message: 'JWT_SECRET is required when NODE_ENV=production' })
  @MinLength(32, { message: 'JWT_SECRET must be at least 32 characters' })
  JWT_SECRET?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  GOOGLE_CLIENT_ID?: string;

  @Transform(emptyToUndefined)
  @ValidateIf((env: EnvironmentVariables) => env.GOOGLE_CLIENT_ID !== undefined)
  @IsString({ message: 'GOOGLE_CLIENT_SECRET is required when GOOGLE_CLIENT_ID is set' })
  GOOGLE_CLIENT_SECRET?: string;

  /** Overrides for a non-Google OpenID provider (and for tests against a local one). */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl({ require_tld: false }, { message: 'GOOGLE_AUTH_URL must be a URL' })
  GOOGLE_AUTH_URL?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl({ require_tld: false }, { message: 'GOOGLE_TOKEN_URL must be a URL' })
  GOOGLE_TOKEN_URL?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl({ require_tld: false }, { message: 'GOOGLE_USERINFO_URL must be a URL' })
  GOOGLE_USERINFO_URL?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl({ require_tld: false }, { message: 'PUBLIC_URL must be a URL' })
  PUBLIC_URL?: string;

  /**
   * Without PUBLIC_URL: the other origins (scheme://host[:port]) this server is reached at, besides
   * http://localhost:$PORT and http://127.0.0.1:$PORT. A CDS Hooks client JWT's aud must name one of them.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^\s*https?:\/\/[^/\s,]+\/?\s*(,\s*https?:\/\/[^/\s,]+\/?\s*)*$/, {
    message: 'ALLOWED_ORIGINS must be a comma-separated list of origins such as https://cds.clinic.example.org',
  })
  ALLOWED_ORIGINS?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl({ require_tld: false }, { message: 'POLISH_LLM_URL must be a URL' })
  POLISH_LLM_URL?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  POLISH_LLM_MODEL?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  POLISH_LLM_KEY?: string;

  @Transform(toInt)
  @IsOptional()
  @IsInt({ message: 'POLISH_LLM_TIMEOUT_MS must be an integer' })
  @Min(100)
  @Max(120000)
  POLISH_LLM_TIMEOUT_MS?: number;

  /** Namespaces the BullMQ keys in Redis, so several deployments (or test runs) can share one server. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]{1,40}$/, { message: 'QUEUE_PREFIX must be 1-40 letters, digits, _ or -' })
  QUEUE_PREFIX?: string;

  /** How soon a job whose worker died is noticed and handed to another worker (also the lock duration). */
  @Transform(toInt)
  @IsOptional()
  @IsInt({ message: 'QUEUE_STALLED_INTERVAL_MS must be an integer' })
  @Min(500)
  @Max(600000)
  QUEUE_STALLED_INTERVAL_MS?: number;

  @Transform(toInt)
  @IsOptional()
  @IsInt({ message: 'AUTH_RATE_LIMIT_PER_IP must be an integer' })
  @Min(1)
  AUTH_RATE_LIMIT_PER_IP?: number;

  @Transform(toInt)
  @IsOptional()
  @IsInt({ message: 'AUTH_RATE_LIMIT_PER_EMAIL must be an integer' })
  @Min(1)
  AUTH_RATE_LIMIT_PER_EMAIL?: number;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsIn(['debug', 'info', 'warn', 'error', 'silent'])
  LOG_LEVEL?: string;

  /** Comma-separated origins (scheme://host[:port]) whose pages may call the API from a browser. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^\s*https?:\/\/[^/\s,]+\s*(,\s*https?:\/\/[^/\s,]+\s*)*$/, {
    message: 'CORS_ORIGINS must be a comma-separated list of origins such as https://clinic.example.org',
  })
  CORS_ORIGINS?: string;

  /** API processes `npm start` runs (node:cluster, one port). Above 1 needs DATABASE_URL and REDIS_URL. */
  @Transform(toInt)
  @IsOptional()
  @IsInt({ message: 'API_PROCESSES must be an integer' })
  @Min(1, { message: 'API_PROCESSES must be at least 1' })
  @Max(64, { message: 'API_PROCESSES must be at most 64' })
  API_PROCESSES?: number;

  /** Jobs one worker process runs at once. */
  @Transform(toInt)
  @IsOptional()
  @IsInt({ message: 'WORKER_CONCURRENCY must be an integer' })
  @Min(1, { message: 'WORKER_CONCURRENCY must be at least 1' })
  @Max(256, { message: 'WORKER_CONCURRENCY must be at most 256' })
  WORKER_CONCURRENCY?: number;

  /** Which hops' X-Forwarded-For to believe for the client address (Express `trust proxy`). */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^(loopback|linklocal|uniquelocal|[0-9a-fA-F.:/]+)(\s*,\s*(loopback|linklocal|uniquelocal|[0-9a-fA-F.:/]+))*$/, {
    message: 'TRUST_PROXY must be a comma-separated list of loopback, linklocal, uniquelocal or IP addresses/CIDR ranges',
  })
  TRUST_PROXY?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsIn(['express', 'fastify'])
  HTTP_ADAPTER?: string;

  /**
   * Longest one SQL statement may run (PostgreSQL's statement_timeout, and the driver's own deadline a
   * little later, for a server that stopped answering altogether).
   */
  @Transform(toInt)
  @IsOptional()
  @IsInt({ message: 'DATABASE_STATEMENT_TIMEOUT_MS must be an integer' })
  @Min(100, { message: 'DATABASE_STATEMENT_TIMEOUT_MS must be at least 100' })
  @Max(600_000, { message: 'DATABASE_STATEMENT_TIMEOUT_MS must be at most 600000' })
  DATABASE_STATEMENT_TIMEOUT_MS?: number;

  /** Longest a request waits for a pooled connection (or for a new one to open). */
  @Transform(toInt)
  @IsOptional()
  @IsInt({ message: 'DATABASE_ACQUIRE_TIMEOUT_MS must be an integer' })
  @Min(100, { message: 'DATABASE_ACQUIRE_TIMEOUT_MS must be at least 100' })
  @Max(120_000, { message: 'DATABASE_ACQUIRE_TIMEOUT_MS must be at most 120000' })
  DATABASE_ACQUIRE_TIMEOUT_MS?: number;

  /** How often the worker re-queues parameters whose question is missing or out of date (0 turns it off). */
  @Transform(toInt)
  @IsOptional()
  @IsInt({ message: 'POLISH_SWEEP_INTERVAL_MS must be an integer' })
  @ValidateIf((env: EnvironmentVariables) => env.POLISH_SWEEP_INTERVAL_MS !== 0)
  @Min(10_000, { message: 'POLISH_SWEEP_INTERVAL_MS must be 0 (off) or at least 10000' })
  @Max(86_400_000)
  POLISH_SWEEP_INTERVAL_MS?: number;

  /**
   * The FHIR servers (base URLs) `POST /api/fhir/$import` may fetch NDJSON from; anything else is refused
   * before it is fetched, so an import cannot be pointed at internal addresses.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^\s*https?:\/\/[^\s,]+\s*(,\s*https?:\/\/[^\s,]+\s*)*$/, {
    message: 'IMPORT_ALLOWED_BASES must be a comma-separated list of http(s) base URLs such as https://fhir.clinic.example.org/r4',
  })
  IMPORT_ALLOWED_BASES?: string;

  /** Lines of an NDJSON import staged, validated and committed together (a restart redoes at most one chunk). */
  @Transform(toInt)
  @IsOptional()
  @IsInt({ message: 'IMPORT_CHUNK_LINES must be an integer' })
  @Min(1, { message: 'IMPORT_CHUNK_LINES must be at least 1' })
  @Max(10_000, { message: 'IMPORT_CHUNK_LINES must be at most 10000' })
  IMPORT_CHUNK_LINES?: number;

  /** Patients a measure run evaluates and commits together (a restart redoes at most one chunk). */
  @Transform(toInt)
  @IsOptional()
  @IsInt({ message: 'MEASURE_RUN_CHUNK_PATIENTS must be an integer' })
  @Min(1, { message: 'MEASURE_RUN_CHUNK_PATIENTS must be at least 1' })
  @Max(10_000, { message: 'MEASURE_RUN_CHUNK_PATIENTS must be at most 10000' })
  MEASURE_RUN_CHUNK_PATIENTS?: number;

  /** The largest panel whose score by month is computed on request where stored results are missing (larger ones read a run's). */
  @Transform(toInt)
  @IsOptional()
  @IsInt({ message: 'PANEL_TREND_MAX_PATIENTS must be an integer' })
  @Min(0, { message: 'PANEL_TREND_MAX_PATIENTS must be at least 0' })
  PANEL_TREND_MAX_PATIENTS?: number;

  /** The official eCQM test decks the admin console's conformance tab runs (default: ../shared/conformance/ecqm-2024 beside the repository). */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString({ message: 'ECQM_DIR must be a directory path' })
  ECQM_DIR?: string;

  /** Largest NDJSON upload to `POST /api/fhir/$import`, and largest file fetched per URL input (MB). */
  @Transform(toInt)
  @IsOptional()
  @IsInt({ message: 'IMPORT_BODY_LIMIT_MB must be an integer' })
  @Min(1, { message: 'IMPORT_BODY_LIMIT_MB must be at least 1' })
  @Max(1024, { message: 'IMPORT_BODY_LIMIT_MB must be at most 1024' })
  IMPORT_BODY_LIMIT_MB?: number;
}
