import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { z } from 'zod';
import { FEATURE_FLAGS, type FeatureFlags } from '../shared/constants';

// One typed config object from the environment. Everything else receives it; nothing reads
// process.env on its own, so tests can build an app with any config they like.

const bool = <F extends boolean | undefined>(name: string, fallback: F) =>
  z
    .string()
    .optional()
    .transform((v, ctx): boolean | F => {
      if (v === undefined || v === '') return fallback;
      if (/^(1|true|yes|on)$/i.test(v)) return true;
      if (/^(0|false|no|off)$/i.test(v)) return false;
      ctx.addIssue({ code: 'custom', message: `${name} must be true or false, got "${v}"` });
      return z.NEVER;
    });

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  // A streaming replica of DATABASE_URL for public reads (server/db/replica.ts), and the lag
  // beyond which they go to the primary again.
  DATABASE_REPLICA_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional()
    .or(z.literal('')),
  DATABASE_REPLICA_MAX_LAG_SECONDS: z.coerce.number().positive().max(3600).default(5),
  DATA_DIR: z.string().default('data'),
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  SITE_NAME: z.string().min(1).default('The Toronto Guide'),
  SITE_URL: z.string().url().optional(),
  CITY_NAME: z.string().default('Toronto'),
  CITY_SLUG: z.string().default('toronto'),
  CITY_LATITUDE: z.coerce.number().min(-90).max(90).default(43.6532),
  CITY_LONGITUDE: z.coerce.number().min(-180).max(180).default(-79.3832),
  CITY_PROVINCE: z.string().default('ON'),
  COUNTRY_NAME: z.string().default('Canada'),
  COUNTRY_CODE: z.string().length(2).default('CA'),
  TIME_ZONE: z.string().default('Canada/Eastern'),
  START_YEAR: z.coerce.number().int().min(1900).max(2100).default(2004),
  FEATURE_LISTINGS: bool('FEATURE_LISTINGS', true),
  FEATURE_EVENTS: bool('FEATURE_EVENTS', true),
  FEATURE_CONTESTS: bool('FEATURE_CONTESTS', true),
  FEATURE_VIDEOS: bool('FEATURE_VIDEOS', true),
  FEATURE_BEST_OF: bool('FEATURE_BEST_OF', true),
  FEATURE_PHOTO_CHALLENGES: bool('FEATURE_PHOTO_CHALLENGES', true),
  FEATURE_PATIO_GUIDE: bool('FEATURE_PATIO_GUIDE', true),
  FEATURE_PHOTO_UPLOAD: bool('FEATURE_PHOTO_UPLOAD', true),
  FEATURE_NEWS_ONLY: bool('FEATURE_NEWS_ONLY', false),
  // Ad slots and house ads (server/apps/ads); off until an operator turns them on.
  FEATURE_ADS: bool('FEATURE_ADS', false),
  // An operator's header-bidding script (its adapters bid for the slots); unset, no third-party script loads.
  AD_BIDDER_SCRIPT_URL: z.string().regex(/^https:\/\/[^\s"'<>]+$/i, 'must be an https URL of a script').optional().or(z.literal('')),
  PHOTO_UPLOAD_MAX_MB: z.coerce.number().positive().max(50).default(6),
  // Whether the server may fetch a video's still from YouTube (i.ytimg.com) when staff add one;
  // off: the server makes no outside request and staff upload the image.
  VIDEO_THUMBNAILS_FROM_YOUTUBE: bool('VIDEO_THUMBNAILS_FROM_YOUTUBE', false),
  // How long SIGTERM waits for requests in flight (uploads included) before cutting them off;
  // keep it under the supervisor's stop timeout (systemd TimeoutStopSec, 90 s by default).
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().positive().max(3600).default(9),
  // How often each organiser's calendar feed is fetched (server/apps/calendar-feeds).
  CALENDAR_FEEDS_INTERVAL_MINUTES: z.coerce.number().int().min(5).max(7 * 24 * 60).default(60),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('The Toronto Guide <hello@toronto-guide.local>'),
  STAFF_EMAIL: z.string().default('editors@toronto-guide.local'),
  // The sender's mailing address every newsletter prints (CASL); required to send one in production.
  MAIL_POSTAL_ADDRESS: z.string().trim().min(10, 'must be a full mailing address').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  TRUST_PROXY: z.string().default('loopback'),
  // Names this process in an X-Instance response header (the nginx stack's test tells its processes apart).
  INSTANCE_NAME: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'letters, digits, dot, dash or underscore, at most 64').optional(),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  GOOGLE_AUTH_URL: z.string().url().default('https://accounts.google.com/o/oauth2/v2/auth'),
  GOOGLE_TOKEN_URL: z.string().url().default('https://oauth2.googleapis.com/token'),
  GOOGLE_CALENDAR_API_URL: z.string().url().default('https://www.googleapis.com/calendar/v3'),
  FACEBOOK_APP_ID: z.string().optional(),
  FACEBOOK_APP_SECRET: z.string().optional(),
  APPLE_CLIENT_ID: z.string().optional(),
  APPLE_JWKS_URL: z.string().url().default('https://appleid.apple.com/auth/keys'),
  APPLE_ISSUER: z.string().default('https://appleid.apple.com'),
  RATE_LIMITS: bool('RATE_LIMITS', true),
  // Unset: on, but in production (see serverTiming below).
  SERVER_TIMING: bool('SERVER_TIMING', undefined),
  // Figures for Prometheus (server/http/metrics.ts): /metrics on a port of its own (each
  // process its own port, on METRICS_HOST: loopback unless said), and/or on the app's port for
  // a bearer token. Neither set: no figures are kept, /metrics is a 404.
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional().or(z.literal('').transform(() => undefined)),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters (a random token: openssl rand -hex 32)').regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces').optional().or(z.literal('')),
  // The edge cache to purge by key after a change (server/http/edge-purge.ts, docs/edge.md):
  // space-separated URLs that take `PURGE` with an `xkey-purge` header (Varnish + xkey). Unset: none.
  EDGE_PURGE_URL: z.string().default('').refine((v) => v.split(/\s+/).filter(Boolean).every((u) => /^https?:\/\/[^\s]+$/.test(u)), 'must be http(s) URLs, space-separated'),
  EDGE_PURGE_REPEAT_MS: z.coerce.number().int().min(0).max(60_000).default(2_000),
  // A query slower than this is logged as a warning with its route (server/db/query-stats.ts).
  SLOW_QUERY_MS: z.coerce.number().min(0).max(3_600_000).default(100),
  // Origins besides SITE_URL's that may send unsafe requests, as Django's setting of that name:
  // comma-separated, each `scheme://host[:port]`, or `https://*.example.com` for subdomains.
  CSRF_TRUSTED_ORIGINS: z
    .string()
    .optional()
    .transform((v) => (v ?? '').split(',').map((o) => o.trim()).filter(Boolean))
    .pipe(z.array(z.string().regex(/^https?:\/\/(\*\.)?[a-z0-9.-]+(:\d{1,5})?$/i, 'each origin must be scheme://host[:port], e.g. https://guide.example or https://*.guide.example'))),
  IOS_APP_URL: z.string().optional(),
  FACEBOOK_PAGE_URL: z.string().optional(),
  INSTAGRAM_URL: z.string().optional(),
  X_URL: z.string().optional(),
  // The base map: a hosted MapLibre style, or a .pmtiles extract (a site path served from
  // DATA_DIR/map-tiles/, or an https URL). Neither: maps draw our own city context.
  MAP_STYLE_URL: z.string().regex(/^https?:\/\/\S+$/i, 'must be an http(s) URL of a MapLibre style').optional().or(z.literal('')),
  MAP_PMTILES_URL: z
    .string()
    .regex(/^(https?:\/\/\S+|\/map-tiles\/[A-Za-z0-9._-]+)\.pmtiles$/i, 'must be /map-tiles/NAME.pmtiles (a file in DATA_DIR/map-tiles/) or an http(s) URL ending in .pmtiles')
    .optional()
    .or(z.literal('')),
  // Where media (originals and renditions) live: the local DATA_DIR/media (default) or an S3
  // bucket; the S3_* settings are checked together in mediaStoreConfig below.
  MEDIA_STORE: z.enum(['local', 's3']).default('local'),
  S3_ENDPOINT: z.string().regex(/^https?:\/\/[^\s/]+(\/\S*)?$/i, 'must be the http(s) URL of an S3-compatible server, e.g. http://127.0.0.1:9000').optional().or(z.literal('')),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name: 3 to 63 lowercase letters, digits, dots or hyphens')
    .optional()
    .or(z.literal('')),
  S3_REGION: z.string().regex(/^[a-z0-9-]{2,32}$/, 'must be a region name such as ca-central-1 (us-east-1 for most self-hosted servers)').optional().or(z.literal('')),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  // Unset: path-style (host/bucket/key) when S3_ENDPOINT is set, as self-hosted servers need.
  S3_FORCE_PATH_STYLE: bool('S3_FORCE_PATH_STYLE', undefined),
});

