// A standing overwatch order ends when a combat's turn comes back to its shooter (seed 004, "Караул"):
// only that token's order, only on the browser that writes, only while the world's setting allows it,
// and only when the turn order moves forward.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { isStanding, ordersEnding, turnBeginsFor } from "../../vtt_module/scripts/standing-orders.js";
import d100 from "../../vtt_module/scripts/systems/d100/index.js";
import gurps from "../../vtt_module/scripts/systems/gurps/index.js";

const VEX = "tokVex0000000001";
const HERETIC = "tokHeretic0000002";
const ORDER = { mode: "short_burst", trigger: "anyone crosses the bridge", facing: 352, arc: 45 };

/** Where the turn order stands: round, turn, and the combatant (named after its token). */
const at = (round, turn, tokenId) => ({ round, turn, tokenId, combatantId: tokenId ? `c-${tokenId}` : null });

/** The world: Vex holds an order, the Heretic holds none. */
const STATES = { [VEX]: { overwatch: ORDER, cover: { ap: 2 } }, [HERETIC]: { cover: null } };

function ending(prior, current, { writer = true, enabled = true, orders = d100.standingOrders, states = STATES } = {}) {
  return ordersEnding({ prior, current, writer, enabled, orders, stateOf: (id) => states[id] ?? null });
}

describe("d100 names overwatch as its standing order", () => {
  it("overwatch, with a notice the module has words for", () => {
    assert.deepEqual(d100.standingOrders, [{ state: "overwatch", notice: "VOLLEY.D100.OverwatchEnds" }]);
    assert.equal(gurps.standingOrders, undefined, "GURPS has no order that ends by itself");
  });
});

describe("whose turn begins", () => {
  it("the next turn in the round is its combatant's", () => {
    assert.equal(turnBeginsFor(at(1, 0, VEX), at(1, 1, HERETIC)), HERETIC);
  });

  it("a new round begins the first combatant's turn", () => {
    assert.equal(turnBeginsFor(at(1, 3, "tokDemagogue00004"), at(2, 0, VEX)), VEX);
  });

  it("a lone combatant's next round is their next turn", () => {
    assert.equal(turnBeginsFor(at(1, 0, VEX), at(2, 0, VEX)), VEX);
  });

  it("the start of combat begins the first combatant's first turn", () => {
    assert.equal(turnBeginsFor(at(0, null, null), at(1, 0, VEX)), VEX);
    assert.equal(turnBeginsFor({ round: 0, turn: 0, tokenId: VEX, combatantId: `c-${VEX}` }, at(1, 0, VEX)), VEX);
  });

  it("stepping back begins nobody's turn", () => {
    assert.equal(turnBeginsFor(at(1, 1, HERETIC), at(1, 0, VEX)), null);
    assert.equal(turnBeginsFor(at(2, 0, VEX), at(1, 3, VEX)), null);
  });

  it("the same combatant re-indexed in the same round (initiative rolled again) is not a new turn", () => {
    assert.equal(turnBeginsFor(at(1, 2, VEX), at(1, 0, VEX)), null);
    assert.equal(turnBeginsFor(at(1, 0, VEX), at(1, 2, VEX)), null);
  });

  it("a combatant with no token, an unstarted or ended combat begins nothing", () => {
    assert.equal(turnBeginsFor(at(1, 0, VEX), at(1, 1, null)), null);
    assert.equal(turnBeginsFor(at(1, 0, VEX), { round: 1, turn: 1, tokenId: "", combatantId: "c" }), null);
    assert.equal(turnBeginsFor(at(1, 0, VEX), at(0, null, null)), null);
    assert.equal(turnBeginsFor(at(1, 0, VEX), { round: null, turn: null, tokenId: HERETIC, combatantId: "c" }), null);
    assert.equal(turnBeginsFor(null, undefined), null);
  });
});

describe("which orders end", () => {
  it("the turn coming back to Vex ends his order, on the writing browser", () => {
    assert.deepEqual(ending(at(1, 3, "tokDemagogue00004"), at(2, 0, VEX)), {
      token: VEX,
      orders: [{ state: "overwatch", notice: "VOLLEY.D100.OverwatchEnds" }],
    });
  });

  it("another combatant's turn leaves Vex's order standing", () => {
    assert.equal(ending(at(1, 0, VEX), at(1, 1, HERETIC)), null);
  });

  it("a player's browser (not the writer) does nothing", () => {
    assert.equal(ending(at(1, 3, "tokDemagogue00004"), at(2, 0, VEX), { writer: false }), null);
  });

  it("with the world's setting off nothing ends", () => {
    assert.equal(ending(at(1, 3, "tokDemagogue00004"), at(2, 0, VEX), { enabled: false }), null);
  });

  it("a system without standing orders ends nothing", () => {
    assert.equal(ending(at(1, 3, "tokDemagogue00004"), at(2, 0, VEX), { orders: [] }), null);
  });

  it("stepping back to Vex does not end his order", () => {
    assert.equal(ending(at(1, 1, HERETIC), at(1, 0, VEX)), null);
  });

  it("a token holding no order, a lifted order (null), or a token gone from the world ends nothing", () => {
    assert.equal(ending(at(1, 3, VEX), at(2, 0, HERETIC)), null);
    assert.equal(ending(at(1, 3, HERETIC), at(2, 0, VEX), { states: { [VEX]: { overwatch: null } } }), null);
    assert.equal(ending(at(1, 3, HERETIC), at(2, 0, VEX), { states: {} }), null);
  });

  it("an order is whatever the state holds but null, missing or false", () => {
    assert.deepEqual([ORDER, {}, "x", 0, true].map(isStanding), [true, true, true, true, true]);
    assert.deepEqual([null, undefined, false].map(isStanding), [false, false, false]);
  });
});
