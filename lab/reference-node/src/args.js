// Command-line arguments of the lab contract: `<verb> --name value ...`, a name may repeat (--variant a --variant b).

import { LabError } from './errors.js';

export function parseArgs(argv) {
  const [verb, ...rest] = argv;
  const options = new Map();
  for (let i = 0; i < rest.length; i += 2) {
    const name = rest[i];
    if (!name.startsWith('--') || i + 1 >= rest.length) {
      throw new LabError(`malformed arguments near '${name}'`, 'options come as --name value pairs');
    }
    const key = name.slice(2);
    options.set(key, [...(options.get(key) ?? []), rest[i + 1]]);
  }
  return {
    verb,
    all: (key) => options.get(key) ?? [],
    optional: (key, fallback = undefined) => options.get(key)?.at(-1) ?? fallback,
    optionalInt: (key) => {
      const value = options.get(key)?.at(-1);
      if (value === undefined) return undefined;
      const n = Number.parseInt(value, 10);
      if (!Number.isFinite(n)) throw new LabError(`--${key} must be an integer, got '${value}'`, 'pass a whole number');
      return n;
    },
    required: (key) => {
      const value = options.get(key)?.at(-1);
      if (value === undefined) throw new LabError(`--${key} is required for '${verb}'`, `pass --${key} <value>`);
      return value;
    },
  };
}
