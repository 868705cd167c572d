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
 * Core relies on two things Volley's card does not have. It reads "the roller" as the user whose client
 * creates the message, and it shows a roll message's author their own private roll because the message
 * holds Roll objects (`ChatMessage#isContentVisible`). Volley's card is created by the GM's browser that
 * holds the bridge connection (the poster), on behalf of the user who fired (the requester), and it
 * carries no Roll objects: Foundry shows a whispered message without rolls to its author and its
 * recipients only (`ChatMessage#visible`). So here:
 * - the roller is the requester, named explicitly;
 * - the card's `author` is the requester (a GM may create a message in another user's name), so a self
 *   roll stays with the requester and does not show in the poster's log; except for a blind roll, whose
 *   author must be a GM among the recipients (the poster), or the requester would read it as its author;
 * - a private roll whispers to the GMs **and the requester**, who would have seen it under core's rules.
 *
 * Dice So Nice shows the animation to the same people who may read the card: everyone for a public
 * roll, otherwise exactly the whisper list.
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
  if (rollMode === ROLL_MODES.PUBLIC) return { author: requester, whisper: [], blind: false, diceViewers: null };
  if (rollMode === ROLL_MODES.SELF) return { author: requester, whisper: [requester], blind: false, diceViewers: [requester] };

  const recipients = named.length > 0 ? named : ids(gms);
  if (recipients.length === 0) {
    throw new RangeError("gms: a private or blind card needs a GM to whisper to; an empty whisper would make it public");
  }
  if (rollMode === ROLL_MODES.BLIND) {
    const author = recipients.includes(poster) ? poster : recipients[0];
    return { author, whisper: recipients, blind: true, diceViewers: recipients };
  }
  const readers = ids([...recipients, requester]);
  return { author: requester, whisper: readers, blind: false, diceViewers: readers };
}

/**
 * The arguments for Dice So Nice's `game.dice3d.show(data, user, synchronize, whisper, blind)` from the
 * one client that posts the card: the animation goes over the socket to every viewer, and plays on the
 * posting client only when its user is a viewer too.
 * @param {CardVisibility} visibility
 * @param {string} poster the user id of the client that calls `show` (`game.user.id`)
 * @returns {{synchronize: boolean, whisper: string[] | null, blind: boolean}}
 */
export function diceShowOptions(visibility, poster) {
  const viewers = visibility.diceViewers;
  return { synchronize: true, whisper: viewers, blind: viewers !== null && !viewers.includes(poster) };
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
