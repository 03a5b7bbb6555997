/** An exact request path, as Express gives it in req.path. */
export type RequestPath = `/${string}`;
/** A route by method and exact path, as `${req.method} ${req.path}`. */
export type RequestRoute = `${'POST' | 'PUT' | 'PATCH' | 'DELETE'} ${RequestPath}`;

/**
 * What a few routes need of the core's body parsing and CSRF check (app.ts, http/csrf.ts) that
 * other routes do not. Each app declares its own routes' rules beside those routes, with the
 * reason; the app registry (apps/index.ts `appRequestRules`) puts them together and hands them
 * to the core, which applies them and names no app path.
 */
export interface RequestRules {
  /**
   * Routes that read their own JSON body, which may be larger than the core's 1 MB (a photo as
   * base64): the core's JSON parser leaves them alone, so the route reads it after the session
   * and CSRF checks, and only when it wants it.
   */
  readsOwnBody: readonly RequestRoute[];
  /** Multipart forms posted without JavaScript, whose token is their first field (CsrfOptions.multipartFirstFieldPaths). */
  multipartFirstField: readonly RequestPath[];
  /** Paths whose unsafe requests are not CSRF-checked at all (CsrfOptions.exemptPaths); each justified where it is declared. */
  csrfExempt: readonly RequestPath[];
  /** GET paths whose answers always give a visitor without a token their cookie (CsrfOptions.issuePaths). */
  csrfIssue: readonly RequestPath[];
}

/** Several apps' rules as one; an app declares only the kinds it needs. */
export function requestRules(...declared: Partial<RequestRules>[]): RequestRules {
  return {
    readsOwnBody: declared.flatMap((d) => d.readsOwnBody ?? []),
    multipartFirstField: declared.flatMap((d) => d.multipartFirstField ?? []),
    csrfExempt: declared.flatMap((d) => d.csrfExempt ?? []),
    csrfIssue: declared.flatMap((d) => d.csrfIssue ?? []),
  };
}
