/**
 * The holder's side of every relayed message: build the rules request from the documents, ask the
 * bridge, apply what comes back to the weapon that fired and the tokens it hit, and post the card.
 * Undo is the same path backwards.
 *
 * Exactly once (issue #17, docs/protocol.md "Keys"): every message arrives here under its key
 * (relay.js `requestKey`: the requesting user and their id). The bridge answers a key it has seen from
 * its journal, without rolling again. Whether the key's updates were applied is recorded in the
 * bridge's journal (issue #31, docs/protocol.md "applied"), where no player can delete it: once the
 * updates are written the card (written by a GM before them) is marked `applied` and the holder marks
 * the key on the bridge; a key marked there comes back in an `applied` envelope and changes nothing,
 * ever, whatever became of its card. A card not yet marked (the holder went away in between) gets its
 * updates now, once. Undo restores only what a
 * GM-authored card sealed with the bridge's token holds, and only after the bridge has journalled the
 * undo; a refusal restores nothing.
 *
 * Rounds are reserved when fire is committed (issue #31): a pending two-step attack holds its weapon
 * (the token's `state.pending.<magazine>`) until it is allocated or cancelled; meanwhile nothing else
 * fires or handles that weapon (refused here, and by the bridge). What changed in the weapon's state
 * outside Volley since its last card (foundry/keeper.js) goes on the card and into the journal.
 */

import { findWeapon, magazineOf } from "../adapters/identity.js";
import { announceResolved, announceUndone } from "./attack-hooks.js";
import { BridgeError } from "../connection.js";
import { applied, cancel, newRequestId, readReply, rulesMessage, undo } from "../protocol.js";
import { FormError } from "../fields.js";
import { systemPlugin } from "../registry.js";
import { applyPlans, planResult, undoPlans } from "../updates.js";
import { bridgeConnection, bridgeOnline } from "./bridge.js";
import { cardFlags, cardFor, cardRecord, cardRollMode, chatMessage, isVeiled, liftVeil, markApplied, markUndone, mayRead, postCard, settlePending } from "./chat.js";
import { arsenalOf, findTokenDocument, rememberCurrentWeapon, requestContext, syncDerivedStatuses, tokenHandle, tokenState, tokenView } from "./documents.js";
import { outsideFor, writeBooks } from "./keeper.js";
import { changedSince, holdOf, plainState, weaponBooks } from "../books.js";
import { accessToken, MODULE_ID, worldRuleSystem } from "./settings.js";
import { asTablePlays } from "./table-rules.js";
import { visibilityKind } from "../chat-card/roll-mode.js";
import { sealHolds, sealOf } from "../chat-card/seal.js";
import { requestKey } from "../relay.js";

/**
 * @typedef {import("../relay.js").RelayedMessage} RelayedMessage
 * @typedef {import("../relay.js").ChoiceMessage} ChoiceMessage
 * @typedef {import("../protocol.js").BridgeMessage} BridgeMessage
 * @typedef {import("../registry.js").RuleSystemPlugin} RuleSystemPlugin
 */

function connected() {
  const connection = bridgeConnection();
  if (!connection) throw new BridgeError({ code: "not_connected", message: "the bridge is not connected" });
  return connection;
}

/**
 * @param {ChoiceMessage} message
 * @returns {RuleSystemPlugin}
 */
function pluginFor(message) {
  const world = worldRuleSystem();
  if (message.choice.system !== world) throw new FormError("system", "VOLLEY.Form.WrongSystem", { system: world || "—" });
  const plugin = systemPlugin(world);
  if (!plugin) throw new FormError("system", "VOLLEY.Form.NoSystem");
  return plugin;
}

/**
 * The holder's handling of one vetted message.
 * @param {RelayedMessage} message
 * @param {string} userId who sent it
 * @returns {Promise<BridgeMessage>}
 */
