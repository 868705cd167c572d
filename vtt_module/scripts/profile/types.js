/**
 * The shapes shared by the actor's Volley profile, the game-system adapters and the attack dialogs.
 * Types only (JSDoc); nothing here runs.
 *
 * A weapon is always described the same way, whether the referee typed it into Volley's profile
 * editor (stored in `flags.volley.profile` on the actor) or an adapter read it from the game system:
 * its rule system, its statistics in that system's own notation (the fields of the rules request's
 * `weapon`, minus the state), and its state (what a result's `weapon.*` updates change).
 */

/** @typedef {"gurps" | "megatraveller" | "d100"} RuleSystemId */

/**
 * GURPS: `{rof: number | "3x9", rcl, capacity, malf}`.
 * MegaTraveller: `{kind, rapid, burst, auto, auto_targets, capacity}`.
 * d100: `{class, rof: "S/3/10", capacity, reliability, range, damage?, pen?, damage_type?, blast?, concussive?}`.
 * @typedef {Record<string, unknown>} WeaponStats
 */

/**
 * GURPS: `{loaded, jammed, malfunction}`. MegaTraveller: `{loaded, readiness, selector}`.
 * d100: `{loaded, jammed, spoiled, braced, reserve}`.
 * @typedef {Record<string, unknown>} WeaponState
 */

/**
 * Where a weapon came from. `volley`: the actor's Volley profile. `adapter`: a game system's item or
 * attack, `ref` being what the adapter needs to find it again (an item id, an attack key).
 * @typedef {{kind: "volley"} | {kind: "adapter", adapter: string, ref: string}} WeaponSource
 */

/**
 * @typedef {object} VolleyWeapon
 * @property {string} id        stable within the actor, and safe (letters, digits, `_`, `-`; adapters/identity.js)
 * @property {string} [magazine] the key its magazine's state is kept under, when rows of one physical
 *   weapon share it (GURPS fire modes); else its id
 * @property {string[]} [legacyIds] ids it went by before #31, for state, cards and macros written then
 * @property {RuleSystemId} system
 * @property {string} name
 * @property {WeaponStats} stats
 * @property {WeaponState} state
 * @property {number} [skill]   GURPS: effective skill with it; MegaTraveller: skill level with it
 * @property {WeaponSource} [source]
 */

/**
 * The character's own numbers, per rule system.
 * @typedef {object} CharacterNumbers
 * @property {{armoury?: number}} [gurps]
 * @property {{dex?: number}} [megatraveller]
 * @property {{bs?: number, wp?: number}} [d100]
 */

/**
 * A field an adapter looked for and could not read: shown in the dialog, never guessed.
 * @typedef {{field: string, message: string}} AdapterProblem
 */

/**
 * A write to a game system's own document, e.g. an item's ammunition after a burst.
 * @typedef {{documentName: "Actor" | "Item", id: string, changes: Record<string, unknown>}} DocumentWrite
 */

/**
 * @typedef {object} GameSystemAdapter
 * @property {string} gameSystem  the `game.system.id` it serves
 * @property {RuleSystemId} ruleSystem
 * @property {{system: string, min: string, below: string, tested: string, foundry?: {min: number, max: number}}} [supported]
 *   the game system's versions the adapter reads (from `min`, below `below`; its fixtures follow
 *   `tested`) and the Foundry generations they run on (`foundry`)
 * @property {(game: any) => (AdapterProblem & {key: string, values: Record<string, unknown>}) | null} [noticeFor]
 *   what to tell the table about the installed system when the version alone does not say it (DH2e:
 *   the fork or the original, by its declared Foundry compatibility); `adapterForGame` asks it
 * @property {AdapterProblem & {key: string, values: Record<string, unknown>}} [notice] set by
 *   `adapterForGame` when the installed version is outside `supported`
 * @property {(actor: Record<string, any>) => {character: CharacterNumbers, weapons: VolleyWeapon[], problems: AdapterProblem[],
 *   refused?: (AdapterProblem & {name: string})[]}} readActor  `refused`: weapons it does not offer, each once with the reason
 * @property {(actor: Record<string, any>, weapon: VolleyWeapon, state: WeaponState) => DocumentWrite[]} writeState
 *   the game system's own fields for a weapon's new state (rounds loaded); what the system has no field
 *   for (jams, spoiled rounds, selector) stays in Volley's flags
 */

export {};
