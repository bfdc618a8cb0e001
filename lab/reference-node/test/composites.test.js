import assert from 'node:assert/strict';
import { test } from 'node:test';

import { canonicalDigest } from '../src/canonical.js';
import { COMPOSITES, DESERIALIZE_THEN_READ, SERIALIZE_THEN_DESERIALIZE, readEveryValue, stepsOf } from '../src/composites.js';
import { loadManifest, loadPayload } from '../src/datasets.js';
import { SERIALIZE, bind, findVariant, supports } from '../src/variants.js';
import { verify } from '../src/verify.js';

const DATASETS = new URL('../../../datasets/', import.meta.url).pathname;
const manifest = loadManifest(DATASETS);
const payload = (name) => loadPayload(DATASETS, manifest.find(name));

test('every composite of the string and UTF-8 variants verifies on the corpus, its first step alone and its chain', () => {
  for (const name of ['twitter', 'canada', 'every-primitive']) {
    const data = payload(name);
    for (const variant of ['json-string', 'json-utf8'].map(findVariant)) {
      for (const operation of COMPOSITES) {
        assert.equal(supports(variant, data, operation), true);
        const result = verify(variant, data, operation);
        assert.equal(result.status, 'passed', `${variant.variant} × ${name} ${operation}: ${result.message}`);
        assert.match(result.message, /verified alone; the chain's result matches/);
        assert.equal(result.operation, operation);
        assert.equal(result.payload_bytes, Buffer.byteLength(data.text, 'utf8'));
      }
    }
  }
});

test('each chain passes its own output on in the variant form: a Buffer for the UTF-8 variant, a string for the other', () => {
  const data = payload('twitter');
  assert.ok(Buffer.isBuffer(bind(findVariant('json-utf8'), data, 'deserialize-then-serialize')()));
  assert.equal(typeof bind(findVariant('json-string'), data, 'deserialize-then-serialize')(), 'string');
  assert.equal(canonicalDigest(bind(findVariant('json-utf8'), data, SERIALIZE_THEN_DESERIALIZE)()).sha256, data.canonical.sha256);
});

test('reading every value visits as many leaves as the canonical form has, empty containers and nulls included', () => {
  assert.equal(readEveryValue({ a: [], b: {}, c: null, d: [1, 'x', { e: false }] }), 6);
  assert.equal(readEveryValue(7), 1);
  const data = payload('citm_catalog');
  assert.equal(bind(findVariant('json-string'), data, DESERIALIZE_THEN_READ)(), data.canonical.leaves);
});

test('a chain whose second step adds a value fails verification after its first step passed alone', () => {
  const json = findVariant('json-string');
  const lossy = { ...json, variant: 'lossy', steps: { ...json.steps, parse: (text) => ({ ...JSON.parse(text), extra: 1 }) } };
  const result = verify(lossy, payload('employee-single'), 'serialize-then-deserialize');
  assert.equal(result.status, 'failed');
  assert.match(result.message, /the chain's result differs from the dataset's canonical form/);
});

test('a composite names its steps, and a variant that cannot chain is refused with its operations', () => {
  assert.deepEqual(stepsOf('deserialize-then-serialize'), ['deserialize', 'serialize']);
  assert.deepEqual(stepsOf('serialize'), ['serialize']);
  const fast = findVariant('fast-json-stringify');
  assert.equal(supports(fast, payload('twitter'), SERIALIZE_THEN_DESERIALIZE), false);
  assert.throws(() => bind(fast, payload('twitter'), SERIALIZE_THEN_DESERIALIZE), /cannot serialize-then-deserialize/);
});
