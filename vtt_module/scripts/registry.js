/**
 * The rule systems the module can play, each a plug-in found by its id (`gurps`, `megatraveller`, `d100`).
 *
 * A plug-in is one folder, `scripts/systems/<id>/`, whose `index.js` default-exports a `RuleSystemPlugin`
 * (below), registered by one line in `scripts/systems/index.js`. Everything a system decides lives in
 * its plug-in: what the profile editor asks for (its weapon notation), how a weapon's rounds and jam are
 * read for the HUD, how the referee's browser turns a player's choice into a rules request from the
 * actor's stored numbers, where a result's state lands, and its attack dialog. The framework (profile
 * editor, HUD, relay, cards, undo) knows none of that; see `vtt_module/README.md`, "Adding a system".
 *
 * Pure: no Foundry globals. A plug-in's dialog, which needs Foundry, is loaded lazily (`dialog()`), so the
 * rest of the plug-in can be imported by node:test.
 */

/**
 * @typedef {import("./profile/types.js").RuleSystemId} RuleSystemId
 * @typedef {import("./profile/types.js").VolleyWeapon} VolleyWeapon
 * @typedef {import("./i18n/format.js").Message} Message
 */

/**
 * One number or word of a system's notation, as the profile editor shows and checks it.
 * @typedef {object} FieldSpec
 * @property {string} key          the property it fills (in the weapon's `stats` or `state`, or the character's numbers)
 * @property {"int" | "text" | "select" | "flag"} kind
 * @property {string} label        i18n key
 * @property {string} [hint]       i18n key: the book's notation in a few words ("13, or 3x9 for a shotgun")
 * @property {number} [min]
 * @property {number} [max]
 * @property {readonly string[]} [options]  for `select`: the values, each labelled `${optionLabel}.${value}`
 * @property {string} [optionLabel]
 * @property {boolean} [optional]  may be left empty (then it is left out)
 * @property {unknown} default     what a new weapon or character starts with
 * @property {(text: string) => ({value: unknown} | {problem: Message})} [parse]
 *   the notation's own reading of the typed text (after the kind's checks), e.g. RoF "3x9"
 */

/**
 * What the profile editor asks for in one system.
 * @typedef {object} ProfileSpec
 * @property {FieldSpec[]} character   the character's numbers (`CharacterNumbers[system]`)
 * @property {FieldSpec | null} skill  the per-weapon skill (`VolleyWeapon.skill`), if the system has one
 * @property {FieldSpec[]} stats       the weapon's book statistics
 * @property {FieldSpec[]} state       the weapon's state (rounds loaded, jammed...) the referee may set by hand
 * @property {(weapon: VolleyWeapon) => {field: string, problem: Message}[]} [check]
 *   rules across fields (rounds loaded no more than the capacity)
 */

/**
 * What the HUD and the weapon picker show without opening anything.
 * @typedef {{loaded: number | null, capacity: number | null, jammed: boolean}} WeaponReadout
 */

/**
 * Everything the referee's browser knows when it builds a rules request: read from the documents, never
 * from what a player's browser sent.
 * @typedef {object} RequestContext
 * @property {ShooterContext} shooter                   the acting token
 * @property {VolleyWeapon} weapon                      the weapon chosen, as the actor holds it now
 * @property {Record<string, any>} character            the actor's numbers for this system
 * @property {Map<string, TargetContext>} targets
 *   every token the choice names, by token id: its `targets[*].id` and the ids in its `tokens` (others
 *   it mentions, e.g. a token in a target's line of fire)
 * @property {{id: string, isGM: boolean}} [requester]  the user whose choice it is (a player, or a GM)
 */

/**
 * Where a token stands, for rules that measure: its centre in metres on its scene (null when the scene's
 * units cannot be turned into metres, or the token is not on a scene).
 * @typedef {{x: number, y: number} | null} TokenCentre
 */

