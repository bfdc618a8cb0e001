import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

const MAIN = new URL('../src/main.js', import.meta.url).pathname;
const lab = (...args) => spawnSync(process.execPath, ['--expose-gc', MAIN, ...args], { encoding: 'utf8' });
/** The output's lines after its first, the ready line the harness times start-up by. */
function outcomes(file) {
  const [ready, ...lines] = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(ready, { ready: true });
  return lines;
}

function suite() {
  const dir = mkdtempSync(path.join(tmpdir(), 'jsonlab-conformance-'));
  writeFileSync(path.join(dir, 'y_ok.json'), '[1]');
  writeFileSync(path.join(dir, 'n_trailing_comma.json'), '[1,]');
  writeFileSync(path.join(dir, 'i_bad_utf8.json'), Buffer.from([0x5b, 0x22, 0xff, 0x22, 0x5d])); // ["\xff"]
  return dir;
}

test('conformance writes one line per file in name order, from --start on, and each parser decodes as it says', () => {
  const dir = suite();
  const out = path.join(dir, 'buffer.jsonl');
  assert.equal(lab('conformance', '--files', dir, '--parser', 'json-parse-buffer', '--out', out).status, 0);
  const lines = outcomes(out);
  assert.deepEqual(lines.map((l) => [l.file, l.outcome]), [['i_bad_utf8.json', 'accepted'], ['n_trailing_comma.json', 'rejected'], ['y_ok.json', 'accepted']]);
  assert.match(lines[1].detail, /^SyntaxError: /);
  const strict = path.join(dir, 'strict.jsonl');
  assert.equal(lab('conformance', '--files', dir, '--parser', 'json-parse-strict-utf8', '--out', strict, '--start', '0').status, 0);
  assert.equal(outcomes(strict)[0].outcome, 'rejected', 'invalid UTF-8 is refused by the fatal decoder');
  const resumed = path.join(dir, 'resumed.jsonl');
  lab('conformance', '--files', dir, '--parser', 'json-parse-buffer', '--out', resumed, '--start', '2');
  assert.deepEqual(outcomes(resumed).map((l) => l.file), ['y_ok.json']);
});

test('list names the conformance parsers and an unknown one is an error with the valid names', () => {
  assert.deepEqual(JSON.parse(lab('list').stdout).parsers.map((p) => p.parser), ['json-parse-buffer', 'json-parse-strict-utf8']);
  const done = lab('conformance', '--files', '.', '--parser', 'nope', '--out', '/dev/null');
  assert.equal(done.status, 2);
  assert.match(done.stderr, /hint: valid parsers: json-parse-buffer, json-parse-strict-utf8/);
});