export type Env = z.input<typeof envSchema>;

export interface Config {
  env: 'development' | 'production' | 'test';
  isProduction: boolean;
  port: number;
  host: string;
  databaseUrl: string | undefined;
  /** DATABASE_REPLICA_URL (a streaming replica for public reads) and DATABASE_REPLICA_MAX_LAG_SECONDS in ms. */
  databaseReplica: { url: string | undefined; maxLagMs: number };
  dataDir: string;
  mediaDir: string;
  sessionSecret: string;
  trustProxy: string;
  /** INSTANCE_NAME: sent as X-Instance on every answer when set. */
  instanceName?: string;
  logLevel: string;
  site: { name: string; url: string };
  city: {
    name: string;
    slug: string;
    province: string;
    latitude: number;
    longitude: number;
    timeZone: string;
    startYear: number;
  };
  country: { name: string; code: string };
  flags: FeatureFlags;
  limits: { photoUploadMaxMb: number };
  /**
   * Calendar feeds: how often each is fetched (CALENDAR_FEEDS_INTERVAL_MINUTES) and the bounds
   * of one fetch. allowLoopback lets a test's own feed server on 127.0.0.1 be fetched; no
   * environment variable sets it, and every other private address stays refused.
   */
  calendarFeeds: { intervalMinutes: number; fetchTimeoutMs: number; maxBytes: number; maxEvents: number; maxRedirects: number; allowLoopback: boolean };
  /** postalAddress: the sender's mailing address in newsletters (CASL); unset, a placeholder outside production. */
  mail: { smtpUrl: string | undefined; from: string; staffEmail: string; postalAddress: string | undefined };
  rateLimits: boolean;
  /** SIGTERM's grace for requests in flight, in ms (SHUTDOWN_GRACE_SECONDS). */
  shutdownGraceMs: number;
  /** Each response's query count and database time in a Server-Timing header (SERVER_TIMING; default: not in production). */
  serverTiming: boolean;
  /**
   * Prometheus figures (server/http/metrics.ts): port (METRICS_PORT, on host METRICS_HOST) and
   * token (METRICS_TOKEN, for /metrics on the app's own port); both null: none kept.
   */
  metrics: { port: number | null; host: string; token: string | null };
  /** Queries slower than this many ms are logged as warnings (SLOW_QUERY_MS). */
  slowQueryMs: number;
  /** The edge purged by key after a change (EDGE_PURGE_URL, EDGE_PURGE_REPEAT_MS); no URLs: none. */
  edge: { purgeUrls: string[]; purgeRepeatMs: number };
  /** Origins, besides SITE_URL's, trusted to send unsafe requests (CSRF_TRUSTED_ORIGINS). */
  csrfTrustedOrigins: string[];
  google: { clientId?: string; clientSecret?: string; authUrl: string; tokenUrl: string; calendarApiUrl: string };
  facebook: { appId?: string; appSecret?: string };
  apple: { clientId?: string; jwksUrl: string; issuer: string };
  social: { iosAppUrl?: string; facebookPageUrl?: string; instagramUrl?: string; xUrl?: string };
  /** The base map (MAP_STYLE_URL, MAP_PMTILES_URL); null for our own city context. */
  map: { styleUrl: string | null; pmtilesUrl: string | null };
  /** Videos (VIDEO_THUMBNAILS_FROM_YOUTUBE): whether staff's video form may fetch YouTube's still of a video instead of an upload. */
  videos: { thumbnailsFromYoutube: boolean };
  /** Ads (FEATURE_ADS, AD_BIDDER_SCRIPT_URL): never shown in news-only mode (see adsShown). */
  ads: { enabled: boolean; bidderScriptUrl: string | null };
  /** Where media live (MEDIA_STORE and S3_*; server/storage/storage-factory.ts builds it). */
  media: MediaStoreConfig;
}