/**
 * The acting token as the documents hold it.
 * @typedef {object} ShooterContext
 * @property {string} id
 * @property {string} name
 * @property {string[]} [statuses]             its active statuses (suppressed, prone...)
 * @property {Record<string, unknown>} [state]
 *   its own Volley state flags (MegaTraveller's target lock, d100's standing overwatch order...)
 * @property {TokenCentre} [centre]
 * @property {string} [lockName]               the name of the token its state is locked on, if any
 */

/**
 * @typedef {object} TargetContext
 * @property {string} id
 * @property {string} name
 * @property {Record<string, any>} character  the target actor's numbers for this system (d100 WP...)
 * @property {string[]} statuses              its active statuses (suppressed, prone...)
 * @property {Record<string, unknown>} state  its Volley state flags (cover...)
 * @property {TokenCentre} [centre]
 */

/**
 * A player's choice as it travels to the referee: the acting token and weapon, and what the player may
 * decide (mode, targets, shots, allocation, situational modifiers). Never skills or rounds.
 * @typedef {{system: string, token: string, weapon: string, action: string, [field: string]: unknown}} Choice
 */

/**
 * @typedef {{type: "attack" | "action", request: Record<string, unknown>}} BuiltRequest
 */

/**
 * A line a system adds under the card's table (GURPS: the malfunction; d100: the rounds spoiled).
 * `label` is a module i18n key; `value` is shown as it is, or localised when it is `{key}`.
 * @typedef {{label: string, value: string | number | {key: string, values?: Record<string, unknown>},
 *   tone?: "good" | "bad" | "alert"}} CardExtra `value`: a number or name, or a module key (with values,
 *   which may be keys themselves); `tone`: how it reads at a glance (a jam cleared, a test failed)
 */

/**
 * What a system says about one target on the card's face, beside its hits: notes (module keys with
 * their values: "13 shots at skill 16", "2 dodged") and, for a token that was not aimed at (a
 * bystander), the word shown after its name (`role`, a module key).
 * @typedef {{key: string, values?: Record<string, string | number | {key: string} | {key: string}[]>,
 *   tone?: "good" | "bad" | "alert"}} CardNote a value may be a module key (a hit location), or a list
 *   of them; `tone`: how it reads at a glance (alert: a critical hit the referee acts on)
 * @typedef {{target: string, notes: CardNote[], role?: string | null}} CardRowNote
 */

/**
 * How a card finds a token's name from its id (a lock, a target the result names only by id).
 * @typedef {{nameOf?: (tokenId: string) => string | null, settled?: "allocated" | "expired" | null}} CardContext
 *   `settled`: how the pending attack a card shows ended (its pool fired, or expired unfired)
 */

/**
 * @typedef {object} RuleSystemPlugin
 * @property {RuleSystemId} id
 * @property {string} label                  i18n key of the system's name
 * @property {readonly string[]} gameSystems `game.system.id`s for which this system is the obvious default
 * @property {ProfileSpec} profile
 * @property {(weapon: VolleyWeapon) => WeaponReadout} readout
 * @property {(key: string) => string | null} weaponStateKey
 *   where a result's state key lands: the weapon state field it sets (`weapon.loaded` -> `loaded`), or null
 *   for state of the token itself (a target lock, a standing overwatch order)
 * @property {(choice: Choice, context: RequestContext) => BuiltRequest} buildRequest
 *   the rules request for a choice; throws FormError naming the choice's field
 * @property {(choice: Choice, context: RequestContext) => {pending_id: string, allocation: unknown}} [buildAllocation]
 *   the second step of a two-step attack (MegaTraveller): which pending attack, and how its pool is split
 * @property {readonly string[]} previewActions  the `choice.action`s whose odds the dialog previews
 * @property {((facts: ChoiceFacts) => ChoiceModelView)} [choice]
 *   the system's choice model (systems/<id>/choice.js) for a token's weapon and targets: what the dialog
 *   edits and the module API fills without a dialog (#37)
 * @property {(() => Promise<{default: AttackDialogClass}>) | null} dialog
 *   loads the attack dialog (null: this system has no dialog yet, and Fire says so)
 * @property {() => Promise<{default: AllocationDialogClass}>} [allocationDialog]
 *   two-step systems: loads the step that splits a pending attack's pool (opened from its card)
 * @property {(result: unknown, context?: CardContext) => CardExtra[]} [cardExtras]
 * @property {(result: unknown) => CardRowNote[]} [cardRows] notes on each target's row
 * @property {(result: unknown) => boolean} [cardHits] whether a result's card has a Hits column (false:
 *   a test or a recovery, which hits nobody)
 * @property {readonly import("./standing-orders.js").StandingOrder[]} [standingOrders]
 *   token state that is a standing order ending when a combat's turn comes back to its holder (d100's
 *   overwatch), with the chat notice that says so (standing-orders.js)
 */

