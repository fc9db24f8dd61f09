// The editor's browser bundle, built by the hub itself with esbuild from the same sources the
// server runs (packages/uvl, packages/analysis, the model module's diagram): never a second copy.
// Built on the first request for it (or by `npm run build`), cached on disk under .cache/editor/
// keyed by a fingerprint of the sources, so a restart reuses it and an edit rebuilds it. Code
// split: the page's entry, the panel chunk and the worker's engine load separately.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { projectPath } from '../../core/config.ts';

/** The folders whose files go into the bundle: a change in any of them makes a new one. */
const SOURCE_DIRS = ['packages/uvl/src', 'packages/analysis/src', 'src/modules/editor/client', 'src/modules/model'];
const ENTRY_POINTS = { editor: 'src/modules/editor/client/editor.ts', 'analysis.worker': 'src/modules/editor/client/analysis.worker.ts' };
export const BUNDLE_CACHE = projectPath('.cache', 'editor');

export interface BundleFile {
  body: Buffer;
  gzip: Buffer;
  etag: string;
  type: string;
}

export interface EditorBundle {
  /** File names (with their content hash) by path under /editor/bundle/. */
  files: Map<string, BundleFile>;
  /** The page's entry script and the worker's, as served names. */
  editor: string;
  worker: string;
}

function fingerprint(): string {
  const hash = createHash('sha256');
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name)) {
        const s = statSync(path);
        hash.update(`${relative(projectPath(), path)}:${s.size}:${s.mtimeMs}\n`);
      }
    }
  };
  for (const dir of SOURCE_DIRS) walk(projectPath(dir));
  hash.update(readFileSync(projectPath('package-lock.json')));
  return hash.digest('hex').slice(0, 16);
}

/** Builds into a temporary folder renamed into place, so a concurrent build never leaves half a bundle. */
async function buildInto(target: string): Promise<void> {
  const esbuild = await import('esbuild');
  const temporary = `${target}.tmp-${process.pid}-${Date.now()}`;
  try {
    await esbuild.build({
      absWorkingDir: projectPath(),
      entryPoints: ENTRY_POINTS,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'browser',
      target: ['chrome110', 'firefox110', 'safari16'],
      minify: true,
      sourcemap: false,
      outdir: temporary,
      entryNames: '[name]-[hash]',
      chunkNames: 'chunks/[name]-[hash]',
      metafile: false,
      logLevel: 'silent',
    });
    mkdirSync(BUNDLE_CACHE, { recursive: true });
    try {
      renameSync(temporary, target);
    } catch (error) {
      if (!existsSync(target)) throw error; // another process placed the same bundle first
    }
    pruneOthers(target);
  } finally {
    rmSync(temporary, { recursive: true, force: true });
  }
}

/** Bundles of earlier sources go once a new one is in place (each is loaded into memory when served). */
function pruneOthers(current: string): void {
  for (const entry of readdirSync(BUNDLE_CACHE, { withFileTypes: true })) {
    const path = join(BUNDLE_CACHE, entry.name);
    if (entry.isDirectory() && path !== current && !entry.name.includes('.tmp-')) rmSync(path, { recursive: true, force: true });
  }
}

function load(folder: string): EditorBundle {
  const files = new Map<string, BundleFile>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else {
        const body = readFileSync(path);
        files.set(relative(folder, path).split('\\').join('/'), {
          body, gzip: gzipSync(body, { level: 9 }), etag: `"${createHash('sha256').update(body).digest('hex').slice(0, 20)}"`,
          type: 'text/javascript; charset=utf-8',
        });
      }
    }
  };
  walk(folder);
  const entry = (prefix: string) => [...files.keys()].find((name) => name.startsWith(`${prefix}-`) && !name.includes('/'))!;
  return { files, editor: entry('editor'), worker: entry('analysis.worker') };
}

/** The bundle of the current sources, built when missing. */
export async function editorBundle(): Promise<EditorBundle> {
  const folder = join(BUNDLE_CACHE, fingerprint());
  if (!existsSync(folder)) await buildInto(folder);
  return load(folder);
}

/** One build per process, started by the first request that needs it. */
export function bundleOnce(): () => Promise<EditorBundle> {
  let pending: Promise<EditorBundle> | undefined;
  return () => {
    pending ??= editorBundle().catch((error) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
}
