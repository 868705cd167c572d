// The few foundry.utils the module and the stand-in use, with Foundry's semantics: dotted paths,
// update objects that mix "a.b" keys and nested objects, arrays replaced whole, "-=key" deletes.

const FORBIDDEN = new Set(["__proto__", "prototype", "constructor"]);

export function isPlainObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function deepClone(value) {
  return value === undefined ? undefined : structuredClone(value);
}

export function getProperty(object, path) {
  if (!path) return object;
  return String(path)
    .split(".")
    .reduce((o, key) => (o === undefined || o === null ? undefined : o[key]), object);
}

export function setProperty(object, path, value) {
  const parts = String(path).split(".");
  if (parts.some((part) => FORBIDDEN.has(part))) throw new Error(`refused path ${path}`);
  let o = object;
  for (const part of parts.slice(0, -1)) {
    if (!isPlainObject(o[part])) o[part] = {};
    o = o[part];
  }
  o[parts.at(-1)] = value;
  return true;
}

/** {"a.b": 1, c: {d: 2}} -> {a: {b: 1}, c: {d: 2}} */
export function expandObject(flat) {
  const out = {};
  for (const [key, value] of Object.entries(flat ?? {})) {
    setProperty(out, key, isPlainObject(value) ? expandObject(value) : value);
  }
  return out;
}

/** Merge `source` into `target` in place (objects recursively, everything else replaced). */
export function mergeObject(target, source) {
  for (const [key, value] of Object.entries(source ?? {})) {
    if (FORBIDDEN.has(key)) continue;
    if (key.startsWith("-=")) {
      delete target[key.slice(2)];
      continue;
    }
    if (isPlainObject(value) && isPlainObject(target[key])) mergeObject(target[key], value);
    else target[key] = isPlainObject(value) || Array.isArray(value) ? deepClone(value) : value;
  }
  return target;
}
