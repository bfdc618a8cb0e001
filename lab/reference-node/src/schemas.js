// JSON Schemas per dataset for the schema-compiled variants (fast-json-stringify): schemas/<dataset>.schema.json.
// A dataset without one has no schema variant; verification checks that a schema loses nothing of its dataset.

import { existsSync, readFileSync } from 'node:fs';

const folder = new URL('../schemas/', import.meta.url);

/** The schema file of a dataset (dataset name with a -N size suffix removed: simple-models-100 → simple-models), or null. */
export function schemaFor(dataset) {
  for (const name of [dataset, dataset.replace(/-\d+$/, '')]) {
    const url = new URL(`${name}.schema.json`, folder);
    if (existsSync(url)) return url;
  }
  return null;
}

export function loadSchema(dataset) {
  return JSON.parse(readFileSync(schemaFor(dataset), 'utf8'));
}
