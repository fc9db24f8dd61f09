// Static assets (vendor packages, core and module assets) served from memory: each file is
// read once, with a strong ETag and Last-Modified (304 on a matching If-None-Match or
// If-Modified-Since) and, for text types, gzip and brotli forms compressed once and sent to
// clients that accept them. Answered from an onRequest hook placed before the session
// plugin, so an asset request never loads or writes a session (issue 12, item 1).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { brotliCompress, constants as zlib, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { clientHasCurrent } from './conditional.ts';

const TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.scss': 'text/plain; charset=utf-8',
  '.ts': 'text/plain; charset=utf-8',
};
/** Types worth compressing (fonts and images are compressed already). */
const COMPRESSIBLE = new Set(['.css', '.js', '.mjs', '.map', '.json', '.svg', '.txt', '.scss', '.ts']);
/** Smaller files go out as they are: compression would not save a packet. */
const MIN_COMPRESS_BYTES = 1024;
/** In development a file is looked at again on disk at most this often (edits show up). */
const RECHECK_MS = 1000;

interface Loaded {
  body: Buffer;
  gzip?: Buffer;
  br?: Buffer;
  /** Hash of the content, the ETag without quotes and encoding suffix. */
  tag: string;
  mtimeMs: number;
  lastModified: string;
  checkedAt: number;
}

interface Asset {
  file: string;
  ext: string;
  cacheControl: string;
  loaded?: Loaded;
}

export class AssetTable {
  private readonly assets = new Map<string, Asset>();

  constructor(private readonly recheck: boolean) {}

  /** Registers every file under `root` at `<prefix><relative path>`. */
  add(root: string, prefix: string, maxAgeSeconds = 0): void {
    const walk = (dir: string): void => {
      let entries;
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        return; // a module without assets folder
      }
      for (const entry of entries) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.isFile()) {
          const ext = entry.name.includes('.') ? entry.name.slice(entry.name.lastIndexOf('.')).toLowerCase() : '';
          this.assets.set(prefix + relative(root, path).split(sep).join('/'), {
            file: path, ext, cacheControl: `public, max-age=${maxAgeSeconds}`,
          });
        }
      }
    };
    walk(root);
  }

  has(path: string): boolean {
    return this.assets.has(path);
  }

  /**
   * onRequest hook: answers GET and HEAD of a known asset; anything else goes on to the routes.
   * A callback hook (no promise per request): it answers by sending without calling `done`.
   */
  hook = (request: FastifyRequest, reply: FastifyReply, done: () => void): void => {
    if (!this.answer(request, reply)) done();
  };

  /** Sends the asset the request asks for; false when it names none. */
  private answer(request: FastifyRequest, reply: FastifyReply): boolean {
    if (request.method !== 'GET' && request.method !== 'HEAD') return false;
    const url = request.url;
    const q = url.indexOf('?');
    let path = q < 0 ? url : url.slice(0, q);
    let asset = this.assets.get(path);
    if (!asset && path.includes('%')) {
      try { path = decodeURIComponent(path); } catch { return false; }
      asset = this.assets.get(path);
    }
    if (!asset) return false;
    const loaded = this.load(asset);
    if (!loaded) return false; // removed from disk since startup: the ordinary 404
    reply.header('cache-control', asset.cacheControl);
    reply.header('last-modified', loaded.lastModified);
    const compressible = loaded.gzip !== undefined;
    if (compressible) reply.header('vary', 'accept-encoding');
    const encoding = compressible ? chooseEncoding(request.headers['accept-encoding'], loaded) : undefined;
    const tag = `"${loaded.tag}${encoding === 'br' ? '-br' : encoding === 'gzip' ? '-gz' : ''}"`;
    reply.header('etag', tag);
    if (clientHasCurrent(request, loaded.tag, loaded.mtimeMs)) {
      reply.code(304).send();
      return true;
    }
    reply.type(TYPES[asset.ext] ?? 'application/octet-stream');
    if (encoding) reply.header('content-encoding', encoding);
    reply.send(encoding === 'br' ? loaded.br : encoding === 'gzip' ? loaded.gzip : loaded.body);
    return true;
  }

  private load(asset: Asset): Loaded | undefined {
    const now = Date.now();
    const current = asset.loaded;
    if (current && (!this.recheck || now - current.checkedAt < RECHECK_MS)) return current;
    let mtimeMs: number;
    try {
      mtimeMs = statSync(asset.file).mtimeMs;
    } catch {
      asset.loaded = undefined;
      return undefined;
    }
    if (current && current.mtimeMs === mtimeMs) {
      current.checkedAt = now;
      return current;
    }
    const body = readFileSync(asset.file);
    const loaded: Loaded = {
      body,
      tag: createHash('sha256').update(body).digest('base64url').slice(0, 27),
      mtimeMs,
      lastModified: new Date(mtimeMs).toUTCString(),
      checkedAt: now,
    };
    if (COMPRESSIBLE.has(asset.ext) && body.length >= MIN_COMPRESS_BYTES) {
      loaded.gzip = gzipSync(body, { level: 9 });
      // Brotli at its best quality takes a while on the larger files: done off the event loop,
      // gzip is served until it is ready.
      brotliCompress(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } }, (error, br) => {
        if (!error) loaded.br = br;
      });
    }
    asset.loaded = loaded;
    return loaded;
  }
}

/** The best encoding the client accepts (q=0 refuses one) among those ready for this body. */
export function chooseEncoding(header: string | undefined, loaded: { gzip?: Buffer; br?: Buffer }): 'br' | 'gzip' | undefined {
  if (!header) return undefined;
  const accepted = new Set<string>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q && Number(q.slice(2)) === 0) continue;
    if (name) accepted.add(name.trim());
  }
  if (loaded.br && (accepted.has('br') || accepted.has('*'))) return 'br';
  if (loaded.gzip && (accepted.has('gzip') || accepted.has('*'))) return 'gzip';
  return undefined;
}