export async function referee(message, userId) {
  if (message.type === "undo") return undoCard(/** @type {import("../relay.js").UndoMessage} */ (message), userId);
  if (message.type === "reveal") return revealCard(/** @type {import("../relay.js").RevealMessage} */ (message), userId);
  if (message.type === "cancel") return cancelPending(/** @type {import("../relay.js").CancelMessage} */ (message), userId);
  const choiceMessage = /** @type {ChoiceMessage} */ (message);
  const plugin = pluginFor(choiceMessage);
  const connection = connected();
  const choice = choiceMessage.choice;
  const context = requestContext(choice, userId);
  if (message.type === "odds") {
    // The preview is refused at once while the bridge is down, instead of waiting for a timeout.
    if (!bridgeOnline()) throw new BridgeError({ code: "offline", message: "bridge offline" });
    const built = plugin.buildRequest(choice, context);
    if (built.type !== "attack") throw new FormError("action", "VOLLEY.Form.NoOdds");
    return connection.request(rulesMessage("odds", message.id, asTablePlays(plugin.id, built.request), userId));
  }
  /** @type {BridgeMessage} */
  let outgoing;
  /** The pending attack an `allocate` settles. */
  let pendingId = "";
  if (message.type === "allocate") {
    if (!plugin.buildAllocation) throw new FormError("action", "VOLLEY.Form.NoAllocation");
    const built = plugin.buildAllocation(choice, context);
    pendingId = pendingKey(built.pending_id, userId);
    // The allocation writes absolute values computed from the weapon as the attack found it: a change
    // made to the held weapon since (a game master's edit, the game system's sheet) would be overwritten
    // unseen. Refused, naming what changed: cancel and fire again (#31).
    const hold = holdOf(context.shooter.state, context.weapon);
    if (hold?.key === pendingId && hold.state) {
      const changed = changedSince({ state: hold.state, key: null, at: 0, outside: false }, context.weapon.state);
      if (changed.length > 0) {
        const what = changed.map((c) => `${c.field} ${JSON.stringify(c.from)} → ${JSON.stringify(c.to)}`).join(", ");
        throw new FormError("pending_id", "VOLLEY.Form.HeldChanged", { weapon: context.weapon.name, changes: what });
      }
    }
    outgoing = { type: "allocate", id: message.id, pending_id: pendingId, allocation: built.allocation, user: userId };
  } else {
    // A pending two-step attack holds the weapon: nothing else fires or handles it meanwhile (#31).
    const held = holdOf(context.shooter.state, context.weapon);
    if (held && held.key !== message.id) throw new FormError("weapon", "VOLLEY.Form.Held", { weapon: context.weapon.name });
    const built = plugin.buildRequest(choice, context);
    // The table's rules reach every request here, whoever built the choice (foundry/table-rules.js).
    outgoing = rulesMessage(built.type, message.id, asTablePlays(plugin.id, built.request), userId);
  }
  const shooter = findTokenDocument(choice.token);
  const outside = shooter ? outsideFor(shooter, context.weapon) : [];
  // The card whose values the weapon holds now: Undo of this card hands the weapon back to it. Whether
  // the weapon then holds a change made outside Volley since that card (said on an earlier pending card,
  // or said on this one): the older card's Undo would overwrite it (#31).
  const books = shooter ? weaponBooks(/** @type {any} */ (shooter.actor)?.flags?.[MODULE_ID]?.books, magazineOf(context.weapon)) : null;
  const previous = books?.key ?? null;
  const previousOutside = books?.outside === true || outside.some((change) => change.kept);
  const freed = async () => {
    if (shooter) await clearHold(shooter, plugin, context.weapon, pendingId);
  };
  /** @type {BridgeMessage} */
  let answered;
  try {
    answered = await askBridge(connection, outgoing, pendingId, freed);
  } catch (error) {
    // The bridge says a pending attack holds this weapon (the table's own hold was lost: a world put
    // back, a console write): hold it here too, so the dialog offers to cancel it (#31).
    const pending = error instanceof BridgeError && error.code === "pending_open" ? error.msg?.values?.pending : null;
    if (typeof pending === "string" && pending && shooter) {
      await setHold(shooter, plugin, context.weapon, { key: pending, at: Date.now() }).catch(reportFailure);
    }
    throw error;
  }
  // A key the table marked applied comes back in an envelope (#31): its reply, and nothing to change.
  const markedBefore = answered.type === "applied";
  const reply = markedBefore ? unwrapApplied(answered) : answered;
  if (reply.type !== "result" && reply.type !== "pending") return reply;
  const visibility = visibilityKind(cardRollMode(choice.rollMode));
  const answer = { ...reply, visibility, pending_id: reply.type === "pending" ? message.id : undefined };
  if (markedBefore) return { ...answer, applied_before: true };
  nameRows(reply.card);
  let card = cardFor(message.id);
  // This key was answered and applied before (a retry, a takeover, a replayed id): nothing changes.
  if (card && cardFlags(card)?.applied === true) return answer;
  const planned = reply.type === "result" ? planFor(reply, plugin, choice.token, context.weapon.id) : null;
  try {
    if (!card) {
      const capacity = plugin.readout(context.weapon).capacity;
      card = await postCard(
        {
          requestId: message.id,
          system: plugin.id,
          token: choice.token,
          weapon: context.weapon.id,
          card: reply.card ?? null,
          result: reply.result ?? null,
          capacity,
          before: planned?.before ?? [],
          pending: reply.type === "pending" ? (reply.pending ?? null) : null,
          choice,
          applied: false,
          outside,
          previous,
          previousOutside,
        },
        userId,
        shooter,
        choice.rollMode,
      );
    }
  } catch (error) {
    // The bridge has journalled the attack: it happened. Tell the referee; the same key asked again
    // gets the same result, and the card and updates then.
    reportFailure(error);
    return answer;
  }
  // The whole record (a private card's from under its veil): the seal covers its `before`.
  const flags = card ? cardRecord(card) : null;
  try {
    if (reply.type === "pending" && shooter) {
      // The attack holds its weapon until it is allocated or cancelled (its state is not changed yet).
      await setHold(shooter, plugin, context.weapon, { key: message.id, at: Date.now(), state: plainState(context.weapon.state) });
      // Its card has said what changed outside Volley: the count starts again (the card Undo checks
      // stays the one before: this card changes nothing of the weapon). A change that stands is now in
      // the books: the card before can no longer be undone (its values would overwrite it).
      if (outside.length > 0) await writeBooks(shooter, plugin.id, context.weapon.id, undefined, previousOutside);
    }
    if (planned) {
      await applyPlanned(planned, plugin, choice.token, context.weapon.id);
      if (pendingId && shooter) await clearHold(shooter, plugin, context.weapon, pendingId);
      if (shooter) await writeBooks(shooter, plugin.id, context.weapon.id, message.id);
    }
  } catch (error) {
    reportFailure(error);
  }
  if (card && flags) await markApplied(card, sealOf(accessToken(), flags)).catch(reportFailure);
  // The record no player can delete (#31): the bridge journals that this key's updates are on the
  // tokens, with what changed outside Volley before it; a repeat of the key then changes nothing.
  await markKey(connection, message.id, outside, userId).catch(reportFailure);
  if (planned) {
    // volley.attackResolved (attack-hooks.js): here, in the browser that applied the result, once per key.
    announceResolved({
      type: message.type,
      system: plugin.id,
      request: outgoing,
      choice,
      result: reply.result ?? null,
      card: reply.card ?? null,
      updates: reply.updates ?? [],
      before: flags?.before ?? planned.before,
      message: card ?? null,
      token: shooter,
      weapon: context.weapon.id,
      userId,
    });
  }
  if (pendingId && reply.type === "result") {
    const hits = hitsOf(reply.card);
    await settlePending(pendingId, { kind: "allocated", by: userId, requestId: message.id, messageId: card?.id ?? null, hits, at: Date.now() }).catch(reportFailure);
  }
  return answer;
}

