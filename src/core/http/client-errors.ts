// Requests Node's HTTP parser refuses before Fastify sees them: headers (the address counts) beyond
// 16 KiB answer 431, a malformed request 400, a slow one (REQUEST_TIMEOUT_MS) 408. Fastify's own answer is raw JSON in
// its shape for every client; a person opening a too long address gets the hub's error page
// instead, and an API client the documented `{"message"}` (issue 37, item 2).
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';

const MESSAGES: Record<number, string> = {
  400: 'The request is malformed.',
  408: 'The request took too long to arrive.',
  431: 'The address (or the request headers) is too long for the hub: at most 16 KiB.',
};

/** What the parser had read: only its first line and headers tell the client's kind, and they may be cut off. */
function wantsJson(raw: string): boolean {
  const path = /^[A-Z]+ (\S{0,32})/.exec(raw)?.[1] ?? '';
  if (/^\/(api|modeltool|file)\//.test(path)) return true;
  const accept = /\r\naccept:([^\r\n]*)/i.exec(raw)?.[1] ?? '';
  return accept.includes('application/json') && !accept.includes('text/html');
}

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** The error page without the layout's session parts (there is no request to read a session from). */
function page(status: number, message: string): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Error ${status} &middot; UVL Hub</title>
  <link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
  <link rel="stylesheet" href="/vendor/bootstrap/css/bootstrap.min.css">
  <link rel="stylesheet" href="/static/css/hub.css">
</head>
<body class="d-flex flex-column min-vh-100">
<nav class="navbar navbar-dark bg-primary"><div class="container"><a class="navbar-brand fw-semibold" href="/">UVL Hub</a></div></nav>
<main class="container flex-grow-1 py-4" id="main">
<div class="text-center py-5">
  <h1 class="display-4">${status}</h1>
  <p class="lead">${escapeHtml(message)}</p>
  <a class="btn btn-primary" href="/">Back to the start page</a>
</div>
</main>
</body>
</html>
`;
}

export function clientErrorAnswer(code: string | undefined, raw: string): { status: number; type: string; body: string } {
  const status = code === 'HPE_HEADER_OVERFLOW' ? 431 : code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const message = MESSAGES[status]!;
  return wantsJson(raw)
    ? { status, type: 'application/json; charset=utf-8', body: JSON.stringify({ message }) }
    : { status, type: 'text/html; charset=utf-8', body: page(status, message) };
}

/**
 * Fastify's `frameworkErrors`: what its router refuses before any route or hook runs. An address
 * with a broken %-escape (`/%FF`) gets the same answers as the parser's refusals above (400, the
 * hub's page or `{"message"}`), not Fastify's raw JSON.
 */
export function handleFrameworkError(error: Error & { code?: string }, request: FastifyRequest, reply: FastifyReply): void {
  const raw = `${request.method} ${request.url} HTTP/1.1\r\naccept:${request.headers.accept ?? ''}\r\n`;
  const { status, type, body } = clientErrorAnswer(error.code, raw);
  reply.code(status).header('content-type', type).header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'self'; frame-ancestors 'none'").send(body);
}

/**
 * A request whose body took too long (408) has no raw packet: its line and Accept header, read from
 * the request Node keeps on the socket's parser while the body arrives, tell the client's kind.
 */
function requestLine(incoming: IncomingMessage | null | undefined): string {
  if (!incoming?.method || incoming.url === undefined) return '';
  return `${incoming.method} ${incoming.url} HTTP/1.1\r\naccept:${incoming.headers.accept ?? ''}\r\n`;
}

/** Fastify's `clientErrorHandler`: the answer written on the socket, which is then closed. */
export function handleClientError(error: Error, socket: Socket): void {
  const { code, rawPacket } = error as Error & { code?: string; rawPacket?: unknown };
  // A reset connection has nobody left to answer.
  if (code === 'ECONNRESET' || socket.destroyed) return;
  // An answer already under way (an API write refused before its body arrived) is not followed by
  // another: Node's own handler checks the same.
  const pending = socket as Socket & { _httpMessage?: { headersSent?: boolean }; parser?: { incoming?: IncomingMessage | null } };
  if (socket.writable && !pending._httpMessage?.headersSent) {
    const raw = Buffer.isBuffer(rawPacket) ? rawPacket.subarray(0, 8192).toString('latin1') : requestLine(pending.parser?.incoming);
    const { status, type, body } = clientErrorAnswer(code, raw);
    const length = Buffer.byteLength(body);
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: ${type}\r\nContent-Length: ${length}\r\n`
      + `X-Content-Type-Options: nosniff\r\nContent-Security-Policy: default-src 'self'; frame-ancestors 'none'\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy(error);
}
