// Foundry's Hooks: on/once/off, callAll (every listener, in order) and call (stops at a false).
//
// A listener that throws does not stop the others, in either: core's private `Hooks.#call` catches the
// error, logs "Error thrown in hooked function '<name>' for hook '<hook>'" and hands it to
// `Hooks.onError` (which logs it and fires the `error` hook), then goes on with the next listener; the
// thrower's return value is undefined, so `call` carries on too. (Read from v13's client
// `helpers/hooks.mjs` as quoted by modules that wrap it, e.g. midi-qol's hookCall; the types package,
// foundry-vtt-types 13.345.1 `client/helpers/hooks.d.mts`, has callAll return `true` always.)

const hooks = new Map();
let nextId = 1;

/** Every error a listener threw, in order, for a test to read (`sandbox.hookErrors`). */
export const hookErrors = [];

function callOne(name, entry, args) {
  try {
    return entry.fn(...args);
  } catch (error) {
    const msg = `Error thrown in hooked function '${entry.fn?.name ?? ""}' for hook '${name}'`;
    console.warn(`Foundry VTT | ${msg}`);
    hookErrors.push({ hook: name, error: String(error?.stack ?? error) });
    if (name !== "error") Hooks.onError("Hooks.#call", error, { msg, hook: name, fn: entry.fn, log: "error" });
    return undefined;
  }
}

export const Hooks = {
  on(name, fn, { once = false } = {}) {
    if (!hooks.has(name)) hooks.set(name, []);
    const id = nextId++;
    hooks.get(name).push({ id, fn, once });
    return id;
  },
  once(name, fn) {
    return Hooks.on(name, fn, { once: true });
  },
  off(name, idOrFn) {
    const list = hooks.get(name) ?? [];
    hooks.set(name, list.filter((h) => h.id !== idOrFn && h.fn !== idOrFn));
  },
  callAll(name, ...args) {
    const list = hooks.get(name) ?? [];
    hooks.set(name, list.filter((h) => !h.once));
    for (const h of list) callOne(name, h, args);
    return true;
  },
  call(name, ...args) {
    const list = hooks.get(name) ?? [];
    hooks.set(name, list.filter((h) => !h.once));
    for (const h of list) if (callOne(name, h, args) === false) return false;
    return true;
  },
  /** v13 `Hooks.onError(location, error, {msg, log, notify, ...data})`: log it, fire `error`. */
  onError(location, error, { msg = "", log = null, ...data } = {}) {
    if (log) console[log === "error" ? "error" : "warn"](msg ? `${msg}. ${error?.message ?? error}` : error);
    Hooks.callAll("error", location, error, data);
  },
};
