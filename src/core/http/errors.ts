// Closed, typed errors (design habit 6). A service throws one; the single error
// handler answers with its status and, for JSON routes, its documented body.
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** The exact JSON body the specification prescribes, when it prescribes one. */
    readonly body?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, body?: Record<string, unknown>) => new HttpError(400, 'bad_request', message, body);
/** A 400 about one form field: its JSON `{"message", "field"}`, as the API's validation errors. */
export const badField = (field: string, message: string) => badRequest(message, { message, field });
export const unauthorized = (message = 'Login required', body?: Record<string, unknown>) => new HttpError(401, 'unauthorized', message, body);
export const forbidden = (message = 'Forbidden', body?: Record<string, unknown>) => new HttpError(403, 'forbidden', message, body);
export const notFound = (message = 'Not found', body?: Record<string, unknown>) => new HttpError(404, 'not_found', message, body);
export const conflict = (message: string, body?: Record<string, unknown>) => new HttpError(409, 'conflict', message, body);
export const payloadTooLarge = (message: string, body?: Record<string, unknown>) => new HttpError(413, 'payload_too_large', message, body);
export const tooManyRequests = (message: string, body?: Record<string, unknown>) => new HttpError(429, 'too_many_requests', message, body);
export const serverError = (message: string, body?: Record<string, unknown>) => new HttpError(500, 'server_error', message, body);
