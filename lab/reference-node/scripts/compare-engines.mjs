// Why mitata: mitata and tinybench measure the same two operations with the same time budget, in this process, and
// this prints what each reports. Run pinned, on a quiet CPU, with the lab's Node:
//   taskset -c 1 build/24.21.0/node --expose-gc scripts/compare-engines.mjs ../../datasets
// A small operation (JSON.stringify of one SimpleModel, ~100 ns) shows the timer's share in per-call samples; a large
// one (JSON.parse of canada.json, ~10 ms) shows them agree once a call dwarfs the timer.

import path from 'node:path';

import { measure, do_not_optimize } from 'mitata';
import { Bench } from 'tinybench';

import { loadManifest, loadPayload } from '../src/datasets.js';

const datasets = path.resolve(process.argv[2] ?? '../../datasets');
const manifest = loadManifest(datasets);
const simple = JSON.parse(loadPayload(datasets, manifest.find('simple-models-1')).text);
const canada = loadPayload(datasets, manifest.find('canada')).text;
const BUDGET_MS = 2000;

const operations = {
  'JSON.stringify(1 SimpleModel)': () => JSON.stringify(simple),
  'JSON.parse(canada.json)': () => JSON.parse(canada),
};

/** Mean, relative 99% CI half-width of the mean (normal approximation, n is large), CV of samples, n. */
function summarize(samplesNs) {
  const n = samplesNs.length;
  const mean = samplesNs.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(samplesNs.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1));
  const sorted = [...samplesNs].sort((a, b) => a - b);
  return { n, mean_ns: mean, median_ns: sorted[Math.floor(n / 2)], cv: sd / mean, rel_ci99: (2.576 * sd) / Math.sqrt(n) / mean };
}

const rows = [];
for (const [name, fn] of Object.entries(operations)) {
  for (let warm = performance.now(); performance.now() - warm < 1000;) do_not_optimize(fn());
  const m = await measure(() => do_not_optimize(fn()), { min_cpu_time: BUDGET_MS * 1e6, gc: false });
  rows.push({ operation: name, engine: 'mitata 1.0.34', per_sample_calls: m.ticks / m.samples.length, ...summarize(m.samples) });
  const bench = new Bench({ time: BUDGET_MS, warmupTime: 0, iterations: 10, retainSamples: true });
  bench.add(name, () => do_not_optimize(fn()));
  await bench.run();
  const latency = bench.tasks[0].result.latency;
  rows.push({ operation: name, engine: 'tinybench 6.2.3', per_sample_calls: 1, ...summarize(latency.samples.map((ms) => ms * 1e6)),
    tinybench_rme_95: latency.rme / 100 });
}
for (const r of rows) {
  console.log(`${r.operation.padEnd(30)} ${r.engine.padEnd(16)} n=${String(r.n).padStart(8)} calls/sample=${String(Math.round(r.per_sample_calls)).padStart(5)} `
    + `mean=${r.mean_ns.toFixed(1).padStart(12)} ns median=${r.median_ns.toFixed(1).padStart(12)} ns CV=${(100 * r.cv).toFixed(1).padStart(6)}% `
    + `±${(100 * r.rel_ci99).toFixed(2)}% (99%)${r.tinybench_rme_95 !== undefined ? ` tinybench rme ±${(100 * r.tinybench_rme_95).toFixed(2)}% (95%)` : ''}`);
}
