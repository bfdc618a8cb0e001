// The canonical form a parse result is compared against, the same in every lab (jsonlab-canonical-v1):
// the document as a sequence of leaf records in document order, object members sorted by the UTF-8 bytes of their
// names; a leaf is a scalar, or an empty object or array. Each record is
//   <pointer byte length>:<RFC 6901 pointer> <kind> <value byte length>:<value>\n
// with kind one of null, true, false, number, string, {}, []. A number's value is the 16 hex digits of its IEEE-754
// double (big-endian; -0 written as +0): every lab compares numbers by the double they denote, the precision JSON.parse
// offers (integers beyond 2^53 compare as their nearest double, RFC 8259 §6). The sha256 of all records and their
// count are the dataset's canonical digest (datasets/manifest.json, computed by harness/model/canonical.py).

import { createHash } from 'node:crypto';

export const CANONICAL_RULE = 'jsonlab-canonical-v1';

const utf8Length = (text) => Buffer.byteLength(text, 'utf8');
const byUtf8 = (a, b) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
const escapeToken = (name) => name.replaceAll('~', '~0').replaceAll('/', '~1');

function numberBits(value) {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value === 0 ? 0 : value);
  return view.getBigUint64(0).toString(16).padStart(16, '0');
}

function* records(value, pointer) {
  const record = (kind, text) => `${utf8Length(pointer)}:${pointer} ${kind} ${utf8Length(text)}:${text}\n`;
  if (value === null) yield record('null', '');
  else if (value === true) yield record('true', '');
  else if (value === false) yield record('false', '');
  else if (typeof value === 'number') yield record('number', numberBits(value));
  else if (typeof value === 'string') yield record('string', value);
  else if (Array.isArray(value)) {
    if (value.length === 0) yield record('[]', '');
    for (let i = 0; i < value.length; i++) yield* records(value[i], `${pointer}/${i}`);
  } else if (typeof value === 'object') {
    const names = Object.keys(value).sort(byUtf8);
    if (names.length === 0) yield record('{}', '');
    for (const name of names) yield* records(value[name], `${pointer}/${escapeToken(name)}`);
  } else {
    throw new TypeError(`not a JSON value: ${typeof value}`);
  }
}

/** sha256 and leaf count of a parsed document's canonical form. */
export function canonicalDigest(document) {
  const hash = createHash('sha256');
  let leaves = 0;
  for (const line of records(document, '')) {
    hash.update(line, 'utf8');
    leaves++;
  }
  return { rule: CANONICAL_RULE, sha256: hash.digest('hex'), leaves };
}

/** The first records of a document's canonical form (for a readable mismatch report). */
export function canonicalRecords(document, limit = Infinity) {
  const out = [];
  for (const line of records(document, '')) {
    if (out.length >= limit) break;
    out.push(line);
  }
  return out;
}
