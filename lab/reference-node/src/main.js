// The reference-node lab: `node src/main.js env|list|verify|run|once|shot|conformance [--name value ...]`, the lab contract
// (README "The lab contract"). Errors print `error:` and `hint:` lines and exit 2.

import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { parseArgs } from './args.js';
import { loadManifest, loadPayload } from './datasets.js';
import { environment, procStatus } from './env.js';
import { LabError } from './errors.js';
import { measureJob } from './measure.js';
import { COMPOSITES } from './composites.js';
import { OPERATIONS, VARIANTS, bind, findVariant, supports } from './variants.js';
import { PARSERS, conformanceVerb } from './conformance.js';
import { verify } from './verify.js';

const print = (value) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
const writeJson = (file, value) => writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);

function listing() {
  return {
    schema_version: 1,
    lab: 'reference-node',
    operations: OPERATIONS,
    composites: COMPOSITES,
    variants: VARIANTS.map((v) => ({
      variant: v.variant, library: v.library, library_version: v.libraryVersion, payload_form: v.payloadForm,
      model_binding: v.modelBinding, operations: v.operations, composites: v.composites ?? [], description: v.description,
    })),
    parsers: PARSERS.map((p) => ({ parser: p.parser, library: p.library, library_version: process.versions.v8, description: p.description })),
  };
}

/** The one cell a run/once command names. */
function cellOf(args) {
  const datasetsDir = args.required('datasets');
  const variant = findVariant(args.required('variant'));
  const payload = loadPayload(datasetsDir, loadManifest(datasetsDir).find(args.required('dataset')));
  const operation = args.required('operation');
  if (![...OPERATIONS, ...COMPOSITES].includes(operation)) {
    throw new LabError(`unknown operation '${operation}'`, `operations: ${[...OPERATIONS, ...COMPOSITES].join(', ')}`);
  }
  return { variant, payload, operation, name: `${variant.variant}/${payload.name}/${operation}` };
}

function verifyVerb(args) {
  const datasetsDir = args.required('datasets');
  const manifest = loadManifest(datasetsDir);
  const variants = args.all('variant').length ? args.all('variant').map(findVariant) : VARIANTS;
  const entries = args.all('dataset').length ? args.all('dataset').map(manifest.find) : manifest.datasets.filter((d) => d.canonical);
  const operations = args.all('operation').length ? args.all('operation') : [...OPERATIONS, ...COMPOSITES];
  const results = [];
  for (const entry of entries) {
    const payload = loadPayload(datasetsDir, entry);
    for (const variant of variants) {
      for (const operation of operations.filter((op) => supports(variant, payload, op))) {
        const result = verify(variant, payload, operation);
        process.stderr.write(`${result.status.padEnd(7)} ${variant.variant} × ${payload.name} ${operation}: ${result.message}\n`);
        results.push(result);
      }
    }
  }
  print(results);
  return args.optional('strict', 'false') === 'true' && results.some((r) => r.status !== 'passed') ? 1 : 0;
}

function jobOf(args) {
  return {
    prewarmMs: args.optionalInt('prewarm-ms'), prewarmQuietMs: args.optionalInt('prewarm-quiet-ms'),
    warmupCount: args.optionalInt('warmup-count'), iterationCount: args.optionalInt('iteration-count'),
    iterationTimeMs: args.optionalInt('iteration-time-ms'), invocationCount: args.optionalInt('invocation-count'),
  };
}

