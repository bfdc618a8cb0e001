// Steady-state timing of one operation, with mitata (README of this lab: why mitata rather than tinybench).
//
// The job is the harness's, as for the .NET lab: a warm-up by time (--prewarm-ms, ending early once two consecutive
// windows of --prewarm-quiet-ms agree within 2%: V8 exposes no JIT-compilation counter without changing the runtime's
// flags), then --warmup-count discarded iterations and --iteration-count measured ones of about --iteration-time-ms
// each. An iteration is one mitata sample: a batch of calls sized from the warm speed, its time divided by the calls.
// A full collection runs before every iteration (mitata's inner_gc, with --expose-gc) as BenchmarkDotNet forces one
// between iterations.

import v8 from 'node:v8';

// mitata's package has no exports map; its collector helper (globalThis.gc under --expose-gc) lives in lib.mjs.
import { do_not_optimize, gc, measure } from 'mitata/src/lib.mjs';

export const ENGINE = { name: 'mitata', version: '1.0.34' };

const STABLE_WITHIN = 0.02;
const UNROLL = 4;

/** Calls fn for `ms` of wall time; returns calls made and ns per call. */
function window(fn, ms) {
  const end = performance.now() + ms;
  let calls = 0;
  const started = performance.now();
  let now = started;
  while (now < end) {
    do_not_optimize(fn());
    calls++;
    now = performance.now();
  }
  return { calls, nsPerCall: ((now - started) * 1e6) / calls };
}

/** Warm-up by time: until two windows agree (speed-stable) or the cap. */
export function prewarm(fn, prewarmMs, quietMs) {
  if (!prewarmMs) return { calls: 0, ms: 0, rule: 'none', nsPerCall: null };
  const started = performance.now();
  const windowMs = quietMs || prewarmMs;
  let calls = 0;
  let previous = null;
  let last = null;
  while (performance.now() - started < prewarmMs) {
    last = window(fn, Math.min(windowMs, prewarmMs - (performance.now() - started)));
    calls += last.calls;
    if (quietMs && previous && Math.abs(last.nsPerCall - previous.nsPerCall) <= STABLE_WITHIN * previous.nsPerCall) {
      return { calls, ms: performance.now() - started, rule: 'speed-stable', nsPerCall: last.nsPerCall };
    }
    previous = last;
  }
  return { calls, ms: performance.now() - started, rule: quietMs ? 'cap' : 'fixed-time', nsPerCall: last?.nsPerCall ?? null };
}

/** Calls per iteration: about iterationTimeMs of work, a multiple of mitata's unroll, at least one unrolled round. */
export function batchSize(nsPerCall, iterationTimeMs) {
  const calls = Math.max(1, Math.round((iterationTimeMs * 1e6) / nsPerCall));
  return Math.max(UNROLL, Math.ceil(calls / UNROLL) * UNROLL);
}

function samples(fn, count, batch, withGc) {
  return measure(() => do_not_optimize(fn()), {
    min_samples: count, max_samples: count, min_cpu_time: 0,
    batch_threshold: Infinity, batch_samples: batch, batch_unroll: UNROLL,
    // one warm-up call: mitata decides to batch there (always, with an infinite threshold)
    warmup_samples: 1, warmup_threshold: Infinity, samples_threshold: Infinity,
    gc: withGc ? gc : false, inner_gc: withGc,
  });
}

/** Bytes allocated per call where V8 counts them (v8.getHeapStatistics().total_allocated_bytes, V8 14+), else null. */
export function allocatedPerCall(fn, calls) {
  if (!('total_allocated_bytes' in v8.getHeapStatistics())) return null;
  const before = v8.getHeapStatistics().total_allocated_bytes;
  for (let i = 0; i < calls; i++) do_not_optimize(fn());
  return (v8.getHeapStatistics().total_allocated_bytes - before) / calls;
}

/** Runs the job on fn; returns the measured iterations (ns per call) and how they were obtained. */
export async function measureJob(fn, job) {
  const warm = prewarm(fn, job.prewarmMs ?? 0, job.prewarmQuietMs ?? 0);
  const nsPerCall = warm.nsPerCall ?? window(fn, 20).nsPerCall;
  const iterationTimeMs = job.iterationTimeMs ?? 100;
  const batch = job.invocationCount ?? batchSize(nsPerCall, iterationTimeMs);
  const withGc = !gc.fallback;
  const warmupCount = job.warmupCount ?? 1;
  const iterationCount = job.iterationCount ?? 15;
  const started = performance.now();
  if (warmupCount > 0) await samples(fn, warmupCount, batch, withGc);
  const warmupMs = performance.now() - started;
  const measured = await samples(fn, iterationCount, batch, withGc);
  const actualMs = performance.now() - started - warmupMs;
  return {
    engine: ENGINE,
    prewarm: warm,
    invocation_count: batch,
    invocation_count_from: job.invocationCount ? 'job' : 'prewarm speed',
    gc_between_iterations: withGc,
    warmup_count: warmupCount,
    iteration_count: iterationCount,
    // mitata returns the samples sorted; the order of iterations is not kept.
    iterations_ns: measured.samples,
    gc_ns: measured.gc ?? null,
    allocated_bytes_per_op: allocatedPerCall(fn, Math.min(batch, 1000)),
    timings_ms: { prewarm_ms: round(warm.ms), warmup_ms: round(warmupMs), actual_ms: round(actualMs) },
  };
}

const round = (x) => Math.round(x * 10) / 10;
