/**
 * The holder's side of every relayed message: build the rules request from the documents, ask the
 * bridge, apply what comes back to the weapon that fired and the tokens it hit, and post the card.
 * Undo is the same path backwards.
 */

import { announceResolved, announceUndone } from "../attack-hooks.js";
import { BridgeError } from "../connection.js";
import { newRequestId, rulesMessage, undo } from "../protocol.js";
import { FormError } from "../systems/common/fields.js";
import { systemPlugin } from "../systems/index.js";
import { applyPlans, planResult, undoPlans } from "../updates.js";
import { bridgeConnection, bridgeOnline } from "./bridge.js";
import { cardFlags, chatMessage, markUndone, postCard, settlePending } from "./chat.js";
import { findTokenDocument, rememberCurrentWeapon, requestContext, syncDerivedStatuses, tokenHandle, tokenView } from "./documents.js";
import { worldRuleSystem } from "./settings.js";
import { asTablePlays } from "./table-rules.js";

/**
 * @typedef {import("../relay.js").RelayedMessage} RelayedMessage
 * @typedef {import("../relay.js").ChoiceMessage} ChoiceMessage
 * @typedef {import("../protocol.js").BridgeMessage} BridgeMessage
 * @typedef {import("../systems/registry.js").RuleSystemPlugin} RuleSystemPlugin
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
    pendingId = built.pending_id;
    outgoing = { type: "allocate", id: message.id, pending_id: pendingId, allocation: built.allocation, user: userId };
  } else {
    const built = plugin.buildRequest(choice, context);
    // The table's rules reach every request here, whoever built the choice (foundry/table-rules.js).
    outgoing = rulesMessage(built.type, message.id, asTablePlays(plugin.id, built.request), userId);
  }
  const reply = await askBridge(connection, outgoing, pendingId);
  if (reply.type !== "result" && reply.type !== "pending") return reply;
  nameRows(reply.card);
  const shooter = findTokenDocument(choice.token);
  /** @type {unknown[]} */
  let before = [];
  if (reply.type === "result") {
    try {
      before = await applyResult(reply, plugin, choice.token, context.weapon.id);
    } catch (error) {
      // The bridge has journalled the attack: it happened. Tell the referee; a resend of the same id
      // gets the same result to apply again.
      reportFailure(error);
    }
  }
  /** @type {string | null} */
  let posted = null;
  try {
    const capacity = plugin.readout(context.weapon).capacity;
    posted = await postCard(
      {
        requestId: message.id,
        system: plugin.id,
        token: choice.token,
        weapon: context.weapon.id,
        card: reply.card ?? null,
        result: reply.result ?? null,
        capacity,
        before,
        pending: reply.type === "pending" ? (reply.pending ?? null) : null,
        choice,
      },
      userId,
      shooter,
      choice.rollMode,
    );
    if (pendingId && reply.type === "result") {
      await settlePending(pendingId, { kind: "allocated", by: userId, requestId: message.id, messageId: posted, hits: hitsOf(reply.card), at: Date.now() });
    }
  } catch (error) {
    reportFailure(error);
  }
  if (reply.type === "result") {
    // volley.attackResolved (attack-hooks.js): here, in the browser that applied the result.
    announceResolved({
      type: message.type,
      system: plugin.id,
      request: outgoing,
      choice,
      result: reply.result ?? null,
      card: reply.card ?? null,
      updates: reply.updates ?? [],
      before,
      message: posted ? chatMessage(posted) : null,
      token: shooter,
      weapon: context.weapon.id,
      userId,
    });
  }
  return reply;
}

/** Bridge codes that mean a pending attack is gone for good (it was forgotten, or it expired). */
const GONE = new Set(["unknown_pending", "expired", "pending_expired"]);

/**
 * Ask the bridge; for an `allocate`, a refusal that settles the attack (already split by another
 * request, gone from the bridge) is also written on its pending card, so nobody tries again.
 * @param {import("../connection.js").BridgeConnection} connection
 * @param {BridgeMessage} outgoing
 * @param {string} pendingId the attack an `allocate` settles ("" for any other message)
 */
async function askBridge(connection, outgoing, pendingId) {
  try {
    return await connection.request(outgoing);
  } catch (error) {
    const code = error instanceof BridgeError ? error.code : "";
    /** @type {import("./chat.js").Settled | null} */
    let settled = null;
    if (GONE.has(code)) settled = { kind: "expired", code, at: Date.now() };
    if (code === "already_allocated") settled = { kind: "allocated", by: null, requestId: null, messageId: null, hits: [], at: Date.now() };
    // The refusal is what the requester must hear; a card that could not be marked is only reported.
    if (pendingId && settled) await settlePending(pendingId, settled).catch(reportFailure);
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
 * Write a result to the tokens and return the old values of what changed (for Undo).
 * @param {BridgeMessage} reply
 * @param {RuleSystemPlugin} plugin
 * @param {string} shooterId
 * @param {string} weaponId
 */
async function applyResult(reply, plugin, shooterId, weaponId) {
  const { plans, before, problems } = planResult(reply.updates, { token: shooterId, weapon: weaponId }, plugin.weaponStateKey, (id) => {
    const doc = findTokenDocument(id);
    return doc ? tokenView(doc, plugin.id) : null;
  });
  const applied = await applyPlans(plans, (id) => {
    const doc = findTokenDocument(id);
    return doc ? tokenHandle(doc, plugin.id) : null;
  });
  for (const problem of [...problems, ...applied.problems]) console.warn("volley:", problem);
  await afterWrites([shooterId, ...plans.map((plan) => plan.token)], plugin);
  const shooter = findTokenDocument(shooterId);
  if (shooter) await rememberCurrentWeapon(shooter, plugin.id, weaponId);
  return before;
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
  const flags = chat ? cardFlags(chat) : null;
  if (!chat || !flags || flags.pending) throw new FormError("message", "VOLLEY.Form.NothingToUndo");
  if (flags.undone) throw new FormError("message", "VOLLEY.Form.AlreadyUndone");
  const plugin = systemPlugin(flags.system);
  if (!plugin) throw new FormError("system", "VOLLEY.Form.NoSystem");
  /** @type {BridgeMessage} */
  let reply;
  try {
    reply = await connected().request(undo(message.id, flags.requestId, userId));
  } catch (error) {
    // Undone before (the card's update was lost): the values are absolute, so restoring again is harmless.
    if (!(error instanceof BridgeError && error.code === "already_undone")) throw error;
    reply = { type: "undone", id: message.id, target_id: flags.requestId };
  }
  const { plans, problems } = undoPlans(flags.before);
  const applied = await applyPlans(plans, (id) => {
    const doc = findTokenDocument(id);
    return doc ? tokenHandle(doc, plugin.id) : null;
  });
  for (const problem of [...problems, ...applied.problems]) console.warn("volley:", problem);
  await afterWrites([flags.token, ...plans.map((plan) => plan.token)], plugin);
  await markUndone(chat, userId);
  // volley.undone (attack-hooks.js): the card, the request it took back, and the values put back.
  announceUndone({ message: chat, requestId: flags.requestId, system: flags.system, token: flags.token, restored: flags.before, userId });
  return reply;
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
