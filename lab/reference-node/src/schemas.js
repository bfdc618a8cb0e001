// JSON Schemas per dataset for the schema-compiled variants (fast-json-stringify): schemas/<dataset>.schema.json, or for a
// dataset of a model declared as data (datasets/models/*.toml) the one the harness writes for that model,
// schemas/declared/<space>.<root>.schema.json. A dataset without one has no schema variant; verification checks that a
// schema loses nothing of its dataset.

import { existsSync, readFileSync } from 'node:fs';

const folder = new URL('../schemas/', import.meta.url);

/** The schema file of a dataset: its declared model's, else its own (dataset name with a -N size suffix removed:
 * simple-models-100 → simple-models), or null. */
export function schemaFor(dataset, model = null) {
  const names = [dataset, dataset.replace(/-\d+$/, '')].map((name) => `${name}.schema.json`);
  if (model && /^[a-z][a-z0-9-]*\.[a-z][a-z0-9-]*$/.test(model)) names.unshift(`declared/${model}.schema.json`);
  for (const name of names) {
    const url = new URL(name, folder);
    if (existsSync(url)) return url;
  }
  return null;
}

export function loadSchema(dataset, model = null) {
  return JSON.parse(readFileSync(schemaFor(dataset, model), 'utf8'));
}
