/** A language's strings: nested groups of keys. */
export type Dictionary = { [key: string]: string | Dictionary };

/**
 * One language's catalogue from its parts (the shell's, each feature's, the declared resources'): the parts'
 * keys must not collide.
 */
export function merge(parts: Dictionary[]): Dictionary {
  const out: Dictionary = {};
  const into = (target: Dictionary, source: Dictionary, path: string) => {
    for (const [key, value] of Object.entries(source)) {
      const existing = target[key];
      if (typeof value === 'string') {
        if (existing !== undefined) throw new Error(`Duplicate locale key ${path}${key}`);
        target[key] = value;
      } else {
        if (typeof existing === 'string')
          throw new Error(`Locale key ${path}${key} is both a string and a group`);
        target[key] = existing ?? {};
        into(target[key] as Dictionary, value, `${path}${key}.`);
      }
    }
  };
  for (const part of parts) into(out, part, '');
  return out;
}
