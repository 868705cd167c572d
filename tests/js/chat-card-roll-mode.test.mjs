// Roll modes for the card a GM's browser posts on a player's behalf, in the GM's name (issue #17): a roll
// message whose whisper and blind make core show each user what it would show them had the player
// rolled in their own name; the same people watch the dice in Dice So Nice.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { MESSAGE_MODES, ROLL_MODES, cardVisibility, messageMode, visibilityKind } from "../../vtt_module/scripts/chat-card/roll-mode.js";

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

/** Who reads Volley's card, a roll message too, authored by the poster. */
function cardReaders(visibility) {
  return coreReaders(visibility, visibility.author);
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
          assert.equal(ours.author, POSTER, `${label}: always the posting GM's card, never the player's`);
        }
      }
    }
  });

  it("public: everyone reads the card and watches the dice", () => {
    assert.deepEqual(cardVisibility({ rollMode: "publicroll", requester: PLAYER, poster: POSTER, gms: GMS, whisper: ["gmAnna"] }), {
      author: POSTER,
      whisper: [],
      blind: false,
      diceViewers: null,
    });
  });

  it("private GM: the GMs and the player who fired, as core shows a player their own private roll", () => {
    assert.deepEqual(cardVisibility({ rollMode: "gmroll", requester: PLAYER, poster: POSTER, gms: GMS }), {
      author: POSTER,
      whisper: ["gmAnna", "gmBoris", PLAYER],
      blind: false,
      diceViewers: ["gmAnna", "gmBoris", PLAYER],
    });
  });

  it("blind GM: the GMs only; the player who fired reads '???' like everyone else and sees no dice", () => {
    assert.deepEqual(cardVisibility({ rollMode: "blindroll", requester: PLAYER, poster: POSTER, gms: GMS }), {
      author: POSTER,
      whisper: ["gmAnna", "gmBoris"],
      blind: true,
      diceViewers: ["gmAnna", "gmBoris"],
    });
    const toBoris = cardVisibility({ rollMode: "blindroll", requester: PLAYER, poster: POSTER, gms: GMS, whisper: ["gmBoris"] });
    assert.deepEqual([toBoris.author, toBoris.whisper], [POSTER, ["gmBoris"]]);
  });

  it("self: the player who fired alone; blind, so the posting GM (its author) reads '???' as in core", () => {
    assert.deepEqual(cardVisibility({ rollMode: "selfroll", requester: PLAYER, poster: POSTER, gms: GMS, whisper: ["gmAnna"] }), {
      author: POSTER,
      whisper: [PLAYER],
      blind: true,
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

describe("visibilityKind: how much of a reply may travel on the socket", () => {
  it("is public only for a public roll, blind for a blind one, private otherwise", () => {
    assert.deepEqual(
      ["publicroll", "gmroll", "blindroll", "selfroll"].map(visibilityKind),
      ["public", "private", "blind", "private"],
    );
  });
});

describe("messageMode: Foundry v13's roll modes and v14's message modes, mapped in one place", () => {
  it("maps both vocabularies to the four modes a card honours; in character is public", () => {
    assert.deepEqual(
      ["publicroll", "gmroll", "blindroll", "selfroll"].map(messageMode),
      ["public", "gm", "blind", "self"],
    );
    assert.deepEqual(Object.values(MESSAGE_MODES).map(messageMode), ["public", "gm", "blind", "self", "public"]);
  });

  it("reads anything else as private, never wider", () => {
    for (const odd of ["roll", "", "SELF", "constructor", "__proto__", null, undefined, 7, {}]) assert.equal(messageMode(odd), "gm", String(odd));
  });

  it("v14's self is the requester's alone, never the GMs' (an API self roll)", () => {
    const self = cardVisibility({ rollMode: "self", requester: PLAYER, poster: POSTER, gms: GMS });
    assert.deepEqual(self, cardVisibility({ rollMode: "selfroll", requester: PLAYER, poster: POSTER, gms: GMS }));
    assert.deepEqual(self.whisper, [PLAYER]);
  });

  it("every v14 mode reads as its v13 twin, for cards and for what travels on the socket", () => {
    for (const [v14, v13] of [["public", "publicroll"], ["gm", "gmroll"], ["blind", "blindroll"], ["self", "selfroll"], ["ic", "publicroll"]]) {
      const base = { requester: PLAYER, poster: POSTER, gms: GMS };
      assert.deepEqual(cardVisibility({ ...base, rollMode: v14 }), cardVisibility({ ...base, rollMode: v13 }), v14);
      assert.equal(visibilityKind(v14), visibilityKind(v13), v14);
    }
  });
});
