// Shared test steps: a dataset uploaded as the upload page does, and a JSON fetch that never throws
// on a non-JSON body. Used by the analysis, configurator, archive and fuzz tests.
import assert from 'node:assert/strict';
import type { TestClient } from './client.ts';

/** Stages the files and uploads one dataset with them, as the upload page does; answers its id. */
export async function uploadDataset(client: TestClient, title: string, files: [string, string][]): Promise<{ status: string; dataset_id: number }> {
  const fields: Record<string, string> = {
    title, desc: `${title}, analysistest`, publication_type: 'none', publication_doi: '', tags: '',
    'authors-0-name': 'Ana Lyst', 'authors-0-affiliation': '', 'authors-0-orcid': '',
  };
  for (const [j, [name, text]] of files.entries()) {
    const form = new FormData();
    form.append('file', new Blob([text], { type: 'text/plain' }), name);
    const staged = await client.post('/dataset/file/upload', { body: form });
    assert.equal(staged.status, 200, staged.text);
    Object.assign(fields, {
      [`feature_models-${j}-uvl_filename`]: staged.json.filename, [`feature_models-${j}-title`]: name,
      [`feature_models-${j}-desc`]: '', [`feature_models-${j}-publication_type`]: 'none',
      [`feature_models-${j}-publication_doi`]: '', [`feature_models-${j}-tags`]: '', [`feature_models-${j}-version`]: '2.0',
    });
  }
  const res = await client.post('/dataset/upload', { form: fields });
  assert.equal(res.status, 200, res.text);
  return res.json;
}

export async function fetchJson(url: string, init?: RequestInit): Promise<{ status: number; json: any }> {
  const res = await fetch(url, init);
  const text = await res.text();
  let json: any;
  try { json = JSON.parse(text); } catch { json = text; }
  return { status: res.status, json };
}
