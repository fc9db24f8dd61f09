// Browser journey of issue 37, item 1: the configurator's page asks for what changed (`since`)
// and applies it. On a generated model of 61 features: the first step is a compact answer (a letter per feature), each
// decision after it sends the state the page holds and gets `changed` only; what the page shows
// after decisions, an undo (no request) and a reload of its address equals the API's full answer
// for the same decisions.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page, Request } from 'playwright-core';
import { storeModel } from '../../src/modules/model/model.test-support.ts';
import { generatedModel } from '../../src/modules/configurator/configurator.test-support.ts';
import { browserSkipReason, useBrowserServer, watchPageErrors } from './support.ts';

const skip = browserSkipReason();

/** Every drawn row's state: the page draws two levels, here every feature (root, groups, their features). */
const shownStates = (page: Page) => page.$$eval('#cfg-tree li[data-feature]', (lis) => Object.fromEntries(lis.map((li) => [
  (li as HTMLElement).dataset.feature!, li.querySelector(':scope > .cfg-row > .cfg-state')!.textContent!,
])));
/** The answers are read as they come: waits until the journey's count of them is reached. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((r) => setTimeout(r, 20));
}
const idle = (page: Page) => page.waitForFunction(() => document.getElementById('configurator')?.getAttribute('aria-busy') === 'false');

describe('the configurator applies changed states in Chromium', { skip }, () => {
  const journey = useBrowserServer({ seed: true, env: { ANALYSIS_WORKERS: '0' } });

  it('decides, undoes and restores its address with answers of changes, showing the full answers\' states', async () => {
    const { server, browser } = journey;
    const { fileId } = await storeModel(server, { content: generatedModel(12), name: 'groups.uvl' });
    const full = async (decisions: { selected: string[]; deselected: string[] }) => {
      const res = await fetch(`${server.baseUrl}/api/v1/files/${fileId}/configure`, { method: 'POST', body: JSON.stringify(decisions), headers: { 'content-type': 'application/json' } });
      return (await res.json()).features as Record<string, string>;
    };
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    const steps: { body: any; answer: any }[] = [];
    page.on('requestfinished', (request: Request) => {
      if (!request.url().endsWith('/configure')) return;
      void request.response().then(async (response) => steps.push({ body: request.postDataJSON(), answer: await response!.json() }));
    });
    await page.goto(`${server.baseUrl}/model/${fileId}/`);
    await page.locator('#cfg-remaining', { hasText: /configurations remaining$/ }).waitFor();
    const drawn = async () => {
      const shown = await shownStates(page);
      return { shown, names: Object.keys(shown) };
    };
    const expectShown = async (decisions: { selected: string[]; deselected: string[] }, label: string) => {
      const { shown, names } = await drawn();
      const states = await full(decisions);
      assert.deepEqual(shown, Object.fromEntries(names.map((n) => [n, states[n]])), label);
    };
    await expectShown({ selected: [], deselected: [] }, 'the first answer');
    await until(() => steps.length >= 1);
    assert.equal(steps[0]!.body.since, undefined, 'the first step holds no state');
    assert.equal(steps[0]!.body.compact, true, 'and asks for the compact answer');
    assert.equal(steps[0]!.answer.states.length, 61, 'one letter per feature');

    // F0_0 excludes F1_1 (a constraint); then a decision in another group; each answer is changes only.
    await page.click('#cfg-tree li[data-feature="F0_0"] > .cfg-row button[data-act="select"]');
    await page.locator('#cfg-tree li[data-feature="F1_1"] > .cfg-row > .cfg-state', { hasText: 'excluded' }).waitFor();
    await idle(page);
    await expectShown({ selected: ['F0_0'], deselected: [] }, 'after selecting F0_0');
    await page.click('#cfg-tree li[data-feature="F2_3"] > .cfg-row button[data-act="deselect"]');
    await page.locator('#cfg-tree li[data-feature="F2_3"] > .cfg-row > .cfg-state', { hasText: 'deselected' }).waitFor();
    await idle(page);
    await expectShown({ selected: ['F0_0'], deselected: ['F2_3'] }, 'after deselecting F2_3');
    await until(() => steps.length >= 3);
    const decided = steps.filter((s) => s.body.since !== undefined);
    assert.ok(decided.length >= 2, 'the decisions named the state the page held');
    assert.deepEqual(decided[0]!.body.since, { selected: [], deselected: [] });
    assert.deepEqual(decided.at(-1)!.body.since, { selected: ['F0_0'], deselected: [] });
    for (const { answer } of decided) {
      assert.equal(answer.features, undefined, 'an answer of changes only');
      assert.ok(Object.keys(answer.changed).length < 20, `a few changes (${Object.keys(answer.changed).length})`);
    }
    assert.match(page.url(), /select=F0_0/);
    assert.match(page.url(), /deselect=F2_3/);

    // Undo puts the earlier states back without asking the server.
    const asked = steps.length;
    await page.click('#cfg-undo');
    await page.locator('#cfg-tree li[data-feature="F2_3"] > .cfg-row > .cfg-state', { hasText: 'open' }).waitFor();
    await expectShown({ selected: ['F0_0'], deselected: [] }, 'after undo');
    assert.equal(steps.length, asked, 'no configure request for undo');
    assert.doesNotMatch(page.url(), /deselect=/);
    // A decision after the undo names the undone state.
    await page.click('#cfg-tree li[data-feature="F1_2"] > .cfg-row button[data-act="select"]');
    await page.locator('#cfg-tree li[data-feature="F1_2"] > .cfg-row > .cfg-state', { hasText: 'selected' }).waitFor();
    await idle(page);
    await until(() => steps.length > asked);
    assert.deepEqual(steps.at(-1)!.body.since, { selected: ['F0_0'], deselected: [] });
    await expectShown({ selected: ['F0_0', 'F1_2'], deselected: [] }, 'after a decision following the undo');

    // The address restores the state: a full first answer again.
    await page.reload();
    await page.locator('#cfg-remaining', { hasText: /configurations? remaining$/ }).waitFor();
    await expectShown({ selected: ['F0_0', 'F1_2'], deselected: [] }, 'after a reload of the address');
    assert.deepEqual(errors, [], 'no script errors or failed requests');
    await context.close();
  });
});
