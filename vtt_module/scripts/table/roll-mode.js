/**
 * Roll modes for Volley's chat card: who may read it, and who may watch its dice roll in 3D.
 *
 * Foundry core (v13, `ChatMessage.applyRollMode`) turns the roll mode chosen in the chat controls into
 * a message's `whisper` and `blind`:
 * - public (`publicroll`): no whisper, not blind;
 * - private GM (`gmroll`): whispered to the GMs (unless the message already names recipients), not blind;
 * - blind GM (`blindroll`): the same recipients, blind;
 * - self (`selfroll`): whispered to the roller alone, not blind;
 * - anything else: treated like a private roll (core's last branch).
 *
 * Volley's card is created by the GM browser that holds the bridge (the poster), for the user who
 * fired (the requester), and it holds the bridge's dice as real rolls (table/rolls.js), so core's own
 * roll-message rules decide who reads it (v12/v13 client `ChatMessage#visible` and `#isContentVisible`:
 * a whispered roll message is listed for everyone; its content shows to the whisper list, and to its
 * author unless the message is blind; hidden content is drawn as "<author> rolled privately" and "???").
 * The card's author is always the poster, a GM (issue #17: a player must not own a card, or they could
 * edit what Undo restores); the shooter is the speaker. So, to show each reader what core would show
 * them had the requester rolled in their own name:
 * - public: no whisper;
 * - private GM: whispered to the GMs and the requester (the requester, as author, would read it);
 * - blind GM: whispered to the GMs, blind: the requester, like every other player, reads "???";
 * - self: whispered to the requester alone, blind, so the posting GM (the author) reads "???" as a
 *   GM reads another user's self roll in core; any private card is blind when its poster is not among
 *   its readers (recipients named without the poster), for the same reason.
 *
 * Dice So Nice animates a message's rolls in each reader's browser, for the readers core shows the
 * content to; `diceViewers` says who they are (tests, and the poster's own expectations).
 *
 * Pure: ids in, plain data out; no Foundry globals.
 */

/** Foundry's roll modes (CONST.DICE_ROLL_MODES). */
export const ROLL_MODES = Object.freeze({
  PUBLIC: "publicroll",
  PRIVATE: "gmroll",
  BLIND: "blindroll",
  SELF: "selfroll",
});

/**
 * @typedef {object} CardVisibility
 * @property {string} author     ChatMessage `author` (user id)
 * @property {string[]} whisper  ChatMessage `whisper` (user ids); empty means everyone
 * @property {boolean} blind     ChatMessage `blind`
 * @property {string[] | null} diceViewers  who may watch the dice: null for everyone, else these user ids
 */

/**
 * The chat card's `whisper` and `blind`, and who may watch its dice, for a roll mode.
 * @param {object} input
 * @param {string} input.rollMode  the requester's roll mode (`game.settings.get("core", "rollMode")` in the
 *   requester's own client: it is a per-user setting); "roll" must be resolved to one of ROLL_MODES first
 * @param {string} input.requester the user id of the player (or GM) who fired
 * @param {string} input.poster    the user id of the client creating the card (`game.user.id` there: a GM)
 * @param {string[]} input.gms     the ids of the GM users (`game.users.filter(u => u.isGM)`)
 * @param {string[]} [input.whisper] recipients the message already names (kept for private and blind rolls)
 * @returns {CardVisibility}
 */
export function cardVisibility({ rollMode, requester, poster, gms, whisper = [] }) {
  if (typeof requester !== "string" || requester === "") throw new TypeError("requester: the id of the user who fired is required");
  if (typeof poster !== "string" || poster === "") throw new TypeError("poster: the id of the user posting the card is required");
  const named = ids(whisper);
  if (rollMode === ROLL_MODES.PUBLIC) return { author: poster, whisper: [], blind: false, diceViewers: null };
  // Blind when the poster, the card's author, is not a reader: core shows an author their own unblind roll.
  if (rollMode === ROLL_MODES.SELF) return { author: poster, whisper: [requester], blind: requester !== poster, diceViewers: [requester] };

  const recipients = named.length > 0 ? named : ids(gms);
  if (recipients.length === 0) {
    throw new RangeError("gms: a private or blind card needs a GM to whisper to; an empty whisper would make it public");
  }
  if (rollMode === ROLL_MODES.BLIND) return { author: poster, whisper: recipients, blind: true, diceViewers: recipients };
  const readers = ids([...recipients, requester]);
  return { author: poster, whisper: readers, blind: !readers.includes(poster), diceViewers: readers };
}

/**
 * How much of a card every reader may know: "public", "private" (some readers see "???") or "blind"
 * (the requester too). The relay strips a reply by it (relay.js `wireReply`).
 * @param {string} rollMode one of ROLL_MODES
 * @returns {"public" | "private" | "blind"}
 */
export function visibilityKind(rollMode) {
  if (rollMode === ROLL_MODES.PUBLIC) return "public";
  return rollMode === ROLL_MODES.BLIND ? "blind" : "private";
}

/**
 * Distinct non-empty string ids, in order.
 * @param {unknown} list
 * @returns {string[]}
 */
function ids(list) {
  if (!Array.isArray(list)) return [];
  return [...new Set(list.filter((id) => typeof id === "string" && id !== ""))];
}
