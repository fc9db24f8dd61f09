import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { CrashReply } from '../worker-slot.ts';
import { Scheduler, TooManyJobs, type Lane, type WorkerKind } from './scheduler.ts';
import type { GateJob, GateReply } from './scheduler.test-support.ts';

const kind: WorkerKind<GateJob, GateReply> = {
  name: 'gate',
  options: {
    script: new URL('./scheduler.test-support.ts', import.meta.url),
    resourceLimits: { maxOldGenerationSizeMb: 64 },
    crash: { error: (e) => `error ${e.message}`, exit: (c) => `exit ${c}`, overrun: () => 'overran' },
  },
};
const schedulers: Scheduler[] = [];
after(() => { for (const s of schedulers) s.close(); });

/** Kinds with a memory budget, on the same gate worker. */
const heavy = (name: string, memoryMb: number): WorkerKind<GateJob, GateReply> => ({ ...kind, name, memoryMb });

/** A scheduler with its gates: every job waits on its own gate until open(gate). */
function setup(seats: Record<Lane, number>, memoryMb?: number) {
  const scheduler = new Scheduler({ perRequester: 4, seats, memoryMb });
  schedulers.push(scheduler);
  const shared = new Int32Array(new SharedArrayBuffer(4 * 64));
  let ids = 0;
  const submit = (requester: string, lane: Lane, extra: { placement?: string; flexible?: boolean; long?: boolean } = {}, of = kind) => {
    const id = ++ids;
    const reply = scheduler.submit(of, { requester, lane, job: { id, shared, gate: id }, hardLimitMs: 120_000, ...extra });
    return { id, reply: reply.then(orderOf) };
  };
  const open = (gate: number) => { Atomics.store(shared, 1 + gate, 1); Atomics.notify(shared, 1 + gate); };
  return { scheduler, submit, open, openAll: () => { for (let g = 1; g <= ids; g++) open(g); } };
}
const orderOf = (reply: GateReply | CrashReply) => {
  assert.equal(reply.kind, 'done', JSON.stringify(reply));
  return (reply as GateReply).order;
};