/**
 * The reply inside an `applied` envelope (the bridge's answer to a key marked applied before).
 * @param {BridgeMessage} envelope
 * @returns {BridgeMessage}
 */
function unwrapApplied(envelope) {
  const inner = envelope.reply;
  if (typeof inner !== "object" || inner === null || typeof (/** @type {any} */ (inner).type) !== "string") {
    throw new BridgeError({ code: "internal", message: "the bridge's applied envelope holds no reply" });
  }
  return readReply(/** @type {BridgeMessage} */ ({ ...inner, id: envelope.id }));
}

/**
 * Mark a key applied on the bridge once its updates are on the tokens (#31). A mark the journal holds
 * already (`already_applied`: another browser got there first) is no failure.
 * @param {import("../connection.js").BridgeConnection} connection
 * @param {string} key
 * @param {import("./keeper.js").OutsideChange[]} outside
 * @param {string} userId
 */
async function markKey(connection, key, outside, userId) {
  try {
    await connection.request(applied(newRequestId(), key, /** @type {any} */ (outside), userId));
  } catch (error) {
    if (!(error instanceof BridgeError && error.code === "already_applied")) throw error;
  }
}

/**
 * @param {TokenDocument} token
 * @param {RuleSystemPlugin} plugin
 * @param {{id: string, magazine?: string}} weapon
 * @param {{key: string, at: number, state?: Record<string, unknown>}} hold `state`: the weapon as the attack found it
 */
