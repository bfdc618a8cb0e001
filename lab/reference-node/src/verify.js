// Verification before timing: a variant's result must denote exactly the dataset. A parse result's canonical digest
// (src/canonical.js) must equal the one in the manifest; a serializer's output, read back with JSON.parse, must too.
// So a schema that drops a property, a parse that loses a value, or an empty result is caught, never timed as a win.
// A composite is verified twice over: the step that starts from the dataset alone, then the chain's own result.

import { canonicalDigest } from './canonical.js';
import { DESERIALIZE_THEN_READ, isComposite, stepsOf } from './composites.js';
import { DESERIALIZE, bind } from './variants.js';

export function verify(variant, payload, operation) {
  return isComposite(operation) ? verifyComposite(variant, payload, operation) : verifyStep(variant, payload, operation);
}

/**
 * The first step alone, as its own cell would be; then the chain's result against the dataset's canonical form: the
 * document serialize-then-deserialize reads back from its own output, the text deserialize-then-serialize writes (read
 * back), or the count of leaves deserialize-then-read visits.
 */
function verifyComposite(variant, payload, operation) {
  const first = stepsOf(operation)[0];
  const alone = verifyStep(variant, payload, first);
  if (alone.status !== 'passed') return { ...alone, operation, message: `step ${first} alone: ${alone.message}` };
  const base = { ...alone, operation, payload_bytes: Buffer.byteLength(payload.text, 'utf8') };
  let result;
  try {
    result = bind(variant, payload, operation)();
  } catch (e) {
    return { ...base, status: 'failed', message: `${variant.library} threw in ${operation}: ${e.message}`, operation_error: `${e.name}: ${e.message}` };
  }
  const expected = payload.canonical;
  let actual;
  if (operation === DESERIALIZE_THEN_READ) {
    actual = { leaves: result, sha256: expected.sha256 };
  } else {
    const last = stepsOf(operation).at(-1);
    try {
      actual = canonicalDigest(last === DESERIALIZE ? result : JSON.parse(Buffer.isBuffer(result) ? result.toString('utf8') : result));
    } catch (e) {
      return { ...base, status: 'failed', mismatch_count: 1, message: `the chain's result is not a JSON document: ${e.message}` };
    }
  }
  if (actual.sha256 === expected.sha256 && actual.leaves === expected.leaves) {
    return { ...base, status: 'passed', message: `step ${first} verified alone; the chain's result matches the dataset's canonical form (${operation}, ${expected.leaves} leaves)` };
  }
  return { ...base, status: 'failed', mismatch_count: Math.abs(actual.leaves - expected.leaves) || 1,
    message: `the chain's result differs from the dataset's canonical form (${operation}): ${actual.leaves} leaves, expected ${expected.leaves}` };
}

function verifyStep(variant, payload, operation) {
  const base = { payload_bytes: null, variant: variant.variant, dataset: payload.name, operation, model_type: variant.modelBinding, mismatch_count: null, mismatches: [], round_trip: null, operation_error: null };
  const expected = payload.canonical;
  if (!expected) {
    return { ...base, status: 'failed', message: `dataset '${payload.name}' has no canonical digest in the manifest, so no result can be checked` };
  }
  let result;
  try {
    result = bind(variant, payload, operation)();
  } catch (e) {
    return { ...base, status: 'failed', message: `${variant.library} threw: ${e.message}`, operation_error: `${e.name}: ${e.message}` };
  }
  let document = result;
  // payload_bytes: the JSON text the operation reads (the dataset's UTF-8 text, without a byte order mark) or writes
  // (as UTF-8): what a throughput in MB/s divides by the time.
  base.payload_bytes = Buffer.byteLength(payload.text, 'utf8');
  if (operation !== DESERIALIZE) {
    const text = Buffer.isBuffer(result) ? result.toString('utf8') : result;
    if (typeof text !== 'string') return { ...base, status: 'failed', message: `the serializer returned ${typeof result}, not text or bytes` };
    base.payload_bytes = Buffer.isBuffer(result) ? result.length : Buffer.byteLength(text, 'utf8');
    try {
      document = JSON.parse(text);
    } catch (e) {
      return { ...base, status: 'failed', message: `the serialized output is not JSON: ${e.message}` };
    }
  }
  const actual = canonicalDigest(document);
  const what = operation === DESERIALIZE ? 'parsed document' : 'serialized output, read back,';
  if (actual.sha256 === expected.sha256 && actual.leaves === expected.leaves) {
    return { ...base, status: 'passed', mismatch_count: 0, round_trip: operation === DESERIALIZE ? null : 'passed',
      message: `${what} matches the dataset's canonical form (${actual.leaves} leaves, ${expected.rule})` };
  }
  return { ...base, status: 'failed', mismatch_count: Math.abs(actual.leaves - expected.leaves) || 1, round_trip: operation === DESERIALIZE ? null : 'failed',
    message: `${what} differs from the dataset's canonical form: ${actual.leaves} leaves, sha256 ${actual.sha256.slice(0, 12)}…; expected ${expected.leaves}, ${expected.sha256.slice(0, 12)}…` };
}
