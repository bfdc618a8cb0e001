// `env`: the runtime, its exact version, the flags the process was started with, and the libraries it loads.
//
// ISA: V8 takes its CPU-feature switches (--no-enable-avx2, …) on the command line only, and nothing in the process
// can read back whether the code generator honoured them. They are reported as requested (execArgv), and the
// `isa_readback` field says the level cannot be verified in-process, so the harness labels such rows accordingly.

import { readFileSync } from 'node:fs';
import os from 'node:os';

import { ENGINE } from './measure.js';
import { VARIANTS } from './variants.js';

function osName() {
  try {
    return readFileSync('/etc/os-release', 'utf8').match(/^PRETTY_NAME="?([^"\n]*)"?/m)?.[1] ?? os.version();
  } catch {
    return `${os.type()} ${os.release()}`;
  }
}

/** A field of /proc/self/status (Linux), or null. */
export function procStatus(field) {
  try {
    return readFileSync('/proc/self/status', 'utf8').match(new RegExp(`^${field}:\\s*(.*)$`, 'm'))?.[1].trim() ?? null;
  } catch {
    return null;
  }
}

export function environment() {
  const libraries = Object.fromEntries(VARIANTS.map((v) => [v.library, v.libraryVersion]));
  libraries[ENGINE.name] = ENGINE.version;
  return {
    schema_version: 1,
    lab: 'reference-node',
    language: 'JavaScript',
    runtime: 'Node.js',
    runtime_version: process.versions.node,
    runtime_description: `Node.js ${process.version} (V8 ${process.versions.v8})`,
    arch: process.arch,
    os: osName(),
    processor_count: os.availableParallelism(),
    cpus_allowed: procStatus('Cpus_allowed_list'),
    jit: true,
    v8_version: process.versions.v8,
    exec_argv: process.execArgv,
    runtime_switches: Object.fromEntries(Object.entries(process.env).filter(([k]) => k === 'NODE_OPTIONS' || k.startsWith('JSONLAB_'))),
    isa: {},
    isa_readback: false,
    isa_requested_flags: process.execArgv.filter((flag) => /^--(no-)?enable-/.test(flag)),
    libraries,
  };
}
