/**
 * What a relayed message may be (relay.js carries them): the types a player's browser may relay, the
 * shape of each, and whether its sender may send it (owns the acting token, may see every token it
 * names, is a game master for `undo`); the bridge's key for a user's request; a refusal in the bridge's
 * own shape; and what of a reply may travel on the socket, which every client receives. relay.js's doc
 * says why each check is there (issues #17, #31, #32). Pure: ownership, GM and sight tests are injected.
 */

import { isPlainObject } from "./protocol.js";

/**
 * @typedef {import("./protocol.js").BridgeMessage} BridgeMessage
 * @typedef {import("./registry.js").Choice} Choice
 * @typedef {{type: string, id: string, choice: Choice}} ChoiceMessage a player's attack, action, odds or allocate
 * @typedef {{type: "undo", id: string, message: string}} UndoMessage undo the chat message's request
 * @typedef {{type: "reveal", id: string, message: string}} RevealMessage a private card's secret part, for its reader
 * @typedef {{type: "cancel", id: string, token: string, weapon: string, pending?: string}} CancelMessage
 *   cancel the pending two-step attack holding this token's weapon (`pending`: the card's key, when
 *   cancelled from the card)
 * @typedef {ChoiceMessage | UndoMessage | RevealMessage | CancelMessage} RelayedMessage
 */

/** Message types a player's browser may relay (`reveal`: a private card's secret part, to a reader). */
export const RELAYED_TYPES = Object.freeze(["attack", "action", "odds", "allocate", "undo", "reveal", "cancel"]);

/** Longest request id a browser may relay: room for the user's id in the bridge's key (128 characters). */
export const MAX_ID = 60;

/**
 * The bridge's idempotency key for a user's request id: the user is part of it, so one user's id never
 * names another's request (protocol.md, "Keys").
 * @param {string} userId
 * @param {string} id
 */
export function requestKey(userId, id) {
  return `${userId}.${id}`;
}

/**
 * What of a reply may travel on the socket, which every client's JavaScript receives: for a card not
 * everyone may read, only the outcome's kind (the requester reads the card core lets them read).
 * @param {BridgeMessage} reply
 * @param {unknown} visibility "public", "private" or "blind" (referee.js sets it on the reply)
 * @returns {BridgeMessage}
 */
export function wireReply(reply, visibility) {
  const out = { ...reply };
  delete out.visibility;
  delete out.updates;
  if (visibility === "public" || out.type === "error") return out;
  delete out.card;
  delete out.result;
  delete out.rolls;
  if (visibility === "blind") delete out.pending;
  return out;
}

/**
 * An `error` message in the bridge's own shape, so callers handle refusals one way. A refusal of a
 * typed value carries the rule as a message (`key`, `values`) for the player's own language.
 * @param {string | null} id
 * @param {string} code
 * @param {string} message
 * @param {string | null} [path]
 * @param {{key: string, values?: Record<string, unknown>}} [rule]
 * @returns {BridgeMessage}
 */
export function refusal(id, code, message, path = null, rule) {
  /** @type {BridgeMessage} */
  const out = { type: "error", id: id ?? undefined, code, message, path };
  if (rule) {
    out.key = rule.key;
    out.values = rule.values ?? {};
  }
  return out;
}

/**
 * The tokens a choice names besides its shooter: its targets' ids and its other tokens (a d100 sector's,
 * a MegaTraveller danger space's), as requestContext reads them, with where each is in the choice.
 * @param {Record<string, unknown>} choice
 * @returns {{id: string, path: string}[]}
 */
function namedTokens(choice) {
  const named = [];
  const targets = Array.isArray(choice.targets) ? choice.targets : [];
  for (const [i, entry] of targets.entries()) {
    const id = isPlainObject(entry) ? entry.id : undefined;
    if (typeof id === "string" && id) named.push({ id, path: `$.choice.targets[${i}].id` });
  }
  const tokens = Array.isArray(choice.tokens) ? choice.tokens : [];
  for (const [i, id] of tokens.entries()) if (typeof id === "string" && id) named.push({ id, path: `$.choice.tokens[${i}]` });
  return named;
}

