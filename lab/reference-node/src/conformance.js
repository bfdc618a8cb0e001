// The `conformance` verb: `conformance --files DIR --parser NAME --out FILE [--start N]` parses every *.json file of DIR
// (in code-unit name order, the order every lab uses), from the N-th on, with one parser, and appends one JSON line per
// file to FILE, written synchronously before the next file starts: {file, outcome: "accepted"|"rejected", detail, ms}.
// A file that kills the process or never returns leaves no line: the harness records it as crashed or hung and starts
// the verb again after it (JSON.parse is synchronous, so nothing inside the process could stop it).

import { appendFileSync, existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

import { LabError } from './errors.js';

const fatal = new TextDecoder('utf-8', { fatal: true });

export const PARSERS = [
  {
    parser: 'json-parse-buffer',
    library: 'JSON (V8 built-in)',
    description: "JSON.parse of Buffer.toString('utf8') (invalid UTF-8 becomes U+FFFD, a byte order mark is kept), as a server decodes a body",
    parse: (bytes) => JSON.parse(bytes.toString('utf8')),
  },
  {
    parser: 'json-parse-strict-utf8',
    library: 'JSON (V8 built-in)',
    description: "JSON.parse of the bytes decoded with TextDecoder('utf-8', {fatal: true}): invalid UTF-8 is rejected, a byte order mark dropped",
    parse: (bytes) => JSON.parse(fatal.decode(bytes)),
  },
];

export function findParser(name) {
  const found = PARSERS.find((p) => p.parser === name);
  if (!found) throw new LabError(`unknown conformance parser '${name}'`, `valid parsers: ${PARSERS.map((p) => p.parser).join(', ')}`);
  return found;
}

export function conformanceVerb(args) {
  const parser = findParser(args.required('parser'));
  const directory = args.required('files');
  if (!existsSync(directory)) throw new LabError(`no conformance folder at ${directory}`, 'pass --files pointing at datasets/conformance/test_parsing');
  const out = args.required('out');
  const files = readdirSync(directory).filter((name) => name.endsWith('.json')).sort();
  // Warm the parser on a valid document, then say so: the harness allows the start-up its own time limit and holds
  // every file after this line to the much shorter per-file one.
  try { parser.parse(Buffer.from('[0]')); } catch { /* a parser that rejects it still gets its files */ }
  appendFileSync(out, `${JSON.stringify({ ready: true })}\n`);
  for (const name of files.slice(args.optionalInt('start') ?? 0)) {
    const bytes = readFileSync(path.join(directory, name));
    const started = process.hrtime.bigint();
    let outcome = 'accepted';
    let detail = '';
    try {
      parser.parse(bytes);
    } catch (e) {
      outcome = 'rejected';
      detail = `${e.name}: ${String(e.message).split('\n')[0]}`;
    }
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    appendFileSync(out, `${JSON.stringify({ file: name, outcome, detail, ms: Math.round(ms * 1000) / 1000 })}\n`);
  }
  return 0;
}