/**
 * A label, an option's words, a refusal or a check's line: an i18n key and its values (a value may be a
 * message itself), put in the user's language by the glue.
 * @typedef {{key: string, values?: Record<string, unknown>}} ChoiceMessage
 */

/**
 * One field of a choice, as the dialog shows it: its form name (the DOM name), label, kind (`int`, `flag`,
 * `select`, `hidden` or `text`), options (a select's), default (as the form holds it: a box is "on" or
 * "off"), bounds, and why it cannot be set now (null: it can).
 * @typedef {{name: string, label: ChoiceMessage, kind: "int" | "flag" | "select" | "hidden" | "text",
 *   default: string, options?: {value: string, label: ChoiceMessage}[], min?: number, max?: number,
 *   disabled?: ChoiceMessage | null}} ChoiceField
 */

/**
 * A button of the attack dialog as the choice model gives it (its words as messages).
 * @typedef {{action: string, label: ChoiceMessage, icon: string, primary?: boolean, needsTargets?: boolean,
 *   blocked?: ChoiceMessage | null, hint?: ChoiceMessage | null}} ChoiceActionSpec
 */

/**
 * What a choice model is built from, as data (gathered by scripts/foundry/choice.js): the system, the
 * shooter's token, the chosen weapon, the shooter's character numbers and the targets with theirs.
 * @typedef {{system: RuleSystemId, token: TargetRef, weapon: VolleyWeapon | null, character: Record<string, unknown>,
 *   targets: {id: string, name: string, character: Record<string, unknown>}[], previewActions: readonly string[],
 *   scene?: {id: string, name: string, x: number, y: number}[], state?: Record<string, unknown>, lockName?: string | null,
 *   tableRules?: Record<string, Record<string, unknown>>, plane?: {inMetres: boolean, origin: {x: number, y: number} | null,
 *   tokens: {id: string, name: string, x: number, y: number}[]}, gm?: boolean}} ChoiceFacts `scene`: the tokens on the
 *   shooter's scene with their centres in grid squares; `state`: the shooter's Volley state (a target lock, a standing
 *   order); `lockName`: the locked token's name; `tableRules`: the table rules as stored; `plane`: the shooter's centre
 *   and the scene's tokens with theirs, in metres when the scene has units, else pixels; `gm`: the user is a game master
 */

/**
 * A system's choice model (systems/common/choice.js `ChoiceModel`).
 * @typedef {object} ChoiceModelView
 * @property {ChoiceFacts} facts
 * @property {Record<string, string>} values
 * @property {() => ChoiceField[]} fields
 * @property {(name: string) => ChoiceMessage | null} labelOf
 * @property {(values: Record<string, string>) => void} assign
 * @property {(name: string, value: unknown) => void} set
 * @property {() => {tally: ChoiceMessage, blocked: ChoiceMessage | null} | null} liveCheck
 * @property {(readout: WeaponReadout) => ChoiceActionSpec[]} actions
 * @property {() => ChoiceActionSpec[]} [bodyActions] the buttons of the system's own body (d100's morale tests)
 * @property {() => {id: string, name: string}[]} [chosenTargets] the tokens fired at, when not the user's targets
 * @property {() => string | null} previewAction
 * @property {(action: string) => Record<string, unknown>} toRequest
 */

