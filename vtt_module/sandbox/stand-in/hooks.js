// Foundry's Hooks: on/once/off, callAll (every listener, in order) and call (stops at a false).

const hooks = new Map();
let nextId = 1;

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
    for (const h of list) {
      try {
        h.fn(...args);
      } catch (error) {
        console.error(`hook ${name} failed`, error);
        throw error;
      }
    }
    return true;
  },
  call(name, ...args) {
    const list = hooks.get(name) ?? [];
    hooks.set(name, list.filter((h) => !h.once));
    for (const h of list) if (h.fn(...args) === false) return false;
    return true;
  },
};
