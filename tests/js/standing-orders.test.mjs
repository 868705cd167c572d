// A standing overwatch order ends when a combat's turn comes back to its shooter (seed 004, "Караул"):
// only that token's order, only on the browser that writes, only while the world's setting allows it,
// and only when the turn order moves forward.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { isStanding, ordersEnding, recordTurn, turnBeginsFor, turnsBegun } from "../../vtt_module/scripts/standing-orders.js";
import d100 from "../../vtt_module/scripts/systems/d100/index.js";
import gurps from "../../vtt_module/scripts/systems/gurps/index.js";

const VEX = "tokVex0000000001";
const HERETIC = "tokHeretic0000002";
const ORDER = { mode: "short_burst", trigger: "anyone crosses the bridge", facing: 352, arc: 45 };

/** Where the turn order stands: round, turn, and the combatant (named after its token). */
const at = (round, turn, tokenId) => ({ round, turn, tokenId, combatantId: tokenId ? `c-${tokenId}` : null });

/** The world: Vex holds an order, the Heretic holds none. */
const STATES = { [VEX]: { overwatch: ORDER, cover: { ap: 2 } }, [HERETIC]: { cover: null } };

function ending(prior, current, { writer = true, enabled = true, orders = d100.standingOrders, states = STATES, begun = null } = {}) {
  return ordersEnding({ prior, current, begun, writer, enabled, orders, stateOf: (id) => states[id] ?? null });
}

/** Play turn changes through the record, as the glue does: the tokens whose turns began, in order. */
function play(...states) {
  let begun = null;
  const began = [];
  for (let k = 1; k < states.length; k += 1) {
    const token = turnBeginsFor(states[k - 1], states[k], begun);
    if (token) began.push(token);
    begun = recordTurn(begun, states[k]) ?? begun;
  }
  return began;
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

describe("a turn begins once", () => {
  const DEMAGOGUE = "tokDemagogue00004";

  it("back past Vex and forward onto him again does not begin his turn twice", () => {
    // Round 2: Vex (turn 0) sets his order; the referee steps back into round 1, then forward again.
    assert.deepEqual(play(at(1, 1, DEMAGOGUE), at(2, 0, VEX), at(1, 1, DEMAGOGUE), at(2, 0, VEX), at(2, 1, HERETIC)), [
      VEX,
      HERETIC,
    ]);
  });

  it("within a round too: back to the Heretic and forward to the Demagogue begins neither again", () => {
    const round = [at(1, 0, VEX), at(1, 1, HERETIC), at(1, 2, DEMAGOGUE), at(1, 1, HERETIC), at(1, 2, DEMAGOGUE)];
    assert.deepEqual(play(at(0, null, null), ...round), [VEX, HERETIC, DEMAGOGUE]);
  });

  it("the next round begins everyone's turn again, and a turn skipped in the furthest round still begins", () => {
    assert.deepEqual(play(at(0, null, null), at(1, 0, VEX), at(1, 2, DEMAGOGUE), at(1, 1, HERETIC), at(1, 2, DEMAGOGUE), at(2, 0, VEX)), [
      VEX,
      DEMAGOGUE,
      VEX,
    ]);
    assert.deepEqual(play(at(1, 0, VEX), at(1, 2, DEMAGOGUE)), [DEMAGOGUE]);
  });

  it("a combat stepped back to round 0 and begun again begins no one's first turn twice", () => {
    assert.deepEqual(play(at(0, null, null), at(1, 0, VEX), at(0, null, null), at(1, 0, VEX)), [VEX]);
    assert.equal(recordTurn({ round: 1, combatants: ["c"] }, at(0, null, null)), null, "nothing to write");
  });

  it("the record grows only when a turn begins in the furthest round or a new one", () => {
    assert.deepEqual(recordTurn(null, at(1, 0, VEX)), { round: 1, combatants: [`c-${VEX}`] });
    assert.deepEqual(recordTurn({ round: 1, combatants: [`c-${VEX}`] }, at(1, 1, HERETIC)), {
      round: 1,
      combatants: [`c-${VEX}`, `c-${HERETIC}`],
    });
    assert.equal(recordTurn({ round: 2, combatants: [] }, at(1, 1, HERETIC)), null, "an earlier round");
    assert.equal(recordTurn({ round: 1, combatants: [`c-${VEX}`] }, at(1, 0, VEX)), null, "already there");
    assert.equal(recordTurn(null, at(1, 1, null)), null, "no combatant");
  });

  it("a hand-edited record is read defensively", () => {
    for (const junk of [null, "x", 3, { round: "2", combatants: [] }, { round: 1.5, combatants: [] }, { round: -1, combatants: [] }, { round: 1 }]) {
      assert.equal(turnsBegun(junk), null, JSON.stringify(junk));
      assert.equal(turnBeginsFor(at(1, 0, VEX), at(1, 1, HERETIC), junk), HERETIC);
    }
    assert.deepEqual(turnsBegun({ round: 2, combatants: ["a", 7, null, "b"] }), { round: 2, combatants: ["a", "b"] });
    assert.equal(turnsBegun({ round: 2, combatants: Array(600).fill("a") })?.combatants.length, 500);
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

  it("nor does stepping forward onto him again in a round whose turn he has had", () => {
    const begun = { round: 2, combatants: [`c-${VEX}`] };
    assert.equal(ending(at(1, 1, HERETIC), at(2, 0, VEX), { begun }), null);
    assert.notEqual(ending(at(2, 1, HERETIC), at(3, 0, VEX), { begun }), null, "his next round's turn still does");
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
