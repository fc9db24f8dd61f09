// Shared steps of the token, API and CLI tests: a token made through the /profile/tokens page, as a person would.
import assert from 'node:assert/strict';
import type { TestClient } from './client.ts';

export async function createToken(client: TestClient, scopes: string[], name = 'ci', days = '30'): Promise<string> {
  await client.get('/profile/tokens');
  const body = new URLSearchParams({ name, expires_in_days: days, csrf_token: client.csrfToken ?? '' });
  for (const scope of scopes) body.append('scopes', scope);
  const res = await client.post('/profile/tokens', { body: body.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  assert.equal(res.status, 200, res.text.slice(0, 500));
  const match = /id="new-token"[^>]*value="([^"]+)"/.exec(res.text);
  assert.ok(match, 'the new token is shown');
  return match[1]!;
}

export async function bearer(
  baseUrl: string, token: string, method: string, path: string, body?: unknown, extraHeaders: Record<string, string> = {},
): Promise<{ status: number; json: any; headers: Headers }> {
  const headers: Record<string, string> = { ...extraHeaders, authorization: `Bearer ${token}` };
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    payload = JSON.stringify(body);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(baseUrl + path, { method, headers, body: payload });
  const text = await res.text();
  let json: any;
  try { json = text ? JSON.parse(text) : undefined; } catch { json = undefined; }
  return { status: res.status, json, headers: res.headers };
}

export function uvlForm(name: string, content: string): FormData {
  const form = new FormData();
  form.append('file', new Blob([content]), name);
  return form;
}

/**
 * An unsynchronized dataset made through the API with `fields` (name, description, authors) and
 * one model, phone.uvl, added to it: its id and the model's file id.
 */
export async function apiDatasetWithModel(baseUrl: string, token: string, fields: Record<string, unknown>): Promise<{ id: number; fileId: number }> {
  const created = await bearer(baseUrl, token, 'POST', '/api/v1/datasets/', fields);
  assert.equal(created.status, 201, JSON.stringify(created.json));
  const id = created.json.id as number;
  const file = await bearer(baseUrl, token, 'POST', `/api/v1/datasets/${id}/files`, uvlForm('phone.uvl', PHONE_UVL));
  assert.equal(file.status, 201, JSON.stringify(file.json));
  return { id, fileId: file.json.file_id as number };
}

/** Two small valid models and one with a syntax error on line 3. */
export const PHONE_UVL = 'namespace Phone\n\nfeatures\n    Phone {abstract}\n        mandatory\n            Screen\n        optional\n            Camera\n';
export const CAR_UVL = 'features\n    Car\n        optional\n            Radio\n            Sunroof\n';
export const BROKEN_UVL = 'features\n    Car\n    mandatory\n        Radio\n';