async function setHold(token, plugin, weapon, hold) {
  await tokenHandle(token, plugin.id).setState({ [`pending.${magazineOf(weapon)}`]: hold });
}

/**
 * Free a weapon from the hold of pending attack `key` (an allocation or a cancel settled it); a hold of
 * another attack stays.
 * @param {TokenDocument} token
 * @param {RuleSystemPlugin} plugin
 * @param {{id: string, magazine?: string}} weapon
 * @param {string} key
 */
async function clearHold(token, plugin, weapon, key) {
  if (holdOf(tokenState(token), weapon)?.key !== key) return;
  await tokenHandle(token, plugin.id).setState({ [`pending.${magazineOf(weapon)}`]: null });
}

/**
 * The key of the pending attack an allocation names: a pending card's key as it is (a GM, or the
 * player from the card), or the requester's own id of it (the player, from their first step's answer).
 * Only the player who fired it, or a GM, may split it.
 * @param {string} named
 * @param {string} userId
 */
function pendingKey(named, userId) {
  const isGm = Boolean(game.users.get(userId)?.isGM);
  for (const key of [named, requestKey(userId, named)]) {
    const flags = cardFor(key) ? cardFlags(/** @type {any} */ (cardFor(key))) : null;
    if (flags?.pending && (isGm || flags.requester === userId)) return key;
  }
  throw new FormError("pending_id", "VOLLEY.Form.NothingToAllocate");
}

/** Bridge codes that mean a pending attack is gone for good (it was forgotten, or it expired). */
const GONE = new Set(["unknown_pending", "expired", "pending_expired"]);

/**
 * Ask the bridge; for an `allocate`, a refusal that settles the attack (already split by another
 * request, gone from the bridge) is also written on its pending card, so nobody tries again.
 * @param {import("../connection.js").BridgeConnection} connection
 * @param {BridgeMessage} outgoing
 * @param {string} pendingId the attack an `allocate` settles ("" for any other message)
 * @param {() => Promise<void>} [freed] frees the weapon the attack held, when the refusal settles it
 */
async function askBridge(connection, outgoing, pendingId, freed) {
  try {
    return await connection.request(outgoing);
  } catch (error) {
    const code = error instanceof BridgeError ? error.code : "";
    /** @type {import("./chat.js").Settled | null} */
    let settled = null;
    if (GONE.has(code)) settled = { kind: "expired", code, at: Date.now() };
    if (code === "already_allocated") settled = { kind: "allocated", by: null, requestId: null, messageId: null, hits: [], at: Date.now() };
    // The refusal is what the requester must hear; a card that could not be marked is only reported.
    if (pendingId && settled) {
      await settlePending(pendingId, settled).catch(reportFailure);
      await freed?.().catch(reportFailure);
    }
    throw error;
  }
}

