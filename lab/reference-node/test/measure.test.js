import assert from 'node:assert/strict';
import { test } from 'node:test';

import { batchSize, measureJob, prewarm } from '../src/measure.js';

test('an iteration holds about iteration-time-ms of calls, a multiple of the unroll', () => {
  assert.equal(batchSize(1_000_000, 100), 100);
  assert.equal(batchSize(30_000_000, 100), 4);
  assert.equal(batchSize(100, 100) % 4, 0);
  assert.equal(batchSize(100, 100), 1_000_000);
});

test('prewarm stops when two windows agree, or at its cap', () => {
  const stable = prewarm(() => Math.sqrt(2), 2000, 50);
  assert.equal(stable.rule, 'speed-stable');
  assert.ok(stable.ms < 2000 && stable.calls > 0);
  const t0 = performance.now();
  // every call costs four times what it cost one window earlier (1 µs doubling every 10 ms): consecutive windows never
  // agree within 2% unless the machine takes 40 ms of one 20 ms window away (a linear drift once did agree: 20 ms
  // windows 300 ms in differ by 7%, which one preemption can hide; doubling every 20 ms did too, once, on a VM whose
  // bursts varied 2x: a window stretched 2x by a preemption matched the next). The cap stops it before a call outlasts
  // a window (16 ms at 140 ms).
  const drifting = prewarm(() => {
    const until = performance.now() + 0.001 * 2 ** ((performance.now() - t0) / 10);
    while (performance.now() < until);
    return until;
  }, 140, 20);
  assert.equal(drifting.rule, 'cap');
  assert.equal(prewarm(() => 1, 0, 0).rule, 'none');
});

test('the job gives exactly iteration-count iterations of the batch, in ns per call', async () => {
  const job = { prewarmMs: 100, prewarmQuietMs: 20, warmupCount: 1, iterationCount: 5, iterationTimeMs: 5 };
  const result = await measureJob(() => JSON.parse('[1,2,3]'), job);
  assert.equal(result.iterations_ns.length, 5);
  assert.ok(result.iterations_ns.every((ns) => ns > 0 && ns < 1e6), result.iterations_ns);
  assert.equal(result.invocation_count % 4, 0);
  assert.equal(result.gc_between_iterations, typeof globalThis.gc === 'function');
});
