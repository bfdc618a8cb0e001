// The datasets folder the harness mounts: manifest.json names every file with its sha256; a file that does not match
// is refused, so a cell never times a different input than the one its row names.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { LabError } from './errors.js';

export function loadManifest(datasetsDir) {
  const file = path.join(datasetsDir, 'manifest.json');
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new LabError(`cannot read ${file}: ${e.message}`, 'pass the datasets folder of this repository with --datasets');
  }
  const byName = new Map(manifest.datasets.map((d) => [d.name, d]));
  return {
    datasets: manifest.datasets,
    find(name) {
      const entry = byName.get(name);
      if (!entry) throw new LabError(`unknown dataset '${name}'`, `datasets in ${file}: ${[...byName.keys()].join(', ')}`);
      return entry;
    },
  };
}

/** The dataset's bytes, checked against the manifest's sha256. */
export function loadPayload(datasetsDir, entry) {
  const file = path.join(datasetsDir, entry.path);
  let bytes;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    throw new LabError(`dataset '${entry.name}' is missing: ${e.message}`, 'restore the datasets folder (git checkout datasets/)');
  }
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  if (sha256 !== entry.sha256) {
    throw new LabError(`dataset '${entry.name}' (${file}) has sha256 ${sha256}, the manifest says ${entry.sha256}`,
      'the file was changed: restore it, or regenerate datasets and the manifest (just datasets)');
  }
  // The string form is the text as a decoder that honours a byte order mark gives it (TextDecoder, like .NET's
  // File.ReadAllText): without the BOM. The bytes stay as stored, BOM included, as a server would receive them.
  const text = new TextDecoder('utf-8').decode(bytes);
  return { name: entry.name, model: entry.model ?? null, bytes, text, sha256, canonical: entry.canonical ?? null };
}