/**
 * A card row for a token the rules had no name for (one reached only by a stray bullet down a line of
 * fire) is named after its token on the scene, not shown by its id.
 * @param {unknown} card
 */
function nameRows(card) {
  const rows = typeof card === "object" && card !== null ? /** @type {any} */ (card).rows : null;
  if (!Array.isArray(rows)) return;
  for (const row of rows) {
    if (typeof row !== "object" || row === null || (typeof row.name === "string" && row.name)) continue;
    const doc = typeof row.target === "string" ? findTokenDocument(row.target) : null;
    if (doc?.name) row.name = doc.name;
  }
}

/**
 * The hits per target on a result's card, for the pending card it settles.
 * @param {unknown} card
 * @returns {{name: string, hits: number}[]}
 */
function hitsOf(card) {
  const rows = typeof card === "object" && card !== null ? /** @type {any} */ (card).rows : null;
  return (Array.isArray(rows) ? rows : []).slice(0, 32).map((row) => ({
    name: String(row?.name ?? row?.target ?? "?").slice(0, 80),
    hits: typeof row?.hits === "number" ? row.hits : 0,
  }));
}

/** @param {unknown} error */
function reportFailure(error) {
  console.error("volley:", error);
  ui.notifications.error(`Volley: ${error instanceof Error ? error.message : String(error)}`);
}

/**
 * What a result changes, and the old values of what it changes (for Undo), read before anything is
 * written.
 * @param {BridgeMessage} reply
 * @param {RuleSystemPlugin} plugin
 * @param {string} shooterId
 * @param {string} weaponId
 */
function planFor(reply, plugin, shooterId, weaponId) {
  return planResult(reply.updates, { token: shooterId, weapon: weaponId }, plugin.weaponStateKey, (id) => {
    const doc = findTokenDocument(id);
    return doc ? tokenView(doc, plugin.id) : null;
  });
}

/**
 * Write a planned result to the tokens.
 * @param {ReturnType<typeof planFor>} planned
 * @param {RuleSystemPlugin} plugin
 * @param {string} shooterId
 * @param {string} weaponId
 */
async function applyPlanned(planned, plugin, shooterId, weaponId) {
  const applied = await applyPlans(planned.plans, (id) => {
    const doc = findTokenDocument(id);
    return doc ? tokenHandle(doc, plugin.id) : null;
  });
  for (const problem of [...planned.problems, ...applied.problems]) console.warn("volley:", problem);
  await afterWrites([shooterId, ...planned.plans.map((plan) => plan.token)], plugin);
  const shooter = findTokenDocument(shooterId);
  if (shooter) await rememberCurrentWeapon(shooter, plugin.id, weaponId);
}

/**
 * @param {string[]} tokenIds
 * @param {RuleSystemPlugin} plugin
 */
async function afterWrites(tokenIds, plugin) {
  for (const id of new Set(tokenIds)) {
    const doc = findTokenDocument(id);
    if (doc) await syncDerivedStatuses(doc, plugin);
  }
}

/**
 * Undo one card: journal the undo on the bridge first, then put every value back and mark the card.
 * @param {import("../relay.js").UndoMessage} message
 * @param {string} userId
 * @returns {Promise<BridgeMessage>}
 */