export type MediaStoreConfig =
  | { store: 'local' }
  | {
      store: 's3';
      endpoint?: string;
      bucket: string;
      region: string;
      credentials?: { accessKeyId: string; secretAccessKey: string };
      forcePathStyle: boolean;
    };

/** The S3 settings that only make sense together, checked together with errors naming each. */
function mediaStoreConfig(e: z.output<typeof envSchema>): MediaStoreConfig {
  if (e.MEDIA_STORE === 'local') return { store: 'local' };
  const problems: string[] = [];
  if (!e.S3_BUCKET) problems.push('S3_BUCKET: required with MEDIA_STORE=s3');
  if (!e.S3_REGION) problems.push('S3_REGION: required with MEDIA_STORE=s3 (us-east-1 for most self-hosted servers)');
  const keyId = e.S3_ACCESS_KEY_ID?.trim();
  const secret = e.S3_SECRET_ACCESS_KEY?.trim();
  if (Boolean(keyId) !== Boolean(secret)) {
    problems.push(`${keyId ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID'}: set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither (to use the AWS default credentials: AWS_* variables or an instance role)`);
  }
  if (problems.length) throw new ConfigError(`Invalid configuration:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  return {
    store: 's3',
    endpoint: e.S3_ENDPOINT || undefined,
    bucket: e.S3_BUCKET!,
    region: e.S3_REGION!,
    credentials: keyId && secret ? { accessKeyId: keyId, secretAccessKey: secret } : undefined,
    forcePathStyle: e.S3_FORCE_PATH_STYLE ?? Boolean(e.S3_ENDPOINT),
  };
}

export class ConfigError extends Error {}

/** Reads the session secret kept in DATA_DIR, making one the first time (development only). */
function developmentSessionSecret(dataDir: string): string {
  const file = path.join(dataDir, 'session-secret');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    fs.mkdirSync(dataDir, { recursive: true });
    const secret = crypto.randomBytes(48).toString('base64url');
    fs.writeFileSync(file, secret + '\n', { mode: 0o600 });
    return secret;
  }
}

export function loadConfig(source: NodeJS.ProcessEnv | Env = process.env, overrides: Partial<Config> = {}): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const isProduction = e.NODE_ENV === 'production';
  if (e.DATABASE_REPLICA_URL && !e.DATABASE_URL) throw new ConfigError('Invalid configuration:\n  DATABASE_REPLICA_URL: needs DATABASE_URL (the embedded database has no replica)');
  const dataDir = path.resolve(e.DATA_DIR);
  let sessionSecret = e.SESSION_SECRET;
  if (!sessionSecret) {
    if (isProduction) throw new ConfigError('Invalid configuration:\n  SESSION_SECRET: required in production (at least 32 characters)');
    sessionSecret = e.NODE_ENV === 'test' ? 'test-session-secret-not-for-production-use-0000' : developmentSessionSecret(dataDir);
  }
  const flagValues: Record<string, boolean> = {
    listings: e.FEATURE_LISTINGS,
    events: e.FEATURE_EVENTS,
    contests: e.FEATURE_CONTESTS,
    videos: e.FEATURE_VIDEOS,
    bestOf: e.FEATURE_BEST_OF,
    photoChallenges: e.FEATURE_PHOTO_CHALLENGES,
    patioGuide: e.FEATURE_PATIO_GUIDE,
    photoUpload: e.FEATURE_PHOTO_UPLOAD,
    newsOnly: e.FEATURE_NEWS_ONLY,
  };
  const flags = Object.fromEntries(FEATURE_FLAGS.map((f) => [f, flagValues[f]])) as FeatureFlags;
  return {
    env: e.NODE_ENV,
    isProduction,
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    databaseReplica: { url: e.DATABASE_REPLICA_URL || undefined, maxLagMs: e.DATABASE_REPLICA_MAX_LAG_SECONDS * 1000 },
    dataDir,
    mediaDir: path.join(dataDir, 'media'),
    sessionSecret,
    trustProxy: e.TRUST_PROXY,
    instanceName: e.INSTANCE_NAME,
    logLevel: e.LOG_LEVEL ?? (e.NODE_ENV === 'test' ? 'silent' : 'info'),
    site: { name: e.SITE_NAME, url: (e.SITE_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '') },
    city: {
      name: e.CITY_NAME,
      slug: e.CITY_SLUG,
      province: e.CITY_PROVINCE,
      latitude: e.CITY_LATITUDE,
      longitude: e.CITY_LONGITUDE,
      timeZone: e.TIME_ZONE,
      startYear: e.START_YEAR,
    },
    country: { name: e.COUNTRY_NAME, code: e.COUNTRY_CODE },
    flags,
    limits: { photoUploadMaxMb: e.PHOTO_UPLOAD_MAX_MB },
    calendarFeeds: { intervalMinutes: e.CALENDAR_FEEDS_INTERVAL_MINUTES, fetchTimeoutMs: 10_000, maxBytes: 2 * 1024 * 1024, maxEvents: 500, maxRedirects: 3, allowLoopback: false },
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM, staffEmail: e.STAFF_EMAIL, postalAddress: e.MAIL_POSTAL_ADDRESS },
    rateLimits: e.RATE_LIMITS,
    shutdownGraceMs: e.SHUTDOWN_GRACE_SECONDS * 1000,
    // Counting each request's queries costs an AsyncLocalStorage, about 0.25 µs per await on
    // Node 20 (0.1 ms of the 0.9 ms of CPU a cheap API answer takes): on in development and
    // tests, and in production when asked (SERVER_TIMING=true, for the server npm run bench measures).
    serverTiming: e.SERVER_TIMING ?? !isProduction,
    metrics: { port: e.METRICS_PORT ?? null, host: e.METRICS_HOST, token: e.METRICS_TOKEN || null },
    slowQueryMs: e.SLOW_QUERY_MS,
    edge: { purgeUrls: e.EDGE_PURGE_URL.split(/\s+/).filter(Boolean), purgeRepeatMs: e.EDGE_PURGE_REPEAT_MS },
    // With SITE_URL unset the site is this machine's, whichever name the browser uses for it.
    csrfTrustedOrigins: [...e.CSRF_TRUSTED_ORIGINS.map((o) => o.toLowerCase()), ...(e.SITE_URL ? [] : [`http://127.0.0.1:${e.PORT}`])],
    google: {
      clientId: e.GOOGLE_CLIENT_ID,
      clientSecret: e.GOOGLE_CLIENT_SECRET,
      authUrl: e.GOOGLE_AUTH_URL,
      tokenUrl: e.GOOGLE_TOKEN_URL,
      calendarApiUrl: e.GOOGLE_CALENDAR_API_URL,
    },
    facebook: { appId: e.FACEBOOK_APP_ID, appSecret: e.FACEBOOK_APP_SECRET },
    apple: { clientId: e.APPLE_CLIENT_ID, jwksUrl: e.APPLE_JWKS_URL, issuer: e.APPLE_ISSUER },
    social: { iosAppUrl: e.IOS_APP_URL, facebookPageUrl: e.FACEBOOK_PAGE_URL, instagramUrl: e.INSTAGRAM_URL, xUrl: e.X_URL },
    map: { styleUrl: e.MAP_STYLE_URL || null, pmtilesUrl: e.MAP_PMTILES_URL || null },
    ads: { enabled: e.FEATURE_ADS, bidderScriptUrl: e.AD_BIDDER_SCRIPT_URL || null },
    videos: { thumbnailsFromYoutube: e.VIDEO_THUMBNAILS_FROM_YOUTUBE },
    media: mediaStoreConfig(e),
    ...overrides,
  };
}

/** Ad slots are printed (and served) only with FEATURE_ADS on and outside news-only mode. */
export function adsShown(config: Pick<Config, 'ads' | 'flags'>): boolean {
  return config.ads.enabled && !config.flags.newsOnly;
}

/** Google Calendar sync of saved events is on only when a Google client is configured (spec 1 §4). */
export function calendarEnabled(config: Pick<Config, 'google'>): boolean {
  return Boolean(config.google.clientId);
}
