// `hub remote publish` (extensions section 3): creates a dataset on a remote hub through its
// API, adds the models, publishes it and prints its DOI. Progress goes to stderr and the DOI
// alone to stdout, so that a CI step can capture it. Every failure says what to do about it.
// `hub remote import` (extensions section 13): the hub fetches a URL's models into a dataset.
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Command } from 'commander';

export interface RemotePublishOptions {
  url?: string;
  token?: string;
  title: string;
  description?: string;
  tags?: string;
  authors: string[];
  files: string[];
}

export interface Output {
  out(line: string): void;
  err(line: string): void;
}

/** A failure already explained to the user: the command ends with exit status 1. */
class Refusal extends Error {}

interface Answer {
  status: number;
  body: any;
}

function parseAuthor(text: string): { name: string; affiliation: string | null; orcid: string | null } {
  const [name = '', affiliation = '', orcid = ''] = text.split(';').map((p) => p.trim());
  if (name === '') throw new Refusal(`--author "${text}": the name is missing (expected "Name;Affiliation;ORCID").`);
  return { name, affiliation: affiliation || null, orcid: orcid || null };
}

export async function remotePublish(options: RemotePublishOptions, io: Output, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  try {
    const doi = await publish(options, io, env);
    io.out(doi);
    return 0;
  } catch (error) {
    if (error instanceof Refusal) {
      io.err(`hub remote publish: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

/** The hub a run talks to: its address and the token sent with every request. */
interface Hub {
  base: string;
  token: string;
}

function hubOf(options: { url?: string; token?: string }, env: NodeJS.ProcessEnv): Hub {
  const base = (options.url ?? env.HUB_URL ?? '').trim().replace(/\/+$/, '');
  const token = (options.token ?? env.HUB_TOKEN ?? '').trim();
  if (!base) throw new Refusal('no hub address: give --url or set HUB_URL.');
  if (!/^https?:\/\/[^/]+/.test(base)) throw new Refusal(`"${base}" is not an http(s) address of a hub.`);
  if (!token) throw new Refusal(`no token: give --token or set HUB_TOKEN (create one with the write scope at ${base}/profile/tokens).`);
  return { base, token };
}

/** Every file is read before the hub is asked anything, so a typo leaves nothing behind. */
async function readFiles(paths: string[]): Promise<{ name: string; bytes: Buffer }[]> {
  const files: { name: string; bytes: Buffer }[] = [];
  for (const path of paths) {
    try {
      files.push({ name: basename(path), bytes: await readFile(path) });
    } catch (error) {
      throw new Refusal(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}.`);
    }
  }
  return files;
}

/** One API request; the answers no step can go on from (token, scope, rate limit, server failure) are refusals here. */
async function call(hub: Hub, method: string, path: string, body?: unknown): Promise<Answer> {
  const { base, token } = hub;
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    payload = JSON.stringify(body);
    headers['content-type'] = 'application/json';
  }
  let res: Response;
  try {
    res = await fetch(base + path, { method, headers, body: payload });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new Refusal(`cannot reach the hub at ${base} (${cause?.code ?? cause?.message ?? (error as Error).message}). Check the address and that the hub is running.`);
  }
  const text = await res.text();
  let parsed: any;
  try { parsed = text ? JSON.parse(text) : {}; } catch { parsed = { message: text.slice(0, 200) }; }
  if (res.status === 401) throw new Refusal(`the hub refused the token (401: ${parsed.message ?? 'unauthorized'}). Create a new one at ${base}/profile/tokens.`);
  if (res.status === 403 && /scope/i.test(parsed.message ?? '')) throw new Refusal(`the token cannot publish: ${parsed.message} Create one with the write scope at ${base}/profile/tokens.`);
  if (res.status === 429) throw new Refusal(`the hub limits requests per token; try again in ${res.headers.get('retry-after') ?? 'a few'} seconds.`);
  if (res.status >= 500) throw new Refusal(`the hub failed (${res.status}: ${parsed.error ?? parsed.message ?? 'server error'}).`);
  return { status: res.status, body: parsed };
}