async function undoCard(message, userId) {
  const chat = chatMessage(message.message);
  const clear = chat ? cardFlags(chat) : null; // a GM-authored card only
  if (!chat || !clear || clear.pending) throw new FormError("message", "VOLLEY.Form.NothingToUndo");
  // A private card's record is under its veil; this browser's token lifts it, or it is not sealed.
  const flags = cardRecord(chat);
  if (!flags) throw new FormError("message", "VOLLEY.Form.UndoUnsealed");
  if (flags.undone) throw new FormError("message", "VOLLEY.Form.AlreadyUndone");
  if (flags.applied !== true || !sealHolds(accessToken(), flags)) throw new FormError("message", "VOLLEY.Form.UndoUnsealed");
  const plugin = systemPlugin(flags.system);
  if (!plugin) throw new FormError("system", "VOLLEY.Form.NoSystem");
  checkUndoInOrder(flags, plugin);
  // The bridge journals the undo first; any refusal (already undone, never resolved) restores nothing.
  const reply = await connected().request(undo(message.id, flags.requestId, userId));
  if (reply.type !== "undone" || reply.target_id !== flags.requestId) {
    throw new BridgeError({ code: "internal", message: `the bridge answered the undo with '${String(reply.type)}'` });
  }
  const { plans, problems } = undoPlans(flags.before);
  const done = await applyPlans(plans, (id) => {
    const doc = findTokenDocument(id);
    return doc ? tokenHandle(doc, plugin.id) : null;
  });
  for (const problem of [...problems, ...done.problems]) console.warn("volley:", problem);
  await afterWrites([flags.token, ...plans.map((plan) => plan.token)], plugin);
  // What Undo put back is what Volley wrote last: the weapon's books say so. An undo that put back
  // nothing of the weapon leaves its books alone (a change made outside Volley since is still to be said).
  const shooter = findTokenDocument(flags.token);
  const putWeaponBack = plans.some((plan) => plan.token === flags.token && plan.weapon && Object.keys(plan.weapon.changes).length > 0);
  const previous = typeof flags.previous === "string" ? flags.previous : null;
  // The values put back hold a change made outside Volley since the card before (said on this card or
  // an earlier pending one): that card's Undo stays refused (#31).
  const outsideBefore = flags.previousOutside === true;
  if (shooter && flags.weapon && putWeaponBack) await writeBooks(shooter, plugin.id, flags.weapon, previous, outsideBefore).catch(reportFailure);
  await markUndone(chat, userId);
  // volley.undone (attack-hooks.js): the card, the request it took back, and the values put back.
  announceUndone({ message: chat, requestId: flags.requestId, system: flags.system, token: flags.token, restored: flags.before, userId });
  return reply;
}

/**
 * A reader asks for a private card's secret part (the player who fired a GM roll, a GM whose browser
 * has no token): lifted here with the bridge's token and sent to that user alone (relay.js routes the
 * answer), only if they may read it (chat.js mayRead); nothing else of the table's changes.
 * @param {import("../relay.js").RevealMessage} message
 * @param {string} userId
 * @returns {Promise<BridgeMessage>}
 */
async function revealCard(message, userId) {
  const chat = chatMessage(message.message);
  const flags = chat ? cardFlags(chat) : null;
  if (!chat || !flags || !isVeiled(flags)) throw new FormError("message", "VOLLEY.Form.NothingToReveal");
  if (!mayRead(flags, game.users.get(userId))) throw new FormError("message", "VOLLEY.Form.NotYoursToRead");
  const secret = liftVeil(chat);
  if (!secret) throw new FormError("message", "VOLLEY.Form.VeilUnsealed");
  return { type: "revealed", id: message.id, secret, visibility: "public" };
}

/**
 * Cancel the pending two-step attack that holds a weapon (#31): journalled by the bridge, nothing
 * spent; the weapon is free again and the attack's card says who cancelled it. A bridge that no longer
 * holds the attack (it expired, was forgotten, or was settled by another request) frees the weapon too.
 * The relay has checked that the user owns the token or is a game master.
 * @param {import("../relay.js").CancelMessage} message
 * @param {string} userId
 * @returns {Promise<BridgeMessage>}
 */
