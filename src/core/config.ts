// The environment, read once and validated (decisions section 1).
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export type EnvironmentName = 'production' | 'development';

export interface Config {
  env: EnvironmentName;
  host: string;
  port: number;
  databaseUrl: string;
  workingDir: string;
  uploadsDir: string;
  domain: string;
  secretKey: string;
  modulesFile: string;
  zenodoApiUrl: string | undefined;
  zenodoAccessToken: string | undefined;
  dockerHost: string;
  deployWorkspace: string;
  maxUploadBytes: number;
  /**
   * Longest time a request may take to arrive, headers and body (extensions section 10): a client
   * dripping a body byte by byte, or sending none after its headers, holds no connection for ever.
   * 0: no limit (a proxy in front bounds it).
   */
  requestTimeoutMs: number;
  /** Largest total of the entries `hub import` extracts from one archive (extensions section 11). */
  importMaxBytes: number;
  /** Most features a staged model may have (extensions section 10, limits said at the door). */
  maxFeatures: number;
  logLevel: string;
  /** SMTP server of the account emails (extensions section 5); unset: each message is written to the log. */
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Requests a minute per API token (per address for anonymous API calls), extensions section 3. */
  apiRateLimit: number;
  /** Background analysis workers of this instance (0: this instance analyses nothing, others may). */
  analysisWorkers: number;
  /** Time budget per model analysis, in seconds. */
  analysisTimeoutS: number;
  /** Heavy work (extensions section 10): worker seats for large models, for small ones, and jobs per requester. */
  heavyWorkers: number;
  smallModelWorkers: number;
  heavyJobsPerRequester: number;
  /** The large lane's workers' memory budgets add up to at most this (core/scheduler). */
  heavyMemoryMb: number;
  /** The stored samples' total size kept at most (extensions section 6; 0: no bound); the least recently used go first. */
  sampleStoreMaxBytes: number;
  /** How long the comparison page waits for edit classes before it shows them as being decided (ms). */
  compareWaitMs: number;
  /** Seed an empty database on start (development only). */
  autoSeed: boolean;
  /** The S3-compatible object store of uploads (STORAGE_URL=s3://bucket[/prefix]); unset: the uploads folder. */
  storage: S3Storage | undefined;
  /** Sign-in with ORCID (extensions section 8); unset without ORCID_CLIENT_ID and ORCID_CLIENT_SECRET. */
  orcid: OrcidSettings | undefined;
  /** Import from a URL (extensions section 13). */
  urlImport: UrlImportSettings;
}

export interface UrlImportSettings {
  /** Largest body fetched per URL (a model, an archive or a record's file). */
  maxBytes: number;
  /** Time for one whole fetch, redirects included (ms). */
  timeoutMs: number;
  /** Host names fetched even where their address is not public (lower case; IMPORT_ALLOW_HOSTS, comma separated). */
  allowHosts: string[];
}

export interface OrcidSettings {
  clientId: string;
  clientSecret: string;
  /** The OpenID provider: https://orcid.org unless ORCID_ISSUER names another (http:// only on a loopback address). */
  issuer: string;
}

/** ORCID_* settings: both credentials or neither; an http:// issuer only on loopback (tests run their own provider). */
function orcidFrom(env: Record<string, string | undefined>): OrcidSettings | undefined {
  const clientId = env.ORCID_CLIENT_ID?.trim();
  const clientSecret = env.ORCID_CLIENT_SECRET?.trim();
  if (!clientId && !clientSecret) return undefined;
  if (!clientId || !clientSecret) throw new ConfigError('ORCID sign-in needs both ORCID_CLIENT_ID and ORCID_CLIENT_SECRET.');
  const issuer = env.ORCID_ISSUER?.trim() || 'https://orcid.org';
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new ConfigError(`ORCID_ISSUER is not a URL: "${issuer}".`);
  }
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    throw new ConfigError(`ORCID_ISSUER must be an https:// address (http:// only on a loopback address, for tests): "${issuer}".`);
  }
  return { clientId, clientSecret, issuer: issuer.replace(/\/+$/, '') };
}

export interface S3Storage {
  bucket: string;
  prefix: string;
  endpoint: string | undefined;
  region: string | undefined;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
}