async function publish(options: RemotePublishOptions, io: Output, env: NodeJS.ProcessEnv): Promise<string> {
  const hub = hubOf(options, env);
  if (options.files.length === 0) throw new Refusal('name at least one model file (.uvl, FeatureIDE or SPLOT .xml, .sxfm, Glencoe .json).');
  const authors = options.authors.map(parseAuthor);
  const files = await readFiles(options.files);

  const created = await call(hub, 'POST', '/api/v1/datasets/', {
    name: options.title,
    // A deposit needs a description; without --description the title serves.
    description: options.description?.trim() || options.title,
    tags: options.tags ?? '',
    ...(authors.length > 0 ? { authors } : {}),
  });
  if (created.status !== 201) throw new Refusal(`the hub did not create the dataset (${created.status}: ${describe(created.body)}).`);
  const id = Number(created.body.id);
  io.err(`Created dataset ${id}.`);
  for (const file of files) await addFile(hub, id, file, io);
  return publishDraft(hub, id, io);
}

/** Adds one model to the draft; a refused one removes the draft (of no use without all its models). */
async function addFile(hub: Hub, id: number, file: { name: string; bytes: Buffer }, io: Output): Promise<void> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(file.bytes)]), file.name);
  const added = await call(hub, 'POST', `/api/v1/datasets/${id}/files`, form);
  if (added.status !== 201) {
    const details = Array.isArray(added.body.errors) ? added.body.errors.map((e: string) => `\n  ${e}`).join('') : '';
    // The draft is of no use without all its models: it goes, so that a fixed run starts afresh.
    const removed = await call(hub, 'DELETE', `/api/v1/datasets/${id}`).then((r) => r.status === 204, () => false);
    throw new Refusal(`${file.name} was refused (${added.status}: ${added.body.message ?? describe(added.body)})${details}\n${removed ? 'Nothing was published; the draft dataset was removed.' : `Nothing was published; the draft dataset ${id} is left on the hub.`}`);
  }
  io.err(`Added ${file.name} (file ${added.body.file_id}).`);
  // A model of another format was converted to UVL by the hub (issue 27): say what was lost.
  if (added.body.original) {
    const losses: string[] = Array.isArray(added.body.losses) ? added.body.losses : [];
    io.err(`  converted from ${added.body.original.format} to ${added.body.file_name}: ${losses.length === 0 ? 'nothing was lost.' : `${losses.length} loss(es):`}`);
    for (const loss of losses) io.err(`  - ${loss}`);
  }
}

/** Publishes the draft and answers its DOI; a failed deposit says where the saved dataset is. */
async function publishDraft(hub: Hub, id: number, io: Output): Promise<string> {
  const { base } = hub;
  const published = await call(hub, 'POST', `/api/v1/datasets/${id}/publish`);
  if (published.status === 200 && published.body.status === 'ok') {
    io.err(`Published: ${published.body.url}`);
    return String(published.body.doi);
  }
  if (published.status === 200 && published.body.status === 'partial') {
    throw new Refusal(`the deposit failed: ${published.body.message}\nThe dataset is saved but unsynchronized: ${base}/dataset/unsynchronized/${id}/ (publish it again with POST ${base}/api/v1/datasets/${id}/publish).`);
  }
  throw new Refusal(`the hub did not publish the dataset (${published.status}: ${describe(published.body)}). It is at ${base}/dataset/unsynchronized/${id}/.`);
}

export interface RemoteImportOptions {
  url?: string;
  token?: string;
  /** The source: a model file's URL, a zip archive's, a Zenodo record's URL or DOI. */
  source: string;
  /** An unsynchronized dataset of the token's owner; without it a new one titled `title`. */
  dataset?: string;
  title?: string;
  publish: boolean;
}

