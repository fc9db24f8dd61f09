// Modeltool service rules that need no stored file: an unknown export target is refused
// before any database access (specification, modeltool rule 4), cleanup removes only what the
// service made, and the text operations the dataset module uses (contract).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../core/config.ts';
import type { ModuleContext } from '../../core/modules.ts';
import { createModeltoolService, UnknownExportTargetError } from './modeltool.service.ts';

/** A context whose database and peer services fail the test as soon as anything reaches them. */
function untouchableContext(touched: string[]): ModuleContext {
  const trap = (what: string) => new Proxy({}, {
    get(_target, property) {
      touched.push(`${what}.${String(property)}`);
      throw new Error(`${what} was touched (${String(property)})`);
    },
  });
  const log = { warn() {}, error() {}, info() {}, debug() {} } as unknown as ModuleContext['log'];
  return {
    config: loadConfig({ WORKING_DIR: tmpdir() }),
    db: trap('db') as ModuleContext['db'],
    store: trap('store') as ModuleContext['store'],
    services: trap('services') as ModuleContext['services'],
    scheduler: trap('scheduler') as ModuleContext['scheduler'],
    events: { on() {}, async emit() {} },
    log,
    isEnabled: () => true,
  };
}

describe('modeltool service', () => {
  it('refuses an unknown export target with a value error before any database access', async () => {
    const touched: string[] = [];
    const service = createModeltoolService(untouchableContext(touched));
    for (const target of ['pdf', 'GLENCOE', '', 'toString', '__proto__', 'constructor']) {
      await assert.rejects(service.export(1, target), (error: unknown) => {
        assert.ok(error instanceof UnknownExportTargetError, `${JSON.stringify(target)}: ${String(error)}`);
        assert.match(error.message, /glencoe, splot, cnf/);
        return true;
      });
    }
    assert.deepEqual(touched, []);
  });

  it('does reach for the stored file once the target is known (the trap above is live)', async () => {
    const touched: string[] = [];
    const service = createModeltoolService(untouchableContext(touched));
    await assert.rejects(service.export(1, 'cnf'), /was touched/);
    assert.ok(touched.length > 0);
  });

  it('cleanup removes nothing it did not make', async () => {
    const service = createModeltoolService(untouchableContext([]));
    const foreign = mkdtempSync(join(tmpdir(), 'hub-modeltool-'));
    try {
      await service.cleanup(join(foreign, 'file_1.cnf'));
      assert.ok(existsSync(foreign), 'a folder of the right name but not made by this service stays');
      await service.cleanup('/');
      await service.cleanup(join(tmpdir(), 'nothing-here', 'x.json'));
    } finally {
      rmSync(foreign, { recursive: true, force: true });
    }
  });

  it('checkText answers the validation of a text, with "Line <l>:<c> - <message>" strings', () => {
    const service = createModeltoolService(untouchableContext([]));
    assert.deepEqual(service.checkText('features\n    Root\n        optional\n            A\n'), { valid: true, errors: [], warnings: [] });
    const broken = service.checkText('features\n    Root\n        optional\n            A {\n');
    assert.equal(broken.valid, false);
    assert.match(broken.errors[0]!, /^Line \d+:\d+ - /);
    const tabbed = service.checkText('features\n\tA\n\t\toptional\n\t\t\tB\nconstraints\n\tA\n\t\tB\n');
    assert.equal(tabbed.valid, true, 'tab hints are warnings');
    assert.equal(tabbed.warnings.length, 1);
  });

  it('countFeatures counts every node of the feature tree, as flamapy does', () => {
    const service = createModeltoolService(untouchableContext([]));
    assert.equal(service.countFeatures('features\n    Root\n        optional\n            A\n            B\n        mandatory\n            C\n'), 4);
    assert.equal(service.countFeatures(''), 0);
  });
});
