// Where a window is in v13's life cycle (scripts/foundry/app-state.js): a re-render asked while it is
// rendering or rendered will draw; one asked while it closes, is closed, failed or was never drawn will not.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { isShowing } from "../../vtt_module/scripts/foundry/app-state.js";

/** v13 ApplicationV2.RENDER_STATES. */
const STATES = { ERROR: -3, CLOSING: -2, CLOSED: -1, NONE: 0, RENDERING: 1, RENDERED: 2 };

class App {
  static RENDER_STATES = STATES;
  /** @param {number} state */
  constructor(state) {
    this.state = state;
  }
}

describe("whether a window is showing", () => {
  it("is while a render draws it, not only once it is RENDERED (v13's `rendered`)", () => {
    assert.equal(isShowing(new App(STATES.RENDERING)), true);
    assert.equal(isShowing(new App(STATES.RENDERED)), true);
  });

  it("is not while it closes, once closed, after a failed render, or before its first", () => {
    for (const state of [STATES.CLOSING, STATES.CLOSED, STATES.ERROR, STATES.NONE]) {
      assert.equal(isShowing(new App(state)), false, `state ${state}`);
    }
  });

  it("reads the states from the class, as v13 defines them", () => {
    class Renumbered extends App {
      static RENDER_STATES = { ...STATES, RENDERING: 10, RENDERED: 20 };
    }
    assert.equal(isShowing(new Renumbered(20)), true);
    assert.equal(isShowing(new Renumbered(STATES.RENDERED)), false);
  });
});
