// Which Foundry the stand-in plays: v13 or v14 (`?foundry=13|14`, default 14), and the parts of v14 that
// differ from v13 where Volley meets them. TEST STAND-IN, NOT FOUNDRY. Each choice names its source;
// STANDIN.md has the table. Foundry's own v14 client source is not public: what is not established is
// said so, and modelled strictly (so the module must do the documented thing, not the lucky one).

/**
 * The builds the stand-in plays. v14: 14.366, the build of foundry-vtt-types' main branch (package
 * 14.366.0) the v14 behaviours below were read from; v13: 13.345, the types package 13.345.1 the v13
 * stand-in cites.
 */
export const RELEASES = Object.freeze({
  13: Object.freeze({ generation: 13, build: 345, version: "13.345" }),
  14: Object.freeze({ generation: 14, build: 366, version: "14.366" }),
});

/** @param {URLSearchParams} params */
export function readGeneration(params) {
  return params.get("foundry") === "13" ? 13 : 14;
}

/**
 * Every compatibility warning the page logged, in order, for a test to read (`sandbox.compatWarnings`),
 * like `hookErrors`: `fromVolley` when the module's own code (a frame under /modules/volley/) made the
 * call that warned.
 * @type {{message: string, since: number, until: number, stack: string, fromVolley: boolean}[]}
 */
export const compatWarnings = [];

const warnedOnce = new Set();

/**
 * `foundry.utils.logCompatibilityWarning(message, {since, until, once})` as core logs it (the text of the
 * v14 warnings quoted in public issues, e.g. JohanFalt/Foundry_WoD20#1395: "Error: <message>\nDeprecated
 * since Version 14\nBackwards-compatible support will be removed in Version 16" and the stack). Core's
 * default mode (CONFIG.compatibility.mode WARNING, types client/config.d.mts) logs it with console.warn.
 */
