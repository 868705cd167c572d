/**
 * Roll modes for Volley's chat card: who may read it, and who may watch its dice roll in 3D.
 *
 * Two vocabularies, mapped here and only here (`messageMode`):
 * - Foundry v13's roll modes (`core.rollMode`, CONST.DICE_ROLL_MODES): `publicroll`, `gmroll`,
 *   `blindroll`, `selfroll`;
 * - Foundry v14's message modes (`core.messageMode`, CONFIG.ChatMessage.modes; v14 deprecates the roll
 *   modes for them, foundry-vtt-types main `common/constants.d.mts` and `client/config.d.mts`):
 *   `public`, `gm`, `blind`, `self`, and `ic` (in character, read by everyone: public here).
 * Volley works in v14's names; a v13 name, from a v13 client or an older module, means the same mode.
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
 * fired (the requester), and it holds the bridge's dice as real rolls (chat-card/rolls.js), so core's own
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

/** Foundry v14's message modes (CONFIG.ChatMessage.modes), as Volley names a card's readers. */
export const MESSAGE_MODES = Object.freeze({
  PUBLIC: "public",
  GM: "gm",
  BLIND: "blind",
  SELF: "self",
  IC: "ic",
});

/** Foundry v13's roll modes (CONST.DICE_ROLL_MODES, deprecated in v14). */
export const ROLL_MODES = Object.freeze({
  PUBLIC: "publicroll",
  PRIVATE: "gmroll",
  BLIND: "blindroll",
  SELF: "selfroll",
});

/** Every name a mode goes by, to the mode a card honours. */
const MODE_NAMES = Object.freeze(
  /** @type {Record<string, "public" | "gm" | "blind" | "self">} */ ({
    public: "public",
    ic: "public",
    publicroll: "public",
    gm: "gm",
    gmroll: "gm",
    blind: "blind",
    blindroll: "blind",
    self: "self",
    selfroll: "self",
  }),
);

/**
 * The mode a card honours, from either generation's name: `public`, `gm`, `blind` or `self`. In
 * character (`ic`) is public. Anything else (`roll`, a typo, a mode another module registered) is read
 * as a private roll, as core's last branch reads an unknown roll mode: never wider than asked.
 * @param {unknown} mode
 * @returns {"public" | "gm" | "blind" | "self"}
 */
export function messageMode(mode) {
  return typeof mode === "string" && Object.hasOwn(MODE_NAMES, mode) ? MODE_NAMES[mode] : "gm";
}

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
 * @param {string} input.rollMode  the requester's mode (their own client's `core.messageMode`, or on v13
 *   `core.rollMode`: a per-user setting), in either vocabulary (`messageMode`); "roll" must be resolved first
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
  const mode = messageMode(rollMode);
  if (mode === "public") return { author: poster, whisper: [], blind: false, diceViewers: null };
  // Blind when the poster, the card's author, is not a reader: core shows an author their own unblind roll.
  if (mode === "self") return { author: poster, whisper: [requester], blind: requester !== poster, diceViewers: [requester] };

  const recipients = named.length > 0 ? named : ids(gms);
  if (recipients.length === 0) {
    throw new RangeError("gms: a private or blind card needs a GM to whisper to; an empty whisper would make it public");
  }
  if (mode === "blind") return { author: poster, whisper: recipients, blind: true, diceViewers: recipients };
  const readers = ids([...recipients, requester]);
  return { author: poster, whisper: readers, blind: !readers.includes(poster), diceViewers: readers };
}

/**
 * How much of a card every reader may know: "public", "private" (some readers see "???") or "blind"
 * (the requester too). The relay strips a reply by it (relay.js `wireReply`).
 * @param {unknown} rollMode a mode in either vocabulary (`messageMode`)
 * @returns {"public" | "private" | "blind"}
 */
export function visibilityKind(rollMode) {
  const mode = messageMode(rollMode);
  if (mode === "public") return "public";
  return mode === "blind" ? "blind" : "private";
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
