import type { ApiFieldErrors } from '../../shared/dto';

// The typed API client every island uses: JSON in and out, the session cookie sent, the
// Django CSRF token echoed in X-CSRFToken (asked for first when there is no cookie yet), and
// DRF's error shapes turned into an ApiError that names its fields. Thin: one call per endpoint lives in each island's api.ts.

export const CSRF_COOKIE = 'csrftoken';

export function readCookie(name: string): string | undefined {
  if (typeof document === 'undefined') return undefined;
  const prefix = `${name}=`;
  const found = document.cookie.split('; ').find((c) => c.startsWith(prefix));
  return found ? decodeURIComponent(found.slice(prefix.length)) : undefined;
}

export type QueryValue = string | number | boolean | null | undefined;

/** '?a=1&b=x' from an object; null and undefined values are dropped (spec: query strings). */
export function queryString(params: Record<string, QueryValue> = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined) q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** DRF's error bodies: field lists, non_field_errors, or a single detail string. */
export type ApiErrorBody = ApiFieldErrors | { detail?: string };

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody,
  ) {
    const b = body as { detail?: unknown; non_field_errors?: unknown };
    const first = typeof b.detail === 'string' ? b.detail : Array.isArray(b.non_field_errors) ? String(b.non_field_errors[0]) : undefined;
    super(first ?? `Request failed with status ${status}`);
    this.name = 'ApiError';
  }

  /** The first message of a field ('email', 'non_field_errors', 'detail'…), if any. */
  first(field: string): string | undefined {
    const v = (this.body as Record<string, unknown>)[field];
    if (Array.isArray(v)) return typeof v[0] === 'string' ? v[0] : undefined;
    return typeof v === 'string' ? v : undefined;
  }
}

/** Field errors as the dialogs show them: the first message of each field. */
export function fieldErrorsOf(err: unknown, fields: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  if (err instanceof ApiError) {
    for (const f of fields) {
      const m = err.first(f);
      if (m) out[f] = m;
    }
    if (!Object.keys(out).length) out.non_field_errors = err.first('detail') ?? err.message;
  } else {
    out.non_field_errors = 'Something went wrong. Please check your connection and try again.';
  }
  return out;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Where a script without the csrftoken cookie gets one (server/http/csrf.ts). */
export const CSRF_TOKEN_PATH = '/api/v2/csrf/';

let tokenRequest: Promise<string> | null = null;

/**
 * The token for an unsafe call. Pages the same for everybody set no cookie, so a first
 * visitor's first unsafe call (a sign-in, a newsletter sign-up) asks for one first, once for
 * all the calls that need it meanwhile; a member's islands have it from their member request.
 * A failure sends no token, and the server's 403 says why.
 */
export function csrfToken(): Promise<string> {
  const cookie = readCookie(CSRF_COOKIE);
  if (cookie) return Promise.resolve(cookie);
  tokenRequest ??= fetch(CSRF_TOKEN_PATH, { credentials: 'same-origin', headers: { Accept: 'application/json' } })
    .then((res): Promise<{ csrftoken?: unknown }> | { csrftoken?: unknown } => (res.ok ? res.json() : {}))
    .then((body) => readCookie(CSRF_COOKIE) ?? (typeof body.csrftoken === 'string' ? body.csrftoken : ''))
    .catch(() => '')
    .finally(() => {
      tokenRequest = null;
    });
  return tokenRequest;
}

export async function apiRequest<T>(method: Method, path: string, opts: { body?: unknown; query?: Record<string, QueryValue>; signal?: AbortSignal } = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  // A FormData body goes as multipart (the browser writes its Content-Type and boundary).
  const multipart = typeof FormData !== 'undefined' && opts.body instanceof FormData;
  if (opts.body !== undefined && !multipart) headers['Content-Type'] = 'application/json';
  if (method !== 'GET') headers['X-CSRFToken'] = await csrfToken();
  const res = await fetch(path + queryString(opts.query), {
    method,
    headers,
    credentials: 'same-origin',
    body: opts.body === undefined ? undefined : multipart ? (opts.body as FormData) : JSON.stringify(opts.body),
    signal: opts.signal,
  });
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { detail: text.slice(0, 200) };
  }
  if (!res.ok) throw new ApiError(res.status, (data ?? {}) as ApiErrorBody);
  return data as T;
}

export const api = {
  get: <T>(path: string, query?: Record<string, QueryValue>) => apiRequest<T>('GET', path, { query }),
  post: <T>(path: string, body?: unknown, query?: Record<string, QueryValue>) => apiRequest<T>('POST', path, { body: body ?? {}, query }),
  /** A multipart POST (uploads, the add-event form), answered in JSON. */
  postForm: <T>(path: string, form: FormData) => apiRequest<T>('POST', path, { body: form }),
  put: <T>(path: string, body: unknown) => apiRequest<T>('PUT', path, { body }),
  patch: <T>(path: string, body: unknown) => apiRequest<T>('PATCH', path, { body }),
  delete: <T = null>(path: string) => apiRequest<T>('DELETE', path),
};
