// Form handling shared by the HTML forms: reading urlencoded fields and collecting per-field errors.
export type FieldErrors = Record<string, string[]>;

/**
 * Whether the request's body is multipart/form-data, read from its header: the multipart plugin
 * (and its `request.isMultipart`) is registered only in the scope of the routes that read such
 * bodies (the dataset module's uploads), while the guards and the error handler see every request.
 */
export function isMultipartRequest(request: { headers: Record<string, string | string[] | undefined> }): boolean {
  const type = request.headers['content-type'];
  return typeof type === 'string' && /^multipart\/form-data\b/i.test(type.trimStart());
}

/** The submitted fields as strings; a repeated field keeps its last value, anything else is dropped. */
export function formFields(body: unknown): Record<string, string> {
  const fields: Record<string, string> = {};
  if (!body || typeof body !== 'object') return fields;
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    if (typeof value === 'string') fields[key] = value;
    else if (Array.isArray(value) && typeof value[value.length - 1] === 'string') fields[key] = value[value.length - 1] as string;
  }
  return fields;
}

export class FormErrors {
  readonly errors: FieldErrors = {};

  add(field: string, message: string): void {
    (this.errors[field] ??= []).push(message);
  }

  required(field: string, value: string | undefined, label = 'This field'): void {
    if (value === undefined || value.trim() === '') this.add(field, `${label} is required.`);
  }

  /**
   * Counts characters (code points) the way a varchar(n) column of PostgreSQL and MariaDB
   * (utf8mb4) does, so an emoji counts once, not twice.
   */
  maxLength(field: string, value: string | undefined, max: number): void {
    if (value !== undefined && charCount(value) > max) this.add(field, `Field cannot be longer than ${max} characters.`);
  }

  /** Refuses control characters in a one-line text field (PostgreSQL cannot even store U+0000). */
  plainText(field: string, value: string | undefined): void {
    if (value !== undefined && hasControlCharacters(value)) this.add(field, 'Field contains characters that are not allowed.');
  }

  /** The same for a text area: line breaks and tabs are text there, other control characters are not. */
  multilineText(field: string, value: string | undefined): void {
    if (value !== undefined && MULTILINE_CONTROL.test(value)) this.add(field, 'Field contains characters that are not allowed.');
  }

  get empty(): boolean {
    return Object.keys(this.errors).length === 0;
  }
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export function isEmail(value: string): boolean {
  return EMAIL.test(value.trim()) && !hasControlCharacters(value.trim());
}

/** Characters as a database column counts them: code points, not UTF-16 units. */
export function charCount(value: string): number {
  let count = 0;
  for (const _ of value) count++;
  return count;
}

const CONTROL = /[\u0000-\u001f\u007f]/;
const MULTILINE_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
export function hasControlCharacters(value: string): boolean {
  return CONTROL.test(value);
}

/** The value with each control character replaced, for keys and log lines that must stay plain text. */
export function replaceControlCharacters(value: string, replacement: string): string {
  return value.replace(new RegExp(CONTROL.source, 'g'), replacement);
}
