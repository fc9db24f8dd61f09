// One guarded fetch of the import from a URL (extensions section 13): http and https only, at most
// 5 redirects each checked like the first URL, a deadline for the whole fetch and a byte limit on
// the body (a declared Content-Length over it is refused before reading). Errors are data the
// caller turns into a 400: the kind and a message fit for the user, never a stack.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { checkLiteralHost, guardedLookup, hostOf, RefusedAddressError, type AddressPolicy } from './url-guard.ts';

export const MAX_REDIRECTS = 5;

export type UrlImportErrorKind = 'bad_url' | 'refused_address' | 'too_many_redirects' | 'too_large' | 'timeout' | 'http_status' | 'unreachable' | 'no_models';

export class UrlImportError extends Error {
  constructor(readonly kind: UrlImportErrorKind, message: string) {
    super(message);
  }
}

export interface FetchLimits extends AddressPolicy {
  maxBytes: number;
  timeoutMs: number;
}

export interface Fetched {
  /** The URL the body came from, after redirects. */
  url: URL;
  bytes: Buffer;
  contentType: string;
  /** The file name of a Content-Disposition header, if any. */
  dispositionName: string | undefined;
}

/** The URL, checked: absolute, http or https, no user name or password in it. */
export function parseImportUrl(raw: string, base?: URL): URL {
  let url: URL;
  try {
    url = base ? new URL(raw, base) : new URL(raw);
  } catch {
    throw new UrlImportError('bad_url', 'Give an absolute http:// or https:// URL, or a DOI.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UrlImportError('bad_url', `Only http:// and https:// URLs are fetched, not ${url.protocol}`);
  if (url.username !== '' || url.password !== '') throw new UrlImportError('bad_url', 'A URL with a user name or password is not fetched.');
  return url;
}

function dispositionName(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const star = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
  if (star) {
    try {
      return decodeURIComponent(star[1]!.trim());
    } catch {
      return undefined;
    }
  }
  return /filename\s*=\s*"?([^";]+)"?/i.exec(header)?.[1]?.trim();
}

/** One request, no redirect followed: the response, or the error of a refused or failed connection. */
function requestOnce(url: URL, limits: FetchLimits, signal: AbortSignal): Promise<IncomingMessage> {
  checkLiteralHost(url, limits);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(url, {
      method: 'GET', signal, agent: false, lookup: guardedLookup(hostOf(url), limits),
      headers: { 'user-agent': 'uvlhub-url-import', accept: '*/*' },
    }, resolve);
    req.on('error', reject);
    req.end();
  });
}

/** The body, failing as soon as it passes the limit. */
async function readLimited(response: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.destroy();
    throw new UrlImportError('too_large', `The file is larger than the ${maxBytes} bytes the hub fetches (it declares ${declared}).`);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of response) {
    total += (chunk as Buffer).length;
    if (total > maxBytes) {
      response.destroy();
      throw new UrlImportError('too_large', `The file is larger than the ${maxBytes} bytes the hub fetches.`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function failure(error: unknown, signal: AbortSignal, limits: FetchLimits): UrlImportError {
  if (error instanceof UrlImportError) return error;
  if (signal.aborted) return new UrlImportError('timeout', `The fetch took longer than ${limits.timeoutMs} ms and was stopped.`);
  if (error instanceof RefusedAddressError) return new UrlImportError('refused_address', error.message);
  const code = (error as { code?: string }).code;
  return new UrlImportError('unreachable', `The URL could not be fetched${code ? ` (${code})` : ''}.`);
}

/** Fetches a URL within the limits, following at most MAX_REDIRECTS redirects, each checked. */
export async function fetchLimited(start: URL, limits: FetchLimits): Promise<Fetched> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), limits.timeoutMs);
  try {
    let url = start;
    for (let redirects = 0; ; redirects++) {
      const response = await requestOnce(url, limits, controller.signal);
      const status = response.statusCode ?? 0;
      if ([301, 302, 303, 307, 308].includes(status) && response.headers.location) {
        response.resume();
        if (redirects >= MAX_REDIRECTS) throw new UrlImportError('too_many_redirects', `The URL redirects more than ${MAX_REDIRECTS} times.`);
        url = parseImportUrl(response.headers.location, url);
        continue;
      }
      if (status < 200 || status > 299) {
        response.resume();
        throw new UrlImportError('http_status', `The server answered ${status} for ${url.origin}${url.pathname}.`);
      }
      const bytes = await readLimited(response, limits.maxBytes);
      // A body that ends with the connection (no length, not chunked) reads as complete when the
      // deadline destroys the socket: what came so far would be staged as the whole model.
      if (controller.signal.aborted) throw new UrlImportError('timeout', `The fetch took longer than ${limits.timeoutMs} ms and was stopped.`);
      return { url, bytes, contentType: String(response.headers['content-type'] ?? ''), dispositionName: dispositionName(response.headers['content-disposition']) };
    }
  } catch (error) {
    throw failure(error, controller.signal, limits);
  } finally {
    clearTimeout(timer);
  }
}