/**
 * Check one relayed message as the referee would: its shape, and that the sender may send it.
 * @param {unknown} message
 * @param {string} userId who sent it
 * @param {{ownsToken: (userId: string, tokenId: string) => boolean, isGm: (userId: string) => boolean,
 *   maySee?: (userId: string, shooterId: string, tokenId: string) => boolean}} tests `maySee`: whether
 *   the user may name that token beside that shooter (default: any)
 * @returns {{forward: RelayedMessage} | {refuse: BridgeMessage}}
 */
export function vetRelayed(message, userId, { ownsToken, isGm, maySee = () => true }) {
  if (!isPlainObject(message) || typeof message.id !== "string" || !message.id || message.id.length > MAX_ID) {
    return { refuse: refusal(null, "invalid", `a relayed message needs an id of 1-${MAX_ID} characters`) };
  }
  const id = message.id;
  if (typeof message.type !== "string" || !RELAYED_TYPES.includes(message.type)) {
    return { refuse: refusal(id, "forbidden", `players cannot send '${String(message.type)}' messages`, "$.type") };
  }
  if (message.type === "undo") {
    if (!isGm(userId)) return { refuse: refusal(id, "forbidden", "only a game master can undo", "$.type") };
    if (typeof message.message !== "string" || !message.message) {
      return { refuse: refusal(id, "invalid", "undo names no chat message", "$.message") };
    }
    return { forward: { type: "undo", id, message: message.message } };
  }
  if (message.type === "reveal") {
    // Anyone may ask; the holder answers only a reader of that card (referee.js revealCard).
    if (typeof message.message !== "string" || !message.message) {
      return { refuse: refusal(id, "invalid", "reveal names no chat message", "$.message") };
    }
    return { forward: { type: "reveal", id, message: message.message } };
  }
  if (message.type === "cancel") {
    for (const field of ["token", "weapon"]) {
      if (typeof message[field] !== "string" || !message[field] || String(message[field]).length > 128) {
        return { refuse: refusal(id, "invalid", `cancel names no ${field}`, `$.${field}`) };
      }
    }
    const token = String(message.token);
    if (!isGm(userId) && !ownsToken(userId, token)) {
      return { refuse: refusal(id, "forbidden", `user ${userId} does not own token ${token}`, "$.token") };
    }
    /** @type {CancelMessage} */
    const forward = { type: "cancel", id, token, weapon: String(message.weapon) };
    if (typeof message.pending === "string" && message.pending && message.pending.length <= 128) forward.pending = message.pending;
    return { forward };
  }
  const choice = message.choice;
  if (!isPlainObject(choice)) return { refuse: refusal(id, "invalid", "a choice must be an object", "$.choice") };
  for (const field of ["system", "token"]) {
    if (typeof choice[field] !== "string" || !choice[field]) {
      return { refuse: refusal(id, "invalid", `the choice names no ${field}`, `$.choice.${field}`) };
    }
  }
  if (!ownsToken(userId, String(choice.token))) {
    return { refuse: refusal(id, "forbidden", `user ${userId} does not own token ${String(choice.token)}`, "$.choice.token") };
  }
  if (!isGm(userId)) {
    const unseen = namedTokens(choice).find((named) => !maySee(userId, String(choice.token), named.id));
    if (unseen) {
      // The reason names the id the player sent, never the token's name.
      return {
        refuse: refusal(id, "forbidden", `user ${userId} cannot see token ${unseen.id} from token ${String(choice.token)}`, unseen.path, { key: "VOLLEY.Form.TargetUnseen" }),
      };
    }
  }
  return { forward: { type: message.type, id, choice: /** @type {Choice} */ (choice) } };
}
