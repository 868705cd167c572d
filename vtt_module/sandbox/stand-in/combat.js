// Foundry's Combat encounter, as much of it as a turn order needs: one encounter per scene, its
// combatants the scene's tokens in the scene's order (the stand-in rolls no initiative), and the v13
// turn API (startCombat, nextTurn, nextRound, previousTurn) with its hooks: `combatStart`, `combatTurn`
// or `combatRound` on the client that moves the turn, before the update; then on every client, after
// the update, `combatTurnChange(combat, prior, current)` when the combatant or the round changed, and
// `updateCombat(combat, changed, options, userId)`. TEST STAND-IN, NOT FOUNDRY.

import { Collection, Document, permissionError } from "./documents.js";
import { Hooks } from "./hooks.js";
import { postChange } from "./sync.js";
import { deepClone, expandObject, mergeObject } from "./utils.js";

export class Combatant {
  constructor(combat, token) {
    this.parent = combat;
    this.id = `cbt-${token.id}`;
    this.tokenId = token.id;
    this.sceneId = token.parent.id;
    this.actorId = token.actor.id;
    this.name = token.name;
    this.initiative = null;
    this.defeated = false;
  }

  get token() {
    return this.parent.scene.tokens.get(this.tokenId) ?? null;
  }

  get actor() {
    return this.token?.actor ?? null;
  }

  get isDefeated() {
    return this.defeated;
  }
}

export class Combat extends Document {
  static documentName = "Combat";

  constructor(world, scene) {
    super(world, { id: `cmb-${scene.id}`, name: scene.name });
    this.scene = scene;
    this.round = 0;
    /** No one's turn until the encounter begins (v13: `turn` is null then). */
    this.turn = null;
    this.active = true;
    this.combatants = new Collection();
    for (const token of scene.tokens.contents) {
      const combatant = new Combatant(this, token);
      this.combatants.set(combatant.id, combatant);
    }
    /** Foundry's `Combat.HistoryData` now and before the last change. */
    this.current = this._getCurrentState();
    this.previous = null;
  }

  /** The combatants in turn order. */
  get turns() {
    return this.combatants.contents;
  }

  get combatant() {
    return this.turn === null ? null : (this.turns[this.turn] ?? null);
  }

  get started() {
    return this.round > 0;
  }

  /** @returns {{round: number | null, turn: number | null, tokenId: string | null, combatantId: string | null}} */
  _getCurrentState(combatant = this.combatant) {
    return { round: this.round, turn: this.turn ?? null, combatantId: combatant?.id ?? null, tokenId: combatant?.tokenId ?? null };
  }

  async startCombat() {
    const updateData = { round: 1, turn: 0 };
    Hooks.callAll("combatStart", this, updateData);
    return this.update(updateData);
  }

  async nextTurn() {
    const next = (this.turn ?? -1) + 1;
    if (this.round === 0 || next >= this.turns.length) return this.nextRound();
    const updateData = { round: this.round, turn: next };
    const updateOptions = { advanceTime: 0, direction: 1 };
    Hooks.callAll("combatTurn", this, updateData, updateOptions);
    return this.update(updateData, updateOptions);
  }

  async nextRound() {
    const updateData = { round: this.round + 1, turn: this.turn === null ? null : 0 };
    const updateOptions = { advanceTime: 0, direction: 1 };
    Hooks.callAll("combatRound", this, updateData, updateOptions);
    return this.update(updateData, updateOptions);
  }

  async previousTurn() {
    if (this.turn === 0 && this.round === 0) return this;
    if ((this.turn ?? 0) === 0 && this.round > 0) {
      // Foundry's previousRound: back to round 0 is "not begun", with no one's turn.
      const round = this.round - 1;
      const updateData = { round, turn: round === 0 ? null : this.turns.length - 1 };
      const updateOptions = { advanceTime: 0, direction: -1 };
      Hooks.callAll("combatRound", this, updateData, updateOptions);
      return this.update(updateData, updateOptions);
    }
    const updateData = { round: this.round, turn: (this.turn ?? 1) - 1 };
    const updateOptions = { advanceTime: 0, direction: -1 };
    Hooks.callAll("combatTurn", this, updateData, updateOptions);
    return this.update(updateData, updateOptions);
  }

  /**
   * Apply a turn or flags update here, tell the other clients, fire the hooks as Foundry's `_onUpdate`
   * does (a flags-only update changes no turn: `updateCombat` only).
   */
  /**
   * Who may change the encounter: a GM anything; a player only the turn and round, and only while the
   * combatant whose turn it is is theirs (the stand-in's reading of v13 BaseCombat's update test, which
   * lets a player end their own turn; types: common/documents/combat.d.mts).
   */
  canUserModify(user, action, data = {}) {
    if (!user) return false;
    if (user.isGM) return true;
    if (action !== "update" || Object.keys(data).some((key) => key !== "round" && key !== "turn")) return false;
    return Boolean(this.combatant?.actor?.testUserPermission(user, "OWNER"));
  }

  get storeKey() {
    return `combat/${this.id}`;
  }

  toStore() {
    return { round: this.round, turn: this.turn, flags: deepClone(this.flags) };
  }

  async update(changes, { fromSync: _f, userId: _u, ...options } = {}) {
    return this._update(changes, options, { fromSync: false, userId: this.world.me.id });
  }

  async _update(changes, options, { fromSync, userId }) {
    const author = userId;
    const user = this.world.users.get(author);
    if (!this.canUserModify(user, "update", expandObject(deepClone(changes)))) {
      const error = permissionError(user, "update", this);
      if (fromSync) {
        console.warn(`sandbox: refused a change from another page: ${error.message}`);
        return this;
      }
      throw error;
    }
    const changed = {};
    for (const key of ["round", "turn"]) if (key in changes) changed[key] = changes[key];
    const flags = expandObject(deepClone(changes)).flags;
    if (flags) {
      mergeObject(this.flags, flags);
      changed.flags = flags;
    }
    const prior = deepClone(this.current);
    if ("round" in changed || "turn" in changed) {
      for (const key of ["round", "turn"]) if (key in changed) this[key] = changed[key];
      this.current = this._getCurrentState();
      this.previous = prior;
    }
    if (!fromSync) this.world.keep(this);
    if (!fromSync) postChange({ op: "update", doc: this.documentName, id: this.syncId, changes: deepClone(changed), userId: author, options });
    if (this.current.combatantId !== prior.combatantId || this.current.round !== prior.round) {
      Hooks.callAll("combatTurnChange", this, this.previous, this.current);
    }
    Hooks.callAll(`update${this.documentName}`, this, changed, options, author);
    this.world.changed();
    return this;
  }

  /** Put the turn (and flags) where a saved world had them, without hooks (a reload fires no turn change). */
  restore({ round, turn, flags }) {
    this.round = round;
    this.turn = turn;
    if (flags) this.flags = deepClone(flags);
    this.current = this._getCurrentState();
  }
}