async function cancelPending(message, userId) {
  const token = findTokenDocument(message.token);
  if (!token) throw new FormError("token", "VOLLEY.Form.UnknownToken");
  const plugin = systemPlugin(worldRuleSystem());
  if (!plugin) throw new FormError("system", "VOLLEY.Form.NoSystem");
  const weapon = findWeapon(arsenalOf(token, plugin.id).weapons, message.weapon);
  if (!weapon) throw new FormError("weapon", "VOLLEY.Form.UnknownWeapon");
  const hold = holdOf(tokenState(token), weapon);
  const card = message.pending ? cardFor(message.pending) : null;
  const flags = card ? cardFlags(card) : null;
  // The hold names the attack; a card's Cancel names it too, and must be that token's attack.
  const pendingId = hold?.key ?? (flags?.pending && flags.token === message.token && !flags.settled ? flags.requestId : "");
  if (!pendingId) throw new FormError("weapon", "VOLLEY.Form.NothingToCancel", { weapon: weapon.name });
  /** @type {BridgeMessage} */
  let reply;
  /** @type {import("./chat.js").Settled} */
  let settled = { kind: "cancelled", by: userId, at: Date.now() };
  try {
    reply = await connected().request(cancel(message.id, pendingId, userId));
  } catch (error) {
    const code = error instanceof BridgeError ? error.code : "";
    if (!GONE.has(code) && code !== "already_allocated") throw error;
    // Settled or gone on the bridge: nothing is left to cancel there; the weapon is freed all the same.
    reply = { type: "cancelled", id: message.id, pending_id: pendingId, code };
    if (GONE.has(code)) settled = { kind: "expired", code, at: Date.now() };
  }
  await clearHold(token, plugin, weapon, pendingId);
  await settlePending(pendingId, settled).catch(reportFailure);
  return reply;
}

/**
 * Cancel the pending attack holding a weapon (a card's Cancel, the dialog's): send it through the holder.
 * @param {{token: string, weapon: string, pending?: string}} what
 * @param {(message: RelayedMessage) => Promise<BridgeMessage>} send
 */
export async function requestCancel(what, send) {
  /** @type {import("../relay.js").CancelMessage} */
  const message = { type: "cancel", id: newRequestId(), token: what.token, weapon: what.weapon };
  if (what.pending) message.pending = what.pending;
  return send(message);
}

/**
 * Undo puts back the absolute values a card's result replaced, so it is honoured only while they are
 * still the weapon's (#31): the weapon's last card is this one (its books name it) and nothing changed
 * it since, outside Volley. Undoing an older card would refund the rounds a later card spent (or put
 * back a change made since, unseen): the later cards are undone first, newest first. A card from before
 * the books (no record of the weapon) is undone as it always was.
 * @param {import("./chat.js").CardFlags} flags
 * @param {RuleSystemPlugin} plugin
 */
function checkUndoInOrder(flags, plugin) {
  const changesWeapon = (Array.isArray(flags.before) ? flags.before : []).some((b) => /** @type {any} */ (b)?.weapon);
  const token = findTokenDocument(flags.token);
  if (!changesWeapon || !token || !flags.weapon) return;
  const weapon = findWeapon(arsenalOf(token, plugin.id).weapons, flags.weapon);
  if (!weapon) return;
  const books = weaponBooks(/** @type {any} */ (token.actor)?.flags?.[MODULE_ID]?.books, magazineOf(weapon));
  if (!books) return;
  // Books with no card yet (the holder's baseline) say nothing about older cards: those undo as before.
  if (books.key !== null && books.key !== flags.requestId) throw new FormError("message", "VOLLEY.Form.UndoLater", { weapon: weapon.name });
  if (books.outside || changedSince(books, weapon.state).length > 0) throw new FormError("message", "VOLLEY.Form.UndoChanged", { weapon: weapon.name });
}

/**
 * A GM clicked Undo on a card: send it through the holder.
 * @param {import("./chat.js").CardMessage} message
 * @param {(message: RelayedMessage) => Promise<BridgeMessage>} send
 */
export async function requestUndo(message, send) {
  const reply = await send({ type: "undo", id: newRequestId(), message: String(message.id) });
  return reply;
}