/** `s3://bucket[/prefix]` with the S3_* variables; an empty STORAGE_URL or `local` keeps the uploads folder. */
function storageFrom(env: Record<string, string | undefined>): S3Storage | undefined {
  const raw = env.STORAGE_URL?.trim();
  if (!raw || raw === 'local') return undefined;
  const match = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(raw);
  if (!match) throw new ConfigError(`STORAGE_URL must be s3://<bucket>[/<prefix>], got "${raw}"`);
  const prefix = (match[2] ?? '').replace(/^\/+|\/+$/g, '');
  if (prefix.split('/').some((s) => s === '.' || s === '..') || /\/\//.test(prefix)) {
    throw new ConfigError(`STORAGE_URL has an invalid prefix: "${raw}"`);
  }
  if (env.S3_ENDPOINT && !/^https?:\/\//.test(env.S3_ENDPOINT)) throw new ConfigError(`S3_ENDPOINT must be an http(s) URL, got "${env.S3_ENDPOINT}"`);
  return {
    bucket: match[1]!,
    prefix,
    endpoint: env.S3_ENDPOINT || undefined,
    region: env.S3_REGION || undefined,
    accessKeyId: env.S3_ACCESS_KEY_ID || undefined,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY || undefined,
  };
}

export class ConfigError extends Error {}

/**
 * The folder holding package.json: two levels up from the sources (src/core), three from the
 * compiled build (build/src/core). Views, assets and seed files are always read from src/.
 */
function findProjectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}
const projectRoot = findProjectRoot();

export function projectPath(...parts: string[]): string {
  return resolve(projectRoot, ...parts);
}

function integer(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new ConfigError(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

/** Builds the configuration from an environment map (process.env in production, a plain object in tests). */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const name = env.FLASK_ENV || env.NODE_ENV || 'development';
  const production = name === 'production';
  const workingDir = resolve(env.WORKING_DIR || process.cwd());
  const port = integer('PORT', env.PORT, 5000);
  if (production && !env.SECRET_KEY?.trim()) {
    throw new ConfigError('SECRET_KEY is required in production: it signs sessions and CSRF tokens.');
  }
  return {
    env: production ? 'production' : 'development',
    host: env.HOST || '127.0.0.1',
    port,
    databaseUrl: env.DATABASE_URL || `sqlite:${resolve(workingDir, 'instance', 'hub.sqlite')}`,
    workingDir,
    uploadsDir: env.UPLOADS_DIR || 'uploads',
    domain: env.DOMAIN || (production ? 'localhost' : `localhost:${port}`),
    secretKey: env.SECRET_KEY || randomBytes(32).toString('hex'),
    modulesFile: env.HUB_MODULES_FILE ? resolve(env.HUB_MODULES_FILE) : projectPath('modules.json'),
    zenodoApiUrl: env.ZENODO_API_URL || undefined,
    zenodoAccessToken: env.ZENODO_ACCESS_TOKEN || undefined,
    dockerHost: env.DOCKER_HOST || 'unix:///var/run/docker.sock',
    deployWorkspace: env.DEPLOY_WORKSPACE || '/workspace',
    maxUploadBytes: integer('MAX_UPLOAD_BYTES', env.MAX_UPLOAD_BYTES, 52428800),
    requestTimeoutMs: integer('REQUEST_TIMEOUT_MS', env.REQUEST_TIMEOUT_MS, 300_000),
    importMaxBytes: integer('IMPORT_MAX_BYTES', env.IMPORT_MAX_BYTES, 21474836480),
    maxFeatures: Math.max(1, integer('MAX_FEATURES', env.MAX_FEATURES, 200_000)),
    logLevel: env.LOG_LEVEL || 'info',
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || 'UVL Hub <no-reply@localhost>',
    apiRateLimit: integer('API_RATE_LIMIT', env.API_RATE_LIMIT, 600),
    analysisWorkers: integer('ANALYSIS_WORKERS', env.ANALYSIS_WORKERS, 1),
    analysisTimeoutS: Math.max(1, integer('ANALYSIS_TIMEOUT_S', env.ANALYSIS_TIMEOUT_S, 60)),
    heavyWorkers: Math.max(1, integer('HEAVY_WORKERS', env.HEAVY_WORKERS, 2)),
    smallModelWorkers: Math.max(1, integer('SMALL_MODEL_WORKERS', env.SMALL_MODEL_WORKERS, 1)),
    heavyJobsPerRequester: Math.max(1, integer('HEAVY_JOBS_PER_REQUESTER', env.HEAVY_JOBS_PER_REQUESTER, 4)),
    heavyMemoryMb: Math.max(64, integer('HEAVY_MEMORY_MB', env.HEAVY_MEMORY_MB, 1024)),
    sampleStoreMaxBytes: integer('SAMPLE_STORE_MAX_BYTES', env.SAMPLE_STORE_MAX_BYTES, 2147483648),
    compareWaitMs: integer('COMPARE_WAIT_MS', env.COMPARE_WAIT_MS, 500),
    autoSeed: !production,
    storage: storageFrom(env),
    orcid: orcidFrom(env),
    urlImport: {
      maxBytes: integer('URL_IMPORT_MAX_BYTES', env.URL_IMPORT_MAX_BYTES, 52428800),
      timeoutMs: Math.max(1, integer('URL_IMPORT_TIMEOUT_MS', env.URL_IMPORT_TIMEOUT_MS, 30000)),
      allowHosts: (env.IMPORT_ALLOW_HOSTS ?? '').split(',').map((h) => h.trim().toLowerCase()).filter((h) => h !== ''),
    },
  };
}