export function logCompatibilityWarning(message, { since = 0, until = 0, once = false, stack = new Error().stack ?? "" } = {}) {
  if (once && warnedOnce.has(message)) return;
  warnedOnce.add(message);
  const frames = String(stack).split("\n").slice(1).join("\n");
  compatWarnings.push({ message, since, until, stack: frames, fromVolley: /\/modules\/volley\//.test(frames) });
  console.warn(`Error: ${message}\nDeprecated since Version ${since}\nBackwards-compatible support will be removed in Version ${until}\n${frames}`);
}

/**
 * v14's chat message modes, CONFIG.ChatMessage.modes (types main, client/config.d.mts `ChatMessage.Modes`:
 * public, gm, blind, self, ic, each a label and an icon).
 */
export const MESSAGE_MODES = Object.freeze({
  public: Object.freeze({ label: "CHAT.MODES.public", icon: "fa-solid fa-globe" }),
  gm: Object.freeze({ label: "CHAT.MODES.gm", icon: "fa-solid fa-user-secret" }),
  blind: Object.freeze({ label: "CHAT.MODES.blind", icon: "fa-solid fa-eye-slash" }),
  self: Object.freeze({ label: "CHAT.MODES.self", icon: "fa-solid fa-user" }),
  ic: Object.freeze({ label: "CHAT.MODES.ic", icon: "fa-solid fa-hat-wizard" }),
});

/** v13's roll modes, CONFIG.Dice.rollModes (still there in v14, deprecated: foundryvtt/dnd5e#6958). */
export const ROLL_MODES = Object.freeze({
  publicroll: Object.freeze({ label: "CHAT.RollPublic", icon: "fa-solid fa-globe" }),
  gmroll: Object.freeze({ label: "CHAT.RollPrivate", icon: "fa-solid fa-user-secret" }),
  blindroll: Object.freeze({ label: "CHAT.RollBlind", icon: "fa-solid fa-eye-slash" }),
  selfroll: Object.freeze({ label: "CHAT.RollSelf", icon: "fa-solid fa-user" }),
});

/**
 * `Roll._mapLegacyRollMode` (types main client/dice/roll.d.mts, "Map a legacy rollMode into a message
 * mode string"): the four legacy names to their message modes. The stand-in's reading: anything else
 * passes through as it is.
 */
export function legacyToMessageMode(mode) {
  return { publicroll: "public", gmroll: "gm", blindroll: "blind", selfroll: "self" }[mode] ?? mode;
}

/** The other way, for the deprecated `core.rollMode` read on v14: `ic` is public. Not established. */
export function messageModeToLegacy(mode) {
  return { public: "publicroll", ic: "publicroll", gm: "gmroll", blind: "blindroll", self: "selfroll" }[mode] ?? mode;
}

/**
 * v14's CONFIG.statusEffects: "changed from `StatusEffectConfig[]` to `{[id]: StatusEffectConfig}` with
 * backwards compatibility" (foundryvtt/foundryvtt#13122). The value is a Proxy around an array: keyed by
 * id (`statusEffects[id]`, `Object.values`, `foundry.utils.mergeObject` into it: Twodsix 7.x's
 * setup.js does), its own keys the ids plus "length", and core still pushes to and splices from the
 * array inside (foundry-vtt-types#3686, read against 14.367's client/config.mjs; SR5-FoundryVTT#1960).
 *
 * Whether the array methods warn when a package calls them is not established: the stand-in logs a
 * compatibility warning for each (strict), so Volley must use the keyed form.
 * @param {{id: string}[]} list
 */
export function statusRegistry(list) {
  const array = [...list];
  const indexOf = (id) => array.findIndex((status) => status?.id === id);
  const isIndex = (key) => typeof key === "string" && /^(0|[1-9]\d*)$/.test(key);
  const arrayWarning = (name) =>
    logCompatibilityWarning(`CONFIG.statusEffects is an object keyed by status id; Array#${name} on it is deprecated`, { since: 14, until: 16 });
  return new Proxy(array, {
    get(target, key, receiver) {
      if (typeof key === "symbol" || key === "length") return Reflect.get(target, key, receiver);
      if (isIndex(key)) return target[Number(key)];
      const index = indexOf(key);
      if (index >= 0) return target[index];
      const value = Reflect.get(target, key, receiver);
      if (typeof value === "function" && key in Array.prototype) {
        return (...args) => {
          arrayWarning(key);
          return value.apply(target, args);
        };
      }
      return value;
    },
    set(target, key, value) {
      if (typeof key === "symbol" || key === "length" || isIndex(key)) return Reflect.set(target, key, value);
      const index = indexOf(key);
      const entry = value && typeof value === "object" ? { ...value, id: key } : value;
      if (index >= 0) target[index] = entry;
      else target.push(entry);
      return true;
    },
    deleteProperty(target, key) {
      const index = typeof key === "string" ? indexOf(key) : -1;
      if (index >= 0) target.splice(index, 1);
      return true;
    },
    has(target, key) {
      return (typeof key === "string" && indexOf(key) >= 0) || Reflect.has(target, key);
    },
    ownKeys(target) {
      return [...target.map((status) => status?.id).filter((id) => typeof id === "string"), "length"];
    },
    getOwnPropertyDescriptor(target, key) {
      if (key === "length") return Reflect.getOwnPropertyDescriptor(target, key);
      const index = typeof key === "string" ? indexOf(key) : -1;
      if (index < 0) return undefined;
      return { value: target[index], writable: true, enumerable: true, configurable: true };
    },
  });
}

/** A status's config, whatever shape CONFIG.statusEffects has (the stand-in's own reads). */
export function findStatus(effects, id) {
  if (!effects || typeof effects !== "object") return null;
  const keyed = effects[id];
  if (keyed && typeof keyed === "object" && keyed.id === id) return keyed;
  return Object.values(effects).find((status) => status && typeof status === "object" && status.id === id) ?? null;
}
