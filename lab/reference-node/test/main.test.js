import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

const MAIN = new URL('../src/main.js', import.meta.url).pathname;
const DATASETS = new URL('../../../datasets/', import.meta.url).pathname;
const lab = (...args) => spawnSync(process.execPath, ['--expose-gc', MAIN, ...args], { encoding: 'utf8' });

test('env reports the exact runtime, its V8 and that ISA cannot be read back', () => {
  const env = JSON.parse(lab('env').stdout);
  assert.equal(env.runtime, 'Node.js');
  assert.equal(env.runtime_version, process.versions.node);
  assert.equal(env.isa_readback, false);
  assert.deepEqual(env.isa, {});
  assert.equal(env.libraries['JSON (V8 built-in)'], process.versions.v8);
});

test('list names every variant with its library, payload form and operations', () => {
  const listing = JSON.parse(lab('list').stdout);
  assert.deepEqual(listing.variants.map((v) => v.variant), ['json-string', 'json-utf8', 'fast-json-stringify']);
  assert.deepEqual(listing.variants[1].operations, ['deserialize', 'serialize']);
});

test('run leaves env, verification, cell and samples for the harness', () => {
  const out = mkdtempSync(path.join(tmpdir(), 'jsonlab-node-'));
  const done = lab('run', '--datasets', DATASETS, '--variant', 'json-utf8', '--dataset', 'simple-models-100', '--operation', 'deserialize',
    '--out', out, '--prewarm-ms', '50', '--prewarm-quiet-ms', '10', '--warmup-count', '1', '--iteration-count', '3', '--iteration-time-ms', '5');
  assert.equal(done.status, 0, done.stderr);
  const cell = JSON.parse(readFileSync(path.join(out, 'cell.json'), 'utf8'));
  assert.equal(cell.status, 'measured');
  assert.equal(cell.verification_status, 'passed');
  const samples = JSON.parse(readFileSync(path.join(out, cell.raw_report), 'utf8'));
  assert.equal(samples.iterations_ns.length, 3);
  assert.equal(JSON.parse(readFileSync(path.join(out, 'env.json'), 'utf8')).lab, 'reference-node');
});

test('once reports its peak RSS and CPUs; errors come as error and hint lines with exit 2', () => {
  const done = lab('once', '--datasets', DATASETS, '--variant', 'json-string', '--dataset', 'canada', '--operation', 'deserialize', '--report-rss', 'true');
  assert.equal(done.status, 0, done.stderr);
  assert.match(done.stdout, /^peak_rss_bytes \d+\ncpus_allowed \S+\n$/);
  const bad = lab('once', '--datasets', DATASETS, '--variant', 'json-string', '--dataset', 'nope', '--operation', 'deserialize');
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /^error: unknown dataset 'nope'\nhint: datasets in .*manifest.json: /);
});

test('shot times each call alone after its warm-up, verifies after, and reads the resident set around the calls', () => {
  const out = mkdtempSync(path.join(tmpdir(), 'jsonlab-node-shot-'));
  const done = lab('shot', '--datasets', DATASETS, '--variant', 'json-string', '--dataset', 'canada', '--operation', 'deserialize',
    '--out', out, '--calls', '2', '--warmup-dataset', 'twitter', '--warmup-calls', '3');
  assert.equal(done.status, 0, done.stderr);
  const samples = JSON.parse(readFileSync(path.join(out, 'samples.json'), 'utf8'));
  assert.equal(samples.iterations_ns.length, 2);
  assert.ok(samples.iterations_ns.every((ns) => ns > 0));
  assert.equal(samples.single_shot.warmup_dataset, 'twitter');
  assert.equal(samples.single_shot.warmup_calls, 3);
  assert.ok(samples.single_shot.rss_before_bytes > 0 && samples.single_shot.peak_rss_bytes >= samples.single_shot.rss_before_bytes);
  assert.equal(JSON.parse(readFileSync(path.join(out, 'verification.json'), 'utf8')).status, 'passed');
  assert.equal(JSON.parse(readFileSync(path.join(out, 'cell.json'), 'utf8')).status, 'measured');
  const bad = lab('shot', '--datasets', DATASETS, '--variant', 'json-string', '--dataset', 'canada', '--operation', 'deserialize',
    '--out', out, '--warmup-calls', '1');
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /^error: --warmup-calls needs --warmup-dataset\n/);
});
