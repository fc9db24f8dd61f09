// HTTP benchmark (npm run bench:http): starts the hub in a child process on a fresh, seeded
// SQLite database, uploads a 50 MB dataset of generated valid UVL models through the real
// upload flow, then drives autocannon at the DOI page, the file view, the model check and the
// zip download, printing requests/s, latency and the server's resident memory (sampled from
// /proc/<pid>/status while each scenario runs, plus the peak VmHWM). It prints figures; it
// asserts nothing.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { freePort } from '../test/support/ports.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { projectPath } from '../src/core/config.ts';
import { TestClient } from '../test/support/client.ts';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const BIG_FILES = 5;
const BIG_FILE_BYTES = 10 * 1024 * 1024;


/** A valid UVL model of about `bytes` bytes: nested groups of features with attributes, and constraints. */
function bigModel(index: number, bytes: number): string {
  const lines = [`namespace Generated${index}`, '', 'features', `    Root${index} {abstract}`, '        optional'];
  let size = lines.join('\n').length;
  const names: string[] = [];
  for (let group = 0; size < bytes - 200; group++) {
    const head = `            Group${index}_${group} {price ${group % 97}, vendor 'Vendor ${group % 13}'}`;
    lines.push(head, `                ${group % 2 === 0 ? 'alternative' : 'or'}`);
    size += head.length + 30;
    for (let leaf = 0; leaf < 8; leaf++) {
      const name = `F${index}_${group}_${leaf}`;
      const line = `                    ${name} {weight ${leaf + 1}, label 'Option ${leaf} of group ${group}'}`;
      lines.push(line);
      names.push(name);
      size += line.length + 1;
    }
  }
  lines.push('', 'constraints');
  for (let i = 0; i + 9 < names.length && i < 8000; i += 9) lines.push(`    ${names[i]} => !${names[i + 9]}`);
  return `${lines.join('\n')}\n`;
}

function memory(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

const mb = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;

async function waitReady(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch { /* not listening yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the server did not become ready');
}

async function scenario(pid: number, title: string, options: autocannon.Options): Promise<void> {
  let peak = memory(pid).rss;
  const sampler = setInterval(() => { peak = Math.max(peak, memory(pid).rss); }, 25);
  const result = await autocannon({ duration: DURATION, connections: 10, ...options });
  clearInterval(sampler);
  const ok = result['2xx'];
  const bad = result.non2xx + result.errors + result.timeouts;
  console.log(`\n${title}`);
  console.log(`  requests/s  avg ${result.requests.average.toFixed(1)}   (2xx ${ok}, other ${bad})`);
  console.log(`  latency ms  avg ${result.latency.average.toFixed(1)}   p50 ${result.latency.p50}   p99 ${result.latency.p99}   max ${result.latency.max}`);
  console.log(`  throughput  ${mb(result.throughput.average)}/s`);
  console.log(`  server RSS  peak ${mb(peak)} during the run`);
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'hub-bench-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const extraArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  // Production settings (cached templates, no auto-seeding), so the database is seeded first by the CLI.
  const env = {
    ...process.env,
    PORT: String(port), HOST: '127.0.0.1', WORKING_DIR: work, DATABASE_URL: `sqlite:${join(work, 'hub.sqlite')}`,
    FLASK_ENV: 'production', LOG_LEVEL: 'warn', SECRET_KEY: 'bench-secret-key-long-enough-for-sessions',
    DOMAIN: `127.0.0.1:${port}`, ZENODO_ACCESS_TOKEN: '', MAX_UPLOAD_BYTES: String(BIG_FILE_BYTES + 1024 * 1024),
    HUB_MODULES_FILE: projectPath('modules.json'),
  };
  const seed = spawnSync(process.execPath, ['--import', 'tsx', ...extraArgs, projectPath('src/cli/hub.ts'), 'db:seed'], { cwd: projectPath(), env, stdio: 'inherit' });
  if (seed.status !== 0) throw new Error('hub db:seed failed');
  const child = spawn(process.execPath, ['--import', 'tsx', ...extraArgs, projectPath('src/app/server.ts')], {
    cwd: projectPath(), env, stdio: ['ignore', 'inherit', 'inherit'],
  });
  try {
    await waitReady(`${base}/`, child);
    const pid = child.pid!;
    console.log(`hub on ${base} (pid ${pid}), seeded; RSS after start ${mb(memory(pid).rss)}`);

    // Production cookies are Secure: the loopback address is a trusted proxy, so say the visit came over HTTPS.
    const https = { 'x-forwarded-proto': 'https' };
    const client = new TestClient(base);
    await client.get('/login', https);
    const login = await client.post('/login', { form: { email: 'user1@example.com', password: '1234' }, headers: https });
    if (login.status !== 302) throw new Error(`login failed: ${login.status}`);
    await client.get('/dataset/upload', https);
    const names: string[] = [];
    let total = 0;
    for (let i = 0; i < BIG_FILES; i++) {
      const text = bigModel(i, BIG_FILE_BYTES);
      total += Buffer.byteLength(text);
      const form = new FormData();
      form.append('file', new Blob([text]), `generated-${i}.uvl`);
      const staged = await client.post('/dataset/file/upload', { body: form, headers: https });
      if (staged.status !== 200 || !staged.json.valid) throw new Error(`staging failed: ${staged.status} ${staged.text.slice(0, 300)}`);
      names.push(staged.json.filename);
    }
    const fields: Record<string, string> = { title: 'Benchmark dataset', desc: 'Generated models', publication_type: 'none' };
    names.forEach((n, j) => { fields[`feature_models-${j}-uvl_filename`] = n; });
    const started = Date.now();
    const uploaded = await client.post('/dataset/upload', { form: fields, headers: https });
    if (uploaded.json?.status !== 'ok') throw new Error(`upload failed: ${uploaded.status} ${uploaded.text.slice(0, 300)}`);
    console.log(`uploaded a ${mb(total)} dataset of ${BIG_FILES} models in ${Date.now() - started} ms; RSS now ${mb(memory(pid).rss)}, peak so far ${mb(memory(pid).hwm)}`);

    const list = await new TestClient(base).get('/api/v1/datasets/');
    const sample = list.json.items.find((d: { name: string }) => d.name === 'Sample dataset 1');
    const fileId = sample.files[0].file_id;

    await scenario(pid, 'GET /doi/10.1234/dataset1/ (anonymous, new visitor each time: a view record per request)', { url: `${base}/doi/10.1234/dataset1/` });
    await scenario(pid, `GET /file/view/${fileId}`, { url: `${base}/file/view/${fileId}` });
    await scenario(pid, `GET /modeltool/check_uvl/${fileId}`, { url: `${base}/modeltool/check_uvl/${fileId}` });
    await scenario(pid, `GET /dataset/download/${uploaded.json.dataset_id} (zip of ${mb(total)}, streamed)`, {
      url: `${base}/dataset/download/${uploaded.json.dataset_id}`, connections: 4, duration: Math.max(DURATION, 15),
    });
    console.log(`\nserver peak RSS over the whole run (VmHWM, includes the upload's parsing): ${mb(memory(pid).hwm)}`);
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
