import createClient, { type Client } from 'openapi-fetch';
import type { paths as MainPaths } from '../generated/main-api.js';
import type { paths as RouterPaths } from '../generated/router-api.js';
import { requireToken, type Context } from '../context.js';
import { CliError } from '../errors.js';

export type MainApi = Client<MainPaths>;
export type RouterApi = Client<RouterPaths>;

/** fetch, with a refused connection turned into a sentence that names the address. */
export async function reach(input: Request | string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(input, init);
  } catch (error) {
    const url = typeof input === 'string' ? input : input.url;
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (error as Error).message;
    throw new CliError('unreachable', `cannot reach ${new URL(url).origin}: ${why}`);
  }
}

const bearer = (token: string | undefined): Record<string, string> =>
  token ? { authorization: `Bearer ${token}` } : {};

/**
 * fetch for the main API: a 401 there means the credential is missing, expired or refused, so it
 * becomes `not_signed_in` (exit 4) with the server's detail, whichever route answered it.
 */
export async function reachMain(input: Request | string, init?: RequestInit): Promise<Response> {
  const response = await reach(input, init);
  if (response.status !== 401) return response;
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON (a proxy page): detailOf reports the text.
  }
  throw new CliError('not_signed_in', `${detailOf(body, 401)} (HTTP 401)`, 401);
}

/** The main API; `anonymous` for the sign-in routes, otherwise a credential is required up front. */
export function mainApi(context: Context, anonymous = false): MainApi {
  const token = anonymous ? undefined : requireToken(context);
  return createClient<MainPaths>({
    baseUrl: context.baseUrl,
    headers: bearer(token),
    fetch: (request) => reachMain(request),
  });
}

/** The router API: member, job and admin routes take no credential; worker routes take the worker token. */
export function routerApi(context: Context, workerToken?: string): RouterApi {
  return createClient<RouterPaths>({
    baseUrl: context.routerUrl,
    headers: bearer(workerToken),
    fetch: (request) => reach(request),
  });
}

/** The server's `{detail}`, or the best text there is when a proxy answered instead. */
export function detailOf(error: unknown, status: number): string {
  if (typeof error === 'object' && error !== null && 'detail' in error) {
    const { detail } = error as { detail: unknown };
    if (typeof detail === 'string' && detail !== '') return detail;
  }
  if (typeof error === 'string' && error.trim() !== '') return error.trim().slice(0, 500);
  return `the server answered HTTP ${status}`;
}

export function failure(error: unknown, response: Response): CliError {
  return new CliError(
    'request_failed',
    `${detailOf(error, response.status)} (HTTP ${response.status})`,
    response.status,
  );
}

/** The data of a 2xx answer; anything else becomes a CliError carrying the server's detail. */
export async function ok<D>(
  pending: Promise<{ data?: D; error?: unknown; response: Response }>,
): Promise<D> {
  const { data, error, response } = await pending;
  if (!response.ok) throw failure(error, response);
  return data as D;
}

/**
 * The named schemas of a run's parts (receipt, approval, submission, verdict) admit null, because the
 * composite read shows parts that do not exist yet; the routes that create them always answer one.
 */
export function present<T>(value: T | null, what: string): T {
  if (value === null) throw new CliError('request_failed', `the server answered without ${what}`);
  return value;
}
