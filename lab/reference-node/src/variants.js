// The variants this lab offers: one adapter each, as in lab/dotnet/src/Adapters. An adapter names its library and
// version, the payload form it reads or writes, the model binding (an untyped document tree, or a JSON Schema), the
// operations it can perform, and `bind(payload, operation)`, which prepares everything outside the timed call and
// returns the call itself; an adapter whose steps chain lists its `composites` and gives its `steps` (the same calls
// as its single operations, src/composites.js). Adding a variant is adding one entry here.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import fastJsonStringify from 'fast-json-stringify';

import { COMPOSITES, bindComposite, isComposite } from './composites.js';
import { LabError } from './errors.js';
import { loadSchema, schemaFor } from './schemas.js';

const require = createRequire(import.meta.url);
const packageVersion = (name) => JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')).version;

export const DESERIALIZE = 'deserialize';
export const SERIALIZE = 'serialize';
export const OPERATIONS = [DESERIALIZE, SERIALIZE];

const builtinJson = { library: 'JSON (V8 built-in)', libraryVersion: () => process.versions.v8 };

const ADAPTERS = [
  {
    variant: 'json-string',
    ...builtinJson,
    payloadForm: 'string',
    modelBinding: 'document',
    operations: [DESERIALIZE, SERIALIZE],
    composites: COMPOSITES,
    steps: { input: (payload) => payload.text, parse: (text) => JSON.parse(text), write: (document) => JSON.stringify(document) },
    description: 'JSON.parse of a JavaScript string into plain objects; JSON.stringify of them back to a string',
    bind(payload, operation) {
      if (operation === DESERIALIZE) {
        const text = payload.text;
        return () => JSON.parse(text);
      }
      const document = JSON.parse(payload.text);
      return () => JSON.stringify(document);
    },
  },
  {
    variant: 'json-utf8',
    ...builtinJson,
    payloadForm: 'utf8_bytes',
    modelBinding: 'document',
    operations: [DESERIALIZE, SERIALIZE],
    composites: COMPOSITES,
    steps: {
      input: (payload) => payload.bytes,
      parse: (bytes) => JSON.parse(bytes.toString('utf8')),
      write: (document) => Buffer.from(JSON.stringify(document), 'utf8'),
    },
    description: 'as a server receives and sends it: UTF-8 bytes (a Buffer) decoded, then JSON.parse; JSON.stringify, then encoded to a UTF-8 Buffer',
    bind(payload, operation) {
      if (operation === DESERIALIZE) {
        const bytes = payload.bytes;
        return () => JSON.parse(bytes.toString('utf8'));
      }
      const document = JSON.parse(payload.text);
      return () => Buffer.from(JSON.stringify(document), 'utf8');
    },
  },
  {
    variant: 'fast-json-stringify',
    library: 'fast-json-stringify',
    libraryVersion: () => packageVersion('fast-json-stringify'),
    payloadForm: 'string',
    modelBinding: 'schema',
    operations: [SERIALIZE],
    description: "fast-json-stringify's serializer compiled from the dataset's JSON Schema (lab/reference-node/schemas/), to a string",
    accepts: (payload) => schemaFor(payload.name, payload.model) !== null,
    bind(payload, operation) {
      const stringify = fastJsonStringify(loadSchema(payload.name, payload.model));
      const document = JSON.parse(payload.text);
      return () => stringify(document);
    },
  },
];

export const VARIANTS = ADAPTERS.map((a) => ({ ...a, libraryVersion: a.libraryVersion() }));

export function findVariant(name) {
  const found = VARIANTS.find((v) => v.variant === name);
  if (!found) throw new LabError(`unknown variant '${name}'`, `variants of this lab: ${VARIANTS.map((v) => v.variant).join(', ')}`);
  return found;
}

/** The single and composite operations a variant performs. */
export const operationsOf = (variant) => [...variant.operations, ...(variant.composites ?? [])];

/** Whether a variant can perform `operation` on a dataset: a single JSON document with a canonical digest, and its own
 * condition (fast-json-stringify: a schema for the dataset). */
export function supports(variant, payload, operation) {
  return operationsOf(variant).includes(operation) && payload.canonical !== null && (variant.accepts?.(payload) ?? true);
}

export function bind(variant, payload, operation) {
  if (!operationsOf(variant).includes(operation)) {
    throw new LabError(`variant '${variant.variant}' cannot ${operation}`, `its operations: ${operationsOf(variant).join(', ')}`);
  }
  if (!supports(variant, payload, operation)) {
    throw new LabError(`variant '${variant.variant}' has nothing to ${operation} dataset '${payload.name}' with`,
      payload.canonical === null ? 'the dataset is not one JSON document with a canonical digest in the manifest' : 'see the variant description (a JSON Schema for the dataset?)');
  }
  return isComposite(operation) ? bindComposite(variant.steps, payload, operation) : variant.bind(payload, operation);
}