async function runVerb(args) {
  const mainEntered = performance.now();
  const cell = cellOf(args);
  const out = path.resolve(args.required('out'));
  mkdirSync(out, { recursive: true });
  writeJson(path.join(out, 'env.json'), environment());
  const clock = performance.now();
  const verification = verify(cell.variant, cell.payload, cell.operation);
  const verifyMs = performance.now() - clock;
  writeJson(path.join(out, 'verification.json'), verification);
  process.stderr.write(`${cell.name}: verification ${verification.status}: ${verification.message}\n`);
  const describe = { schema_version: 1, cell: cell.name, variant: cell.variant.variant, library: cell.variant.library,
    library_version: cell.variant.libraryVersion, dataset: cell.payload.name, operation: cell.operation };
  if (verification.operation_error) {
    writeJson(path.join(out, 'cell.json'), { ...describe, status: 'failed', error: verification.message, hint: 'the variant cannot perform this operation on this dataset' });
    return 0;
  }
  const fn = bind(cell.variant, cell.payload, cell.operation);
  const measured = await measureJob(fn, jobOf(args));
  process.stderr.write(`${cell.name}: prewarm ${measured.prewarm.calls} calls in ${measured.prewarm.ms.toFixed(0)} ms (${measured.prewarm.rule}), `
    + `${measured.iteration_count} iterations of ${measured.invocation_count} calls\n`);
  writeJson(path.join(out, 'samples.json'), { schema_version: 1, ...measured });
  writeJson(path.join(out, 'cell.json'), {
    ...describe, status: 'measured', payload_form: cell.variant.payloadForm, model_binding: cell.variant.modelBinding,
    model_type: cell.variant.modelBinding, dataset_sha256: cell.payload.sha256, description: cell.variant.description,
    verification_status: verification.status, invocation_count: measured.invocation_count,
    timings_ms: { verify_ms: Math.round(verifyMs * 10) / 10, ...measured.timings_ms }, raw_report: 'samples.json',
  });
  writeJson(path.join(out, 'process.json'), { schema_version: 1, cells: [cell.name],
    // performance.now() counts from the process's time origin (its start), so this is runtime start to main.
    start_to_main_ms: Math.round(mainEntered * 10) / 10 });
  return 0;
}

