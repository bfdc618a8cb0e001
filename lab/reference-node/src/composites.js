// Composite operations: two steps in one timed call (docs/experiments.md "Composite operations"), as the .NET lab's
// OperationBinder.Composites. Each step is the same call its variant makes for that step alone (an adapter's `steps`:
// `input` prepares what its deserialize reads, `parse` reads it, `write` writes a document in the variant's form); the
// second step reads what the first made inside the call, in the variant's own form (a Buffer for the UTF-8 variant).

export const SERIALIZE_THEN_DESERIALIZE = 'serialize-then-deserialize';
export const DESERIALIZE_THEN_SERIALIZE = 'deserialize-then-serialize';
export const DESERIALIZE_THEN_READ = 'deserialize-then-read';
export const COMPOSITES = [SERIALIZE_THEN_DESERIALIZE, DESERIALIZE_THEN_SERIALIZE, DESERIALIZE_THEN_READ];

const STEPS = {
  [SERIALIZE_THEN_DESERIALIZE]: ['serialize', 'deserialize'],
  [DESERIALIZE_THEN_SERIALIZE]: ['deserialize', 'serialize'],
  [DESERIALIZE_THEN_READ]: ['deserialize', 'read'],
};

/** The steps of an operation, in order (one for a single step). */
export const stepsOf = (operation) => STEPS[operation] ?? [operation];

export const isComposite = (operation) => COMPOSITES.includes(operation);

/**
 * Visits every value of a parsed document once, as a program that parses into a tree then reads it: each member by
 * name, each element by index, each scalar's type. Returns the number of leaves visited (scalars, and empty objects or
 * arrays), which for a correct parse is the leaf count of the dataset's canonical form (src/canonical.js).
 */
export function readEveryValue(value) {
  if (value === null || typeof value !== 'object') return 1;
  let leaves = 0;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) leaves += readEveryValue(value[i]);
    return value.length === 0 ? 1 : leaves;
  }
  let members = 0;
  for (const name in value) {
    leaves += readEveryValue(value[name]);
    members++;
  }
  return members === 0 ? 1 : leaves;
}

/** The timed call of a composite for an adapter with `steps`; everything else is prepared here, outside it. */
export function bindComposite(steps, payload, operation) {
  const { input, parse, write } = steps;
  if (operation === SERIALIZE_THEN_DESERIALIZE) {
    const document = JSON.parse(payload.text);
    return () => parse(write(document));
  }
  const read = input(payload);
  if (operation === DESERIALIZE_THEN_SERIALIZE) return () => write(parse(read));
  return () => readEveryValue(parse(read));
}