describe('Scheduler', () => {
  it('takes jobs round robin across requesters: a newcomer\'s job runs before the 2nd of one who queued 4', async () => {
    const { submit, openAll } = setup({ small: 1, large: 1 });
    const a = [submit('a', 'large'), submit('a', 'large'), submit('a', 'large'), submit('a', 'large')];
    const b = submit('b', 'large');
    openAll();
    const orders = await Promise.all([...a, b].map((j) => j.reply));
    assert.deepEqual(orders, [1, 3, 4, 5, 2]);
  });

  it('refuses a 5th job of one requester (TooManyJobs) while another requester still gets in', async () => {
    const { scheduler, submit, openAll } = setup({ small: 1, large: 1 });
    const held = [1, 2, 3, 4].map(() => submit('a', 'large'));
    assert.throws(() => submit('a', 'large'), (error: unknown) => error instanceof TooManyJobs && error.retryAfterS > 0);
    assert.equal(scheduler.heldBy('a'), 4);
    const other = submit('b', 'small');
    openAll();
    await Promise.all([...held, other].map((j) => j.reply));
    assert.equal(scheduler.heldBy('a'), 0);
    // Room again once the jobs answered.
    const again = submit('a', 'large');
    openAll();
    await again.reply;
  });

  it('lets submitWhenRoom wait for room instead of refusing, and go when one of the 4 ends', async () => {
    const { scheduler, submit, open, openAll } = setup({ small: 1, large: 2 });
    const held = [1, 2, 3, 4].map(() => submit('a', 'large'));
    let waited = false;
    const shared = new Int32Array(new SharedArrayBuffer(4 * 8));
    Atomics.store(shared, 1, 1);
    const fifth = scheduler.submitWhenRoom(kind, { requester: 'a', lane: 'large', job: { id: 50, shared, gate: 0 }, hardLimitMs: 60_000 }).then((reply) => { waited = true; return reply; });
    assert.equal(scheduler.heldBy('a'), 4);
    open(held[0]!.id);
    await held[0]!.reply;
    openAll();
    assert.equal((await fifth).kind, 'done');
    assert.equal(waited, true);
    await Promise.all(held.map((j) => j.reply));
  });

  it('lets at most 4 submitWhenRoom calls wait per requester: the next one is refused with TooManyJobs', async () => {
    const { scheduler, submit, openAll } = setup({ small: 1, large: 2 });
    const held = [1, 2, 3, 4].map(() => submit('a', 'large'));
    const shared = new Int32Array(new SharedArrayBuffer(4 * 8));
    Atomics.store(shared, 1, 1);
    const wait = (id: number) => scheduler.submitWhenRoom(kind, { requester: 'a', lane: 'large', job: { id, shared, gate: 0 }, hardLimitMs: 60_000 });
    const waiting = [60, 61, 62, 63].map(wait);
    await assert.rejects(wait(64), TooManyJobs);
    openAll();
    await Promise.all(held.map((j) => j.reply));
    for (const reply of await Promise.all(waiting)) assert.equal(reply.kind, 'done');
  });

  it('lets background work take at most half the share: the person\'s own jobs still get in, 4 in all, then 429', async () => {
    const { scheduler, submit, openAll } = setup({ small: 1, large: 1 });
    const shared = new Int32Array(new SharedArrayBuffer(4 * 8));
    Atomics.store(shared, 1, 1);
    const page = (id: number) => scheduler.submitWhenRoom(kind, { requester: 'a', lane: 'large', job: { id, shared, gate: 0 }, hardLimitMs: 60_000, background: true });
    // Six checks of a page at once: two hold jobs, four wait in places of their own.
    const checks = [70, 71, 72, 73, 74, 75].map(page);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(scheduler.backgroundShare, 2);
    assert.equal(scheduler.heldBy('a'), 2);
    assert.equal(scheduler.heldInBackgroundBy('a'), 2);
    await assert.rejects(page(76), TooManyJobs, 'a seventh page check is a flood');
    assert.throws(() => scheduler.submit(kind, { requester: 'a', lane: 'large', job: { id: 77, shared, gate: 0 }, hardLimitMs: 60_000, background: true }), TooManyJobs);
    // What the person asks for meanwhile gets in, and waits for room in its own places...
    const own = [submit('a', 'large'), submit('a', 'large')];
    assert.equal(scheduler.heldBy('a'), 4);
    const ownWaiting = scheduler.submitWhenRoom(kind, { requester: 'a', lane: 'large', job: { id: 78, shared, gate: 0 }, hardLimitMs: 60_000 });
    // ...but the requester still holds at most 4: a fifth job is refused.
    assert.throws(() => submit('a', 'large'), TooManyJobs);
    openAll();
    await Promise.all(own.map((j) => j.reply));
    for (const reply of await Promise.all([...checks, ownWaiting])) assert.equal(reply.kind, 'done');
    assert.equal(scheduler.heldBy('a'), 0);
    assert.equal(scheduler.heldInBackgroundBy('a'), 0);
  });

  it('wakes a waiting call with room even when a background call before it has none', async () => {
    const { scheduler, submit, open, openAll } = setup({ small: 1, large: 4 });
    const gates = new Int32Array(new SharedArrayBuffer(4 * 8));
    const background = (id: number) => scheduler.submitWhenRoom(kind, { requester: 'a', lane: 'large', job: { id, shared: gates, gate: 0 }, hardLimitMs: 60_000, background: true });
    const page = [background(80), background(81)];
    const own = [submit('a', 'large'), submit('a', 'large')];
    await new Promise((resolve) => setImmediate(resolve));
    // Full: a third background call waits, then one of the person's.
    const third = background(82);
    const mine = scheduler.submitWhenRoom(kind, { requester: 'a', lane: 'large', job: { id: 83, shared: gates, gate: 0 }, hardLimitMs: 60_000 });
    // One of the person's jobs ends: the background call still has no room (two background jobs held), the person's call goes.
    open(own[0]!.id);
    await own[0]!.reply;
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(scheduler.heldBy('a'), 4, 'the person\'s waiting call took the freed place');
    assert.equal(scheduler.heldInBackgroundBy('a'), 2);
    Atomics.store(gates, 1, 1);
    Atomics.notify(gates, 1);
    openAll();
    for (const reply of await Promise.all([...page, third, mine])) assert.equal(reply.kind, 'done');
    await own[1]!.reply;
  });

  it('runs a small model\'s job while the large lane is busy and queued: it never waits behind large ones', async () => {
    const { scheduler, submit, open, openAll } = setup({ small: 1, large: 1 });
    const large = [submit('a', 'large'), submit('a', 'large'), submit('b', 'large'), submit('b', 'large')];
    const small = submit('c', 'small');
    let largeAnswered = false;
    void Promise.race(large.map((j) => j.reply)).then(() => { largeAnswered = true; });
    open(small.id);
    // The small job answers while every large job is still held (none released yet).
    await small.reply;
    assert.equal(largeAnswered, false);
    assert.equal(scheduler.queued('large'), 3);
    openAll();
    await Promise.all(large.map((j) => j.reply));
  });

  it('keeps a placement on its seat, but a flexible job does not wait behind a long one there', async () => {
    const { scheduler, submit, open, openAll } = setup({ small: 1, large: 2 });
    const compile = submit('a', 'large', { placement: '00000000', long: true });
    const strict = submit('b', 'large', { placement: '00000000' });
    const flexible = submit('c', 'large', { placement: '00000000', flexible: true });
    let strictAnswered = false;
    void strict.reply.then(() => { strictAnswered = true; });
    open(flexible.id);
    open(strict.id);
    // The flexible job went to the other seat and answered while the long one still runs; the
    // strict one (released too) still waits for its own seat.
    await flexible.reply;
    assert.equal(scheduler.queued('large'), 1);
    assert.equal(strictAnswered, false);
    openAll();
    await compile.reply;
    await strict.reply;
  });

  it('answers a closed scheduler\'s running, queued and later jobs as stopped, whatever their worker\'s exit said', async () => {
    const { scheduler } = setup({ small: 1, large: 1 });
    const job = (id: number) => ({ id, shared: new Int32Array(new SharedArrayBuffer(4 * 128)), gate: 1 });
    const running = scheduler.submit(kind, { requester: 'a', lane: 'large', job: job(96), hardLimitMs: 60_000 });
    const queued = scheduler.submit(kind, { requester: 'b', lane: 'large', job: job(95), hardLimitMs: 60_000 });
    while (scheduler.started === 0) await new Promise((resolve) => setImmediate(resolve));
    scheduler.close('closing');
    // The running job's worker is terminated (its exit): a module storing verdicts must not read it as the job's failure.
    const later = scheduler.submit(kind, { requester: 'c', lane: 'small', job: job(94), hardLimitMs: 60_000 });
    assert.deepEqual([await running, await queued, await later].map((r) => r.kind === 'crash' && r.cause), ['stopped', 'stopped', 'stopped']);
  });

  it('stops one kind of job (a module stops): running and queued ones answer a crash, the scheduler goes on', async () => {
    const { scheduler, submit, openAll } = setup({ small: 1, large: 1 });
    const running = scheduler.submit(kind, { requester: 'a', lane: 'large', job: { id: 98, shared: new Int32Array(new SharedArrayBuffer(4 * 128)), gate: 1 }, hardLimitMs: 60_000 });
    const queued = scheduler.submit(kind, { requester: 'b', lane: 'large', job: { id: 97, shared: new Int32Array(new SharedArrayBuffer(4 * 128)), gate: 1 }, hardLimitMs: 60_000 });
    while (scheduler.started === 0) await new Promise((resolve) => setImmediate(resolve));
    scheduler.stopKind('gate', 'stopping the gates');
    assert.deepEqual([await running, await queued].map((r) => r.kind === 'crash' && [r.message, r.cause]), [['stopping the gates', 'stopped'], ['stopping the gates', 'stopped']]);
    assert.equal(scheduler.heldBy('a') + scheduler.heldBy('b'), 0);
    const after = submit('c', 'large');
    openAll();
    await after.reply;
  });

  it('starts a large job only when its kind\'s memory fits HEAVY_MEMORY_MB beside the live workers; the small lane is not counted', async () => {
    const { scheduler, submit, open } = setup({ small: 1, large: 2 }, 100);
    const a = submit('a', 'large', {}, heavy('A', 60));
    const b = submit('b', 'large', {}, heavy('B', 60));
    // A free seat, but 60 + 60 MB > 100: B waits for A's memory.
    assert.equal(scheduler.started, 1);
    const small = submit('c', 'small', {}, heavy('B', 60));
    assert.equal(scheduler.started, 2, 'the small lane is not held by the large lane\'s memory');
    open(small.id);
    await small.reply;
    open(a.id);
    await a.reply;
    // A's worker, idle now, is stopped to give B its memory.
    assert.equal(scheduler.started, 3);
    const a2 = submit('a', 'large', {}, heavy('A', 60));
    assert.equal(scheduler.started, 3, 'A waits while B runs: A\'s idle worker was stopped for it');
    open(b.id);
    open(a2.id);
    assert.deepEqual(await Promise.all([a.reply, b.reply, a2.reply]).then((orders) => orders.length), 3);
  });

  it('runs jobs of a kind within the memory two at once, and a kind over the whole budget alone', async () => {
    const { scheduler, submit, open } = setup({ small: 1, large: 2 }, 100);
    const light = [submit('a', 'large', {}, heavy('L', 50)), submit('b', 'large', {}, heavy('L', 50))];
    assert.equal(scheduler.started, 2);
    const huge = submit('c', 'large', {}, heavy('H', 150));
    assert.equal(scheduler.started, 2);
    open(light[0]!.id);
    await light[0]!.reply;
    assert.equal(scheduler.started, 2, 'the huge kind waits while another worker runs');
    open(light[1]!.id);
    await light[1]!.reply;
    assert.equal(scheduler.started, 3, 'alone, it runs');
    const after = submit('a', 'large', {}, heavy('L', 50));
    assert.equal(scheduler.started, 3);
    open(huge.id);
    open(after.id);
    await Promise.all([huge.reply, after.reply]);
  });

  it('answers queued jobs with a crash when closed', async () => {
    const { scheduler, submit } = setup({ small: 1, large: 1 });
    const first = scheduler.submit(kind, { requester: 'a', lane: 'large', job: { id: 99, shared: new Int32Array(new SharedArrayBuffer(4 * 128)), gate: 1 }, hardLimitMs: 60_000 });
    const queued = submit('b', 'large');
    scheduler.close('closing');
    await assert.rejects(queued.reply, /closing/);
    assert.equal((await first).kind, 'crash');
  });
});