/** Resets the kernel's peak-RSS mark (VmHWM) to the current resident set; false where the kernel refuses. */
function resetPeakRss() {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

/** A /proc/self/status field given in kB (VmRSS, VmHWM), in bytes; null where the field does not exist. */
const kib = (field) => { const v = procStatus(field); return v ? Number.parseInt(v, 10) * 1024 : null; };

/**
 * `shot`: the single-shot method, one cell per fresh process. Read the input; warm up with --warmup-calls calls of the
 * same variant and operation on the small --warmup-dataset; reset the peak-RSS mark and read the resident set; time
 * each of --calls calls (default 1) alone; read the peak; verify after everything timed. Not timed: process start, the
 * file read, the warm-up, the verification.
 */
function shotVerb(args) {
  const mainEntered = performance.now();
  const out = path.resolve(args.required('out'));
  mkdirSync(out, { recursive: true });
  writeJson(path.join(out, 'env.json'), environment());
  const calls = args.optionalInt('calls') ?? 1;
  const warmupCalls = args.optionalInt('warmup-calls') ?? 0;
  const warmupDataset = args.optional('warmup-dataset', '');
  if (calls < 1 || warmupCalls < 0) throw new LabError(`--calls ${calls} --warmup-calls ${warmupCalls}`, '--calls must be 1 or more, --warmup-calls 0 or more');
  if (warmupCalls > 0 && !warmupDataset) throw new LabError('--warmup-calls needs --warmup-dataset', 'name a small dataset to warm up on');
  let clock = performance.now();
  const cell = cellOf(args);
  const loadMs = performance.now() - clock;
  const cannot = (e) => new LabError(`${cell.variant.library} cannot ${cell.operation} ${cell.payload.name} here: ${e.message}`, 'the variant fails on this runtime');
  clock = performance.now();
  if (warmupCalls > 0) {
    const datasetsDir = args.required('datasets');
    const small = loadPayload(datasetsDir, loadManifest(datasetsDir).find(warmupDataset));
    let warm;
    try { warm = bind(cell.variant, small, cell.operation); } catch (e) { throw cannot(e); }
    for (let i = 0; i < warmupCalls; i++) if (warm() == null) throw new LabError('the operation returned nothing', 'a variant must return what it produced');
  }
  const warmupMs = performance.now() - clock;
  let fn;
  try { fn = bind(cell.variant, cell.payload, cell.operation); } catch (e) { throw cannot(e); }
  const peakReset = resetPeakRss();
  const rssBefore = kib('VmRSS');
  const times = [];
  for (let i = 0; i < calls; i++) {
    const start = process.hrtime.bigint();
    const result = fn();
    times.push(Number(process.hrtime.bigint() - start));
    if (result == null) throw new LabError('the operation returned nothing', 'a variant must return what it produced');
  }
  const peak = kib('VmHWM');
  process.stderr.write(`${cell.name}: ${calls} timed call(s), first ${(times[0] / 1e6).toFixed(3)} ms, after ${warmupCalls} warm-up call(s)`
    + ` (${warmupMs.toFixed(0)} ms); resident ${(rssBefore / 1048576).toFixed(1)} MiB before, peak ${(peak / 1048576).toFixed(1)} MiB\n`);
  clock = performance.now();
  const verification = verify(cell.variant, cell.payload, cell.operation);
  const verifyMs = performance.now() - clock;
  writeJson(path.join(out, 'verification.json'), verification);
  process.stderr.write(`${cell.name}: verification ${verification.status}: ${verification.message}\n`);
  writeJson(path.join(out, 'samples.json'), {
    schema_version: 1,
    engine: { name: 'jsonlab single-shot', version: '1' },
    iterations_ns: times,
    allocated_bytes_per_op: null,
    single_shot: {
      calls, warmup_dataset: warmupDataset || null, warmup_calls: warmupCalls, warmup_ms: Math.round(warmupMs * 10) / 10,
      rss_before_bytes: rssBefore, peak_rss_bytes: peak, peak_rss_of: peakReset ? 'timed-calls' : 'process',
      timed: 'each call alone (process.hrtime around the call); not process start, the file read, the warm-up or the verification',
    },
  });
  const round = (ms) => Math.round(ms * 10) / 10;
  writeJson(path.join(out, 'cell.json'), {
    schema_version: 1, cell: cell.name, variant: cell.variant.variant, library: cell.variant.library,
    library_version: cell.variant.libraryVersion, dataset: cell.payload.name, operation: cell.operation, status: 'measured',
    payload_form: cell.variant.payloadForm, model_binding: cell.variant.modelBinding, model_type: cell.variant.modelBinding,
    dataset_sha256: cell.payload.sha256, description: cell.variant.description, verification_status: verification.status,
    invocation_count: calls,
    timings_ms: { load_ms: round(loadMs), warmup_ms: round(warmupMs), verify_ms: round(verifyMs) }, raw_report: 'samples.json',
  });
  writeJson(path.join(out, 'process.json'), { schema_version: 1, cells: [cell.name], start_to_main_ms: round(mainEntered) });
  return 0;
}

function onceVerb(args) {
  const cell = cellOf(args);
  let exit = 0;
  try {
    const fn = bind(cell.variant, cell.payload, cell.operation);
    if (args.optional('prepare-only', 'false') !== 'true') exit = fn() == null ? 3 : 0;
  } catch (e) {
    if (e instanceof LabError) throw e;
    throw new LabError(`${cell.variant.library} cannot ${cell.operation} ${cell.payload.name} here: ${e.message}`, 'its other cells still run');
  }
  if (args.optional('report-rss', 'false') === 'true') {
    process.stdout.write(`peak_rss_bytes ${kib('VmHWM') ?? ''}\ncpus_allowed ${procStatus('Cpus_allowed_list') ?? ''}\n`);
  }
  return exit;
}

const VERBS = {
  env: () => (print(environment()), 0),
  list: () => (print(listing()), 0),
  verify: verifyVerb,
  run: runVerb,
  once: onceVerb,
  shot: shotVerb,
  conformance: conformanceVerb,
};

async function main(argv) {
  try {
    const args = parseArgs(argv);
    const verb = VERBS[args.verb];
    if (!verb) throw new LabError(`unknown verb '${args.verb}'`, `valid verbs: ${Object.keys(VERBS).join(', ')}`);
    return await verb(args);
  } catch (e) {
    if (!(e instanceof LabError)) throw e;
    process.stderr.write(`error: ${e.message}\nhint: ${e.hint}\n`);
    return 2;
  }
}

process.exitCode = await main(process.argv.slice(2));
