// The short soak of CI (issue 26, item 3): `npm run soak` for 20 s, two instances on the
// PostgreSQL of TEST_DATABASE_URLS (else one SQLite file) and the test S3 server; it must exit 0
// (no request failed, every confirmed upload there, every count exact, memory within 10 %).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { projectPath } from '../../src/core/config.ts';

const postgres = (process.env.TEST_DATABASE_URLS ?? '').split(',').map((u) => u.trim()).find((u) => u.startsWith('postgres'));

describe('soak (short)', () => {
  it(`two instances on ${postgres ? 'PostgreSQL' : 'SQLite'} and S3 for 20 s: no error, nothing lost, counts exact, memory steady`, async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/load/soak.ts'], {
      cwd: projectPath(),
      env: { ...process.env, SOAK_SECONDS: '20', SOAK_DATABASE_URL: postgres ?? 'sqlite:' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => { output += chunk; });
    child.stderr.on('data', (chunk) => { output += chunk; });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    assert.equal(code, 0, output.slice(-4000));
    for (const line of [/^DOI page +\d+ +0 /m, /^upload page: submit +\d+ +0 /m, /^upload API: add file +\d+ +0 /m, /^publish \(API\) +\d+ +0 /m, /^explore search/m, /^ok +uploads: [1-9]/m, /^ok +counts: /m, /^ok +memory after a collection, /m, /Soak passed\./]) {
      assert.match(output, line);
    }
  });
});
