// Form handling shared by the HTML forms: reading urlencoded fields and collecting per-field errors.
export type FieldErrors = Record<string, string[]>;

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

  maxLength(field: string, value: string | undefined, max: number): void {
    if (value !== undefined && value.length > max) this.add(field, `Field cannot be longer than ${max} characters.`);
  }

  get empty(): boolean {
    return Object.keys(this.errors).length === 0;
  }
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export function isEmail(value: string): boolean {
  return EMAIL.test(value.trim());
}
