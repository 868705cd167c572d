// What the adapters' tests share: the game systems' actors (tests/js/fixtures/<game system>/<name>.json,
// an actor's prepared data as the system builds it), each read once with copies to change in a test,
// and the rule every adapter's writeState keeps for a state that carries no rounds or bad ones.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

/**
 * An actor's data as its fixture file holds it.
 * @param {string} path under fixtures/, e.g. "gurps/soldier.json"
 */
export function fixture(path) {
  return JSON.parse(readFileSync(new URL(`./fixtures/${path}`, import.meta.url), "utf8"));
}

/**
 * A fixture actor, and a maker of copies: `copy(change)` is a deep copy with `change` applied to it,
 * so a test can break one field and leave the fixture as it is.
 * @param {string} path under fixtures/
 */
export function fixtureActor(path) {
  const actor = fixture(path);
  const copy = (change = () => {}) => {
    const changed = structuredClone(actor);
    change(changed);
    return changed;
  };
  return { actor, copy };
}

/** The item with this id in an actor's data. */
export const itemOf = (actor, id) => actor.items.find((i) => i._id === id);

/**
 * Every adapter alike: a state that says nothing about rounds writes nothing; rounds that are not a
 * whole number of 0 or more are refused naming `state.loaded`, and a state that is not an object is
 * refused too, writing nothing either way.
 */
export function assertRoundsChecked(adapter, actor, weapon) {
  assert.deepEqual(adapter.writeState(actor, weapon, { jammed: false }), []);
  for (const loaded of [-1, -3, 2.5, "3", Number.NaN, null]) {
    assert.throws(() => adapter.writeState(actor, weapon, { loaded }), { name: "RangeError", message: /^state\.loaded/ }, String(loaded));
  }
  for (const state of [null, "24"]) assert.throws(() => adapter.writeState(actor, weapon, state), TypeError, String(state));
}