/** Imports the source into a dataset (new unless --dataset), publishes it with --publish; prints the dataset id, or the DOI. */
export async function remoteImport(options: RemoteImportOptions, io: Output, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  try {
    const hub = hubOf(options, env);
    if (options.dataset !== undefined && !/^\d{1,10}$/.test(options.dataset)) throw new Refusal(`--dataset "${options.dataset}" is not a dataset id.`);
    let id = options.dataset === undefined ? 0 : Number(options.dataset);
    if (id === 0) {
      const title = options.title?.trim() || options.source;
      const created = await call(hub, 'POST', '/api/v1/datasets/', { name: title, description: `Imported from ${options.source}` });
      if (created.status !== 201) throw new Refusal(`the hub did not create the dataset (${created.status}: ${describe(created.body)}).`);
      id = Number(created.body.id);
      io.err(`Created dataset ${id}.`);
    }
    const imported = await call(hub, 'POST', `/api/v1/datasets/${id}/files/import`, { url: options.source });
    if (imported.status !== 201) throw new Refusal(`the hub did not import ${options.source} (${imported.status}: ${describe(imported.body)}). The dataset ${id} is on the hub.`);
    for (const file of imported.body.files) io.err(`Added ${file.file_name} (file ${file.file_id}).`);
    for (const refused of imported.body.refused) io.err(`Refused ${refused.name}: ${refused.message}`);
    io.out(options.publish ? await publishDraft(hub, id, io) : String(id));
    return 0;
  } catch (error) {
    if (error instanceof Refusal) {
      io.err(`hub remote import: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

function describe(body: any): string {
  if (body && typeof body.message === 'string') {
    const errors = body.errors && typeof body.errors === 'object' ? ` ${JSON.stringify(body.errors)}` : '';
    return body.message + errors;
  }
  return JSON.stringify(body);
}

export function registerRemoteCommands(program: Command): void {
  const remote = program.command('remote').description('Work with a hub over its API (a personal access token)');
  remote.command('publish')
    .description('Create a dataset on a hub, add the models, publish it and print its DOI')
    .argument('<files...>', 'model files: .uvl, or FeatureIDE/SPLOT .xml, .sxfm, Glencoe .json (converted to UVL by the hub)')
    .option('--url <url>', 'the hub, e.g. https://hub.example.org (default: HUB_URL)')
    .option('--token <token>', 'a personal access token with the write scope (default: HUB_TOKEN)')
    .requiredOption('--title <title>', 'dataset title')
    .option('--description <text>', 'dataset description')
    .option('--tags <a,b>', 'comma-separated tags')
    .option('--author <Name;Affiliation;ORCID>', 'an author (repeat for several; default: the token owner\'s profile)', (value: string, all: string[]) => [...all, value], [] as string[])
    .action(async (files: string[], opts: { url?: string; token?: string; title: string; description?: string; tags?: string; author: string[] }) => {
      process.exitCode = await remotePublish(
        { url: opts.url, token: opts.token, title: opts.title, description: opts.description, tags: opts.tags, authors: opts.author, files },
        { out: (line) => process.stdout.write(`${line}\n`), err: (line) => process.stderr.write(`${line}\n`) },
      );
    });
  remote.command('import')
    .description('Have the hub fetch the models of a URL (a model file, a zip archive, a Zenodo record or DOI) into a dataset; prints its id, or its DOI with --publish')
    .argument('<source>', 'the URL or DOI to import')
    .option('--url <url>', 'the hub, e.g. https://hub.example.org (default: HUB_URL)')
    .option('--token <token>', 'a personal access token with the write scope (default: HUB_TOKEN)')
    .option('--dataset <id>', 'an unsynchronized dataset of yours (default: a new one)')
    .option('--title <title>', 'the new dataset\'s title (default: the source)')
    .option('--publish', 'publish the dataset afterwards and print its DOI', false)
    .action(async (source: string, opts: { url?: string; token?: string; dataset?: string; title?: string; publish: boolean }) => {
      process.exitCode = await remoteImport(
        { url: opts.url, token: opts.token, source, dataset: opts.dataset, title: opts.title, publish: opts.publish },
        { out: (line) => process.stdout.write(`${line}\n`), err: (line) => process.stderr.write(`${line}\n`) },
      );
    });
}
