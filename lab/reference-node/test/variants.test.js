import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadManifest, loadPayload } from '../src/datasets.js';
import { DESERIALIZE, SERIALIZE, VARIANTS, bind, findVariant, supports } from '../src/variants.js';
import { verify } from '../src/verify.js';

const DATASETS = new URL('../../../datasets/', import.meta.url).pathname;
const manifest = loadManifest(DATASETS);
const payload = (name) => loadPayload(DATASETS, manifest.find(name));

test('every variant passes verification on every dataset it supports among the corpus and SimpleModel', () => {
  for (const name of ['twitter', 'citm_catalog', 'canada', 'simple-models-100']) {
    const data = payload(name);
    for (const variant of VARIANTS) {
      for (const operation of [DESERIALIZE, SERIALIZE].filter((op) => supports(variant, data, op))) {
        const result = verify(variant, data, operation);
        assert.equal(result.status, 'passed', `${variant.variant} × ${name} ${operation}: ${result.message}`);
      }
    }
  }
});

test('the UTF-8 form is the bytes as stored: JSON.parse rejects a byte order mark the string form never sees', () => {
  const data = payload('employee-data');
  assert.equal(verify(findVariant('json-string'), data, DESERIALIZE).status, 'passed');
  const utf8 = verify(findVariant('json-utf8'), data, DESERIALIZE);
  assert.equal(utf8.status, 'failed');
  assert.match(utf8.operation_error, /SyntaxError/);
});

test('a serializer that loses a value fails verification', () => {
  const data = payload('simple-models-1');
  const lossy = { ...findVariant('json-string'), variant: 'lossy', bind: () => () => '[{"testInt":1}]' };
  const result = verify(lossy, data, SERIALIZE);
  assert.equal(result.status, 'failed');
  assert.match(result.message, /differs from the dataset's canonical form/);
});

test('fast-json-stringify serializes only datasets with a schema, and only serializes', () => {
  const variant = findVariant('fast-json-stringify');
  for (const name of ['twitter', 'citm_catalog', 'canada', 'simple-models-1000']) {
    assert.equal(supports(variant, payload(name), SERIALIZE), true, name);
  }
  assert.equal(supports(variant, payload('canada'), DESERIALIZE), false);
  assert.equal(supports(variant, payload('employee-data'), SERIALIZE), false);
  assert.throws(() => bind(variant, payload('employee-data'), SERIALIZE), /has nothing to serialize dataset 'employee-data'/);
});

test('an unknown variant names the valid ones', () => {
  assert.throws(() => findVariant('nope'), (e) => /unknown variant 'nope'/.test(e.message) && /json-string/.test(e.hint));
});

test('fast-json-stringify serializes a dataset of a declared model with the schema the harness wrote for it', () => {
  // datasets/models/every-primitive.toml → schemas/declared/every-primitive.all.schema.json (written before the tests)
  const data = payload('every-primitive');
  const variant = findVariant('fast-json-stringify');
  assert.equal(supports(variant, data, SERIALIZE), true);
  const result = verify(variant, data, SERIALIZE);
  assert.equal(result.status, 'passed', result.message);
});