/**
 * An attack dialog class: an ApplicationV2 built with the framework's `AttackDialog` base.
 * @typedef {new (setup: any) => {render(options: {force: boolean}): unknown}} AttackDialogClass
 */

/**
 * A token the module API names as a target (its id and the name shown for it).
 * @typedef {{id: string, name: string}} TargetRef
 */

/**
 * What the Foundry glue (the module API, foundry/api.js) may ask of an open attack dialog, so the glue
 * reaches a system's dialog through this contract and never imports it (systems/common/attack-dialog.js
 * `AttackDialog` is the one implementation).
 * @typedef {object} AttackDialogView
 * @property {HTMLElement | null | undefined} element
 * @property {string | null} weaponId
 * @property {TargetRef[] | null} fixedTargets
 * @property {(options: {force: boolean}) => unknown} render
 * @property {(options?: {animate?: boolean}) => Promise<unknown>} close
 * @property {(name: string) => string | null} controlLabel
 * @property {() => Promise<void>} whenSettled
 * @property {(action: string) => Choice} readChoice
 * @property {(error: unknown) => string} refusalText
 * @property {() => string | null} previewAction
 * @property {() => Promise<void>} targetsChanged
 * @property {() => void} refreshPreview
 */

/**
 * The allocation step of a two-step system, opened for one pending attack (`pendingId`, the id of the
 * request the bridge answered with `pending`), by the player who fired or a referee.
 * @typedef {{open(pending: PendingAttack): Promise<unknown>}} AllocationDialogClass
 */

/**
 * A pending attack as its card keeps it: the request id the bridge answered with `pending`, the pool it
 * rolled, the first step's result (its targets in request order), and the choice that asked for it.
 * @typedef {{pendingId: string, token: string, weapon: string | null, pool: unknown, result: unknown,
 *   choice: Choice, messageId?: string | null}} PendingAttack
 */

/** @type {Map<string, RuleSystemPlugin>} */
const plugins = new Map();

/**
 * Make a rule system playable. Its id must be new.
 * @param {RuleSystemPlugin} plugin
 */
export function registerSystem(plugin) {
  if (!plugin || typeof plugin.id !== "string" || !plugin.id) throw new Error("a rule system plug-in needs an id");
  if (plugins.has(plugin.id)) throw new Error(`rule system ${plugin.id} is registered twice`);
  for (const name of ["profile", "readout", "weaponStateKey", "buildRequest"]) {
    if (!(name in plugin)) throw new Error(`rule system ${plugin.id}: the plug-in lacks ${name}`);
  }
  plugins.set(plugin.id, plugin);
}

/**
 * @param {unknown} id
 * @returns {RuleSystemPlugin | null}
 */
export function systemPlugin(id) {
  return typeof id === "string" ? (plugins.get(id) ?? null) : null;
}

/** Every registered system, in registration order. */
export function allSystems() {
  return [...plugins.values()];
}

/**
 * The rule system a world most likely plays, from its game system (`twodsix` -> MegaTraveller), or "".
 * @param {string | undefined | null} gameSystemId
 */
export function defaultRuleSystem(gameSystemId) {
  if (!gameSystemId) return "";
  return allSystems().find((plugin) => plugin.gameSystems.includes(gameSystemId))?.id ?? "";
}

/**
 * The readout most systems share: `state.loaded`, `stats.capacity`, `state.jammed`.
 * @param {VolleyWeapon} weapon
 * @returns {WeaponReadout}
 */
export function standardReadout(weapon) {
  const loaded = weapon.state?.loaded;
  const capacity = weapon.stats?.capacity;
  return {
    loaded: typeof loaded === "number" ? loaded : null,
    capacity: typeof capacity === "number" ? capacity : null,
    jammed: weapon.state?.jammed === true,
  };
}

/**
 * The state mapping most systems share: `weapon.<field>` sets that field of the weapon that fired.
 * @param {string} key
 */
export function standardWeaponStateKey(key) {
  return key.startsWith("weapon.") && key.length > 7 ? key.slice(7) : null;
}
