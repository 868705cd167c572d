// Roll modes for the card a GM's browser posts on a player's behalf: whisper and blind as Foundry core
// sets them for the roller, and the same people watching the dice in Dice So Nice.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { ROLL_MODES, cardVisibility, diceShowOptions } from "../../vtt_module/scripts/table/roll-mode.js";

const GMS = ["gmAnna", "gmBoris"];
const PLAYER = "playerIvan";
const POSTER = "gmAnna"; // the GM whose browser holds the bridge connection and creates the card
const USERS = [...GMS, PLAYER, "playerOlga"];

/**
 * Foundry v13's ChatMessage.applyRollMode, restated, for a message its roller creates from their own
 * client: public clears the whisper, self whispers to the roller, private and blind keep named recipients
 * or whisper to every GM; blind only for a blind roll.
 */
function coreApplyRollMode(chatData, rollMode, roller) {
  let whisper;
  if (rollMode === "publicroll") whisper = [];
  else if (rollMode === "selfroll") whisper = [roller];
  else if (chatData.whisper?.length) whisper = chatData.whisper;
  else whisper = [...GMS];
  return { ...chatData, whisper, blind: rollMode === "blindroll" };
}

/** Who reads a core roll message's content (ChatMessage#isContentVisible, roll messages). */
function coreReaders(message, author) {
  return USERS.filter((u) => {
    if (message.whisper.length === 0) return true;
    return message.whisper.includes(u) || (u === author && !message.blind);
  });
}

/** Who reads Volley's card, a message without rolls (ChatMessage#visible). */
function cardReaders(visibility) {
  return USERS.filter((u) => visibility.whisper.length === 0 || visibility.whisper.includes(u) || u === visibility.author);
}

describe("cardVisibility", () => {
  it("the card is read by exactly the users who would read the roller's own roll under core, and they see the dice", () => {
    for (const rollMode of [...Object.values(ROLL_MODES), "somethingelse"]) {
      for (const requester of [PLAYER, "gmBoris", POSTER]) {
        for (const whisper of [[], ["gmBoris"]]) {
          const label = `${rollMode} by ${requester}, named ${whisper}`;
          const ours = cardVisibility({ rollMode, requester, poster: POSTER, gms: GMS, whisper });
          const core = coreApplyRollMode({ whisper }, rollMode, requester);
          assert.deepEqual(cardReaders(ours), coreReaders(core, requester), label);
          assert.deepEqual([...(ours.diceViewers ?? USERS)].sort(), cardReaders(ours).sort(), label);
          assert.equal(ours.blind, core.blind, label);
        }
      }
    }
  });

  it("public: everyone reads the card and watches the dice", () => {
    assert.deepEqual(cardVisibility({ rollMode: "publicroll", requester: PLAYER, poster: POSTER, gms: GMS, whisper: ["gmAnna"] }), {
      author: PLAYER,
      whisper: [],
      blind: false,
      diceViewers: null,
    });
  });

  it("private GM: the GMs and the player who fired, as core shows a player their own private roll", () => {
    assert.deepEqual(cardVisibility({ rollMode: "gmroll", requester: PLAYER, poster: POSTER, gms: GMS }), {
      author: PLAYER,
      whisper: ["gmAnna", "gmBoris", PLAYER],
      blind: false,
      diceViewers: ["gmAnna", "gmBoris", PLAYER],
    });
  });

  it("blind GM: the GMs only, posted in a GM's name; the player who fired neither reads it nor sees the dice", () => {
    assert.deepEqual(cardVisibility({ rollMode: "blindroll", requester: PLAYER, poster: POSTER, gms: GMS }), {
      author: POSTER,
      whisper: ["gmAnna", "gmBoris"],
      blind: true,
      diceViewers: ["gmAnna", "gmBoris"],
    });
    const toBoris = cardVisibility({ rollMode: "blindroll", requester: PLAYER, poster: POSTER, gms: GMS, whisper: ["gmBoris"] });
    assert.deepEqual([toBoris.author, toBoris.whisper], ["gmBoris", ["gmBoris"]]);
  });

  it("self: the player who fired alone, in their own name so the posting GM does not see it either", () => {
    assert.deepEqual(cardVisibility({ rollMode: "selfroll", requester: PLAYER, poster: POSTER, gms: GMS, whisper: ["gmAnna"] }), {
      author: PLAYER,
      whisper: [PLAYER],
      blind: false,
      diceViewers: [PLAYER],
    });
  });

  it("keeps recipients the message already names for private and blind rolls, as core does", () => {
    const named = { requester: PLAYER, poster: POSTER, gms: GMS, whisper: ["gmBoris"] };
    assert.deepEqual(cardVisibility({ rollMode: "gmroll", ...named }).whisper, ["gmBoris", PLAYER]);
    assert.deepEqual(cardVisibility({ rollMode: "blindroll", ...named }).whisper, ["gmBoris"]);
  });

  it("treats an unknown mode as private, as core's last branch does", () => {
    const unknown = cardVisibility({ rollMode: "roll", requester: PLAYER, poster: POSTER, gms: GMS });
    assert.deepEqual(unknown, cardVisibility({ rollMode: "gmroll", requester: PLAYER, poster: POSTER, gms: GMS }));
  });

  it("ignores ids that are not ids, and repeats", () => {
    const gms = ["gmAnna", "", null, "gmAnna", 7, "gmBoris"];
    const visibility = cardVisibility({ rollMode: "gmroll", requester: "gmAnna", poster: POSTER, gms });
    assert.deepEqual(visibility.whisper, ["gmAnna", "gmBoris"]);
  });

  it("refuses to make a private card public for lack of a GM, and needs to know who fired and who posts", () => {
    const base = { requester: PLAYER, poster: POSTER };
    assert.throws(() => cardVisibility({ ...base, rollMode: "blindroll", gms: [] }), { name: "RangeError", message: /^gms:/ });
    assert.throws(() => cardVisibility({ ...base, rollMode: "gmroll", gms: /** @type {any} */ (undefined) }), RangeError);
    assert.deepEqual(cardVisibility({ ...base, rollMode: "publicroll", gms: [] }).whisper, []);
    assert.throws(() => cardVisibility({ ...base, rollMode: "publicroll", requester: "", gms: GMS }), { name: "TypeError", message: /^requester:/ });
    assert.throws(() => cardVisibility({ ...base, rollMode: "publicroll", poster: undefined, gms: GMS }), { name: "TypeError", message: /^poster:/ });
  });
});

describe("diceShowOptions: game.dice3d.show from the GM's browser that posts the card", () => {
  const poster = POSTER;
  const show = (rollMode, requester = PLAYER) => diceShowOptions(cardVisibility({ rollMode, requester, poster, gms: GMS }), poster);

  it("synchronises to every viewer, and plays locally only for a viewer", () => {
    assert.deepEqual(show("publicroll"), { synchronize: true, whisper: null, blind: false });
    assert.deepEqual(show("gmroll"), { synchronize: true, whisper: ["gmAnna", "gmBoris", PLAYER], blind: false });
    assert.deepEqual(show("blindroll"), { synchronize: true, whisper: ["gmAnna", "gmBoris"], blind: false });
    assert.deepEqual(show("selfroll"), { synchronize: true, whisper: [PLAYER], blind: true });
    assert.deepEqual(show("selfroll", poster), { synchronize: true, whisper: [poster], blind: false });
  });
});
