import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { canonicalDigest, canonicalRecords } from '../src/canonical.js';
import { loadManifest, loadPayload } from '../src/datasets.js';

const DATASETS = new URL('../../../datasets/', import.meta.url).pathname;

test('leaves are pointer, kind and value, object members sorted by their UTF-8 bytes', () => {
  const records = canonicalRecords(JSON.parse('{"b":[1,{}],"a~/":null,"é":"x","z":[]}'));
  assert.deepEqual(records, [
    '6:/a~0~1 null 0:\n',
    '4:/b/0 number 16:3ff0000000000000\n',
    '4:/b/1 {} 0:\n',
    '2:/z [] 0:\n',
    '3:/é string 1:x\n',
  ]);
});

test('numbers compare by their double: -0 is 0, an integer beyond 2^53 is its nearest double', () => {
  assert.equal(canonicalDigest(JSON.parse('[-0]')).sha256, canonicalDigest(JSON.parse('[0]')).sha256);
  assert.equal(canonicalDigest(JSON.parse('[9007199254740993]')).sha256, canonicalDigest(JSON.parse('[9007199254740992]')).sha256);
  assert.notEqual(canonicalDigest(JSON.parse('[1.5]')).sha256, canonicalDigest(JSON.parse('["1.5"]')).sha256);
});

test('a missing or extra value changes the digest', () => {
  const full = canonicalDigest({ a: 1, b: 2 });
  assert.notEqual(canonicalDigest({ a: 1 }).sha256, full.sha256);
  assert.notEqual(canonicalDigest({ a: 1, b: 2, c: null }).sha256, full.sha256);
  assert.equal(full.leaves, 2);
});

test('this lab computes the digest harness/model/canonical.py wrote into the manifest, for the corpus and the write-ups', () => {
  const manifest = loadManifest(DATASETS);
  const checked = manifest.datasets.filter((d) => d.canonical && ['twitter', 'citm_catalog', 'canada', 'simple-models-1000', 'employee-data', 'persons-10000'].includes(d.name));
  assert.equal(checked.length, 6);
  for (const entry of checked) {
    const payload = loadPayload(DATASETS, entry);
    assert.deepEqual(canonicalDigest(JSON.parse(payload.text)), entry.canonical, entry.name);
  }
});

test('a file that differs from the manifest is refused', () => {
  const manifest = JSON.parse(readFileSync(`${DATASETS}/manifest.json`, 'utf8'));
  const entry = { ...manifest.datasets.find((d) => d.name === 'canada'), sha256: '0'.repeat(64) };
  assert.throws(() => loadPayload(DATASETS, entry), /has sha256 .* the manifest says 0000/);
});
