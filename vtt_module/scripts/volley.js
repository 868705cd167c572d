/**
 * Volley's Foundry glue: the only module that touches Foundry's globals.
 *
 * - `init`: settings (bridge address and timeout for the world; the access token per browser, so it
 *   never reaches players' clients), the extra status effects results may set.
 * - `ready`: the module socket relay; the bridge connection when this browser is the elected GM
 *   (active GM with the lowest id), re-run on `userConnected` so the connection moves with the GM.
 * - Token HUD: a "Fire" button that opens the attack dialog (GURPS rapid fire) with a live odds
 *   preview; firing (or reloading, or clearing a jam) sends the request through the relay. The GM's browser posts the chat card and
 *   applies the updates (it has the permissions), whoever fired.
 *
 * Everything with rules in it lives in the pure modules next to this file.
 */

import {
  attackFormView,
  FormError,
  gurpsAttackRequest,
  gurpsReloadRequest,
  gurpsUnjamRequest,
} from "./attack-request.js";
import { CARD_TEMPLATE, renderCard } from "./card.js";
import { BridgeConnection, BridgeError } from "./connection.js";
import { isElectedGm } from "./gm-election.js";
import { formatHits, formatPercent, OddsPreview } from "./odds-preview.js";
import { DEFAULT_BRIDGE_URL, newRequestId, rulesMessage } from "./protocol.js";
import { Relay } from "./relay.js";
import { applyUpdates } from "./updates.js";

export const MODULE_ID = "volley";
export const DIALOG_TEMPLATE = `modules/${MODULE_ID}/templates/attack-dialog.hbs`;

/** Statuses a result may set that Foundry's core list lacks (core already has `prone`). */
export const EXTRA_STATUSES = Object.freeze([
  { id: "suppressed", name: "Suppressed", img: "icons/svg/downgrade.svg" },
  { id: "pinned", name: "Pinned", img: "icons/svg/net.svg" },
]);

/** @type {BridgeConnection | null} */
let connection = null;
/** @type {Relay | null} */
let relay = null;
/** @type {string | null} */
let lastNotice = null;
/** Settings can change before `ready` (and do, in init); the connection waits for `ready`. */
let isReady = false;

/** @param {string} key @param {Record<string, string>} [data] */
const t = (key, data) => (data ? game.i18n.format(key, data) : game.i18n.localize(key));

Hooks.once("init", () => {
  game.settings.register(MODULE_ID, "bridgeUrl", {
    name: "VOLLEY.Settings.BridgeUrl.Name",
    hint: "VOLLEY.Settings.BridgeUrl.Hint",
    scope: "world",
    config: true,
    type: String,
    default: DEFAULT_BRIDGE_URL,
    onChange: () => syncConnection(true),
  });
  game.settings.register(MODULE_ID, "token", {
    name: "VOLLEY.Settings.Token.Name",
    hint: "VOLLEY.Settings.Token.Hint",
    scope: "client",
    config: true,
    type: String,
    default: "",
    onChange: () => syncConnection(true),
  });
  game.settings.register(MODULE_ID, "timeout", {
    name: "VOLLEY.Settings.Timeout.Name",
    hint: "VOLLEY.Settings.Timeout.Hint",
    scope: "world",
    config: true,
    type: Number,
    default: 15,
    onChange: () => syncConnection(true),
  });
  for (const status of EXTRA_STATUSES) {
    if (!CONFIG.statusEffects.some((/** @type {{id: string}} */ s) => s.id === status.id)) {
      CONFIG.statusEffects.push({ ...status });
    }
  }
});

Hooks.once("ready", () => {
  isReady = true;
  relay = new Relay({
    socket: game.socket,
    userId: () => game.user.id,
    isGm: () => isElectedGm(game.users.contents, game.user.id),
    ownsToken,
    forward: forwardToBridge,
  });
  relay.attach();
  syncConnection();
  Hooks.on("userConnected", () => syncConnection());
  Hooks.on("renderTokenHUD", addFireButton);
  const module = game.modules.get(MODULE_ID);
  if (module) module.api = { openAttackDialog, connection: () => connection };
});

/**
 * Hold the bridge connection if and only if this browser is the elected GM.
 * @param {boolean} [restart] the settings changed: reconnect with the new ones
 */
function syncConnection(restart = false) {
  if (!isReady) return;
  if (!game.user || !isElectedGm(game.users.contents, game.user.id)) {
    connection?.stop("another GM holds the bridge connection");
    connection = null;
    return;
  }
  if (connection && !restart) return;
  connection?.stop("settings changed");
  connection = null;
  const token = String(game.settings.get(MODULE_ID, "token") ?? "").trim();
  if (!token) {
    ui.notifications.warn(t("VOLLEY.Status.NoToken"));
    return;
  }
  const version = game.modules.get(MODULE_ID)?.version ?? "dev";
  connection = new BridgeConnection({
    url: String(game.settings.get(MODULE_ID, "bridgeUrl") || DEFAULT_BRIDGE_URL),
    token,
    WebSocket: globalThis.WebSocket,
    requestTimeoutMs: Number(game.settings.get(MODULE_ID, "timeout") || 15) * 1000,
    client: `volley-module ${version} / ${game.world?.id ?? "world"}`,
    log: (...args) => console.warn(...args),
  });
  connection.onStatus((status) => {
    const notice = `${status.state}:${status.error?.code ?? ""}`;
    if (notice === lastNotice) return;
    lastNotice = notice;
    if (status.state === "ready") ui.notifications.info(t("VOLLEY.Status.ready"));
    else if (status.state === "refused" && status.error?.code === "bad_url") {
      ui.notifications.error(t("VOLLEY.Status.BadUrl", { reason: status.error.reason }));
    } else if (status.state === "refused") {
      ui.notifications.error(t("VOLLEY.Status.refused", { reason: status.error?.reason ?? "" }));
    } else if (status.state === "waiting" && status.attempt === 1) {
      ui.notifications.warn(t("VOLLEY.Status.waiting", { seconds: String((status.delayMs ?? 0) / 1000) }));
    }
  });
  connection.start();
}

/**
 * A token document by id: the viewed scene first, then every scene.
 * @param {string} tokenId
 */
function findTokenDocument(tokenId) {
  const here = canvas?.scene?.tokens?.get(tokenId);
  if (here) return here;
  for (const scene of game.scenes?.contents ?? []) {
    const doc = scene.tokens.get(tokenId);
    if (doc) return doc;
  }
  return null;
}

/** @param {string} userId @param {string} tokenId */
function ownsToken(userId, tokenId) {
  const user = game.users.get(userId);
  const doc = findTokenDocument(tokenId);
  return Boolean(user && doc && doc.testUserPermission(user, "OWNER"));
}

/**
 * The elected GM's handling of a vetted message: ask the bridge, then apply a result and post it.
 *
 * Once the bridge has answered, the attack has happened (it is in the journal), so the answer goes
 * back to the requester even if applying or posting fails here; the GM is told, and resending the
 * same request id later gets the same result to apply again.
 * @param {import("./protocol.js").BridgeMessage} message
 * @param {string} userId who asked
 */
async function forwardToBridge(message, userId) {
  if (!connection) throw new BridgeError({ code: "not_connected", message: "the bridge is not connected" });
  const reply = await connection.request(message);
  if (reply.type !== "result" && reply.type !== "pending") return reply;
  /** @param {unknown} error */
  const report = (error) => {
    console.error("volley:", error);
    ui.notifications.error(t("VOLLEY.Errors.Failed", { message: error instanceof Error ? error.message : String(error) }));
  };
  if (reply.type === "result") {
    try {
      const { problems } = await applyUpdates(reply.updates, tokenHandle);
      for (const problem of problems) console.warn("volley:", problem);
    } catch (error) {
      report(error);
    }
  }
  try {
    await postCard(reply, message, userId);
  } catch (error) {
    report(error);
  }
  return reply;
}

/**
 * One chat card per request id: a resent or replayed id does not post twice.
 * @param {import("./protocol.js").BridgeMessage} reply
 * @param {import("./protocol.js").BridgeMessage} message
 * @param {string} userId
 */
async function postCard(reply, message, userId) {
  const requestId = message.id;
  if (game.messages.contents.some((/** @type {any} */ m) => m.flags?.[MODULE_ID]?.requestId === requestId)) return;
  const template = await foundry.applications.handlebars.getTemplate(CARD_TEMPLATE);
  const content = renderCard(reply.card, template);
  const request = /** @type {{attacker?: {id?: string}}} */ (message.request ?? {});
  const shooter = request.attacker?.id ? findTokenDocument(request.attacker.id) : null;
  await ChatMessage.create({
    content,
    author: userId,
    speaker: ChatMessage.getSpeaker(shooter ? { token: shooter } : {}),
    flags: { [MODULE_ID]: { requestId, result: reply.result ?? null } },
  });
}

/**
 * @param {string} tokenId
 * @returns {import("./updates.js").TokenHandle | null}
 */
function tokenHandle(tokenId) {
  const doc = findTokenDocument(tokenId);
  if (!doc) return null;
  return {
    getFlag: (name) => doc.getFlag(MODULE_ID, name),
    hasStatus: (id) => Boolean(doc.actor?.statuses?.has(id)),
    update: (changes) => doc.update(changes),
    setStatus: async (id, active) => {
      if (doc.actor) await doc.actor.toggleStatusEffect(id, { active });
    },
  };
}

/**
 * Send a rules request from this user (through the GM when this is a player's browser).
 * @param {string} type
 * @param {Record<string, unknown>} request
 */
async function sendRules(type, request) {
  if (!relay) throw new BridgeError({ code: "not_ready", message: "Volley is not ready yet" });
  const reply = await relay.send(rulesMessage(type, newRequestId(), request));
  if (reply.type === "error") {
    throw new BridgeError({
      code: String(reply.code ?? "error"),
      message: String(reply.message ?? "refused"),
      path: typeof reply.path === "string" ? reply.path : null,
    });
  }
  return reply;
}

/**
 * The Token HUD's Fire button. In v13 the HUD is an ApplicationV2 and the hook passes an HTMLElement.
 * @param {any} hud
 * @param {HTMLElement} html
 */
function addFireButton(hud, html) {
  const root = html instanceof HTMLElement ? html : /** @type {any} */ (html)[0];
  const column = root?.querySelector(".col.right");
  const token = hud.object ?? hud.token;
  if (!column || !token?.document?.isOwner || column.querySelector(".volley-fire")) return;
  const button = document.createElement("button");
  button.type = "button";
  button.className = "control-icon volley-fire";
  button.dataset.tooltip = t("VOLLEY.Hud.Fire");
  button.setAttribute("aria-label", t("VOLLEY.Hud.Fire"));
  button.innerHTML = '<i class="fa-solid fa-crosshairs" inert></i>';
  button.addEventListener("click", (event) => {
    event.preventDefault();
    void openAttackDialog(token);
  });
  column.append(button);
}

/** @param {HTMLFormElement | HTMLElement} form */
function formValues(form) {
  const data = form instanceof HTMLFormElement ? new FormData(form) : new FormData();
  /** @type {Record<string, string>} */
  const values = {};
  for (const [key, value] of data.entries()) values[key] = String(value);
  return values;
}

/**
 * Fill the dialog's preview cells from an odds summary (textContent only: nothing is parsed as HTML).
 * Rows are matched to targets by position, not by an attribute, because DialogV2 cleans string
 * content and need not keep `data-` attributes.
 * @param {HTMLElement} root
 * @param {string[]} targetIds the dialog's targets, in row order
 * @param {import("./odds-preview.js").OddsSummary | null} summary
 * @param {unknown} [error]
 */
function showPreview(root, targetIds, summary, error) {
  const byId = new Map((summary?.targets ?? []).map((target) => [target.id, target]));
  for (const [index, row] of root.querySelectorAll("tr.volley-dialog__target").entries()) {
    const odds = byId.get(targetIds[index] ?? "");
    const expected = row.querySelector(".volley-dialog__expected");
    const atLeastOne = row.querySelector(".volley-dialog__at-least-one");
    if (expected) expected.textContent = odds ? formatHits(odds.expected) : "—";
    if (atLeastOne) atLeastOne.textContent = odds ? formatPercent(odds.atLeastOne) : "—";
  }
  const jam = root.querySelector(".volley-dialog__jam");
  if (jam) jam.textContent = summary ? formatPercent(summary.jam) : "—";
  const status = root.querySelector(".volley-dialog__status");
  if (status) {
    const reason = error instanceof Error ? error.message : error ? String(error) : "";
    status.textContent = reason ? t("VOLLEY.Dialog.NoOdds", { reason }) : "";
    status.classList.toggle("volley-dialog__status--error", Boolean(reason));
  }
}

/**
 * Open the attack dialog for a token the user owns, at the user's targeted tokens.
 * @param {any} token a Token placeable (or its document)
 */
export async function openAttackDialog(token) {
  const doc = token.document ?? token;
  if (!doc.isOwner) {
    ui.notifications.warn(t("VOLLEY.Errors.NotOwner"));
    return null;
  }
  const targets = [...game.user.targets]
    .map((target) => target.document ?? target)
    .filter((target) => target.id && target.id !== doc.id)
    .map((target) => ({ id: String(target.id), name: target.name }));
  if (targets.length === 0) {
    ui.notifications.warn(t("VOLLEY.Errors.NoTargets"));
    return null;
  }
  const view = attackFormView({ id: String(doc.id), name: doc.name }, doc.flags?.[MODULE_ID], targets);
  const content = await foundry.applications.handlebars.renderTemplate(DIALOG_TEMPLATE, view);
  const targetIds = view.targets.map((target) => target.id);
  /** @type {HTMLElement | null} */
  let root = null;
  const preview = new OddsPreview({
    fetchOdds: async (request) => (await sendRules("odds", request)).odds,
    onSummary: (summary, error) => {
      if (root) showPreview(root, targetIds, summary, error);
    },
  });
  const chosen = await foundry.applications.api.DialogV2.wait({
    window: { title: t("VOLLEY.Dialog.Title", { name: doc.name }) },
    classes: ["volley-attack-dialog"],
    content,
    buttons: [
      {
        action: "fire",
        label: t("VOLLEY.Dialog.Fire"),
        icon: "fa-solid fa-crosshairs",
        default: true,
        callback: (/** @type {Event} */ _event, /** @type {HTMLButtonElement} */ button) =>
          button.form ? { action: "attack", values: formValues(button.form) } : null,
      },
      {
        action: "reload",
        label: t("VOLLEY.Dialog.Reload"),
        icon: "fa-solid fa-rotate",
        callback: (/** @type {Event} */ _event, /** @type {HTMLButtonElement} */ button) =>
          button.form ? { action: "reload", values: formValues(button.form) } : null,
      },
      ...(view.shooter.weapon.jammed
        ? [
            {
              action: "unjam",
              label: t("VOLLEY.Dialog.Unjam"),
              icon: "fa-solid fa-wrench",
              callback: (/** @type {Event} */ _event, /** @type {HTMLButtonElement} */ button) =>
                button.form ? { action: "unjam", values: formValues(button.form) } : null,
            },
          ]
        : []),
      { action: "cancel", label: t("VOLLEY.Dialog.Cancel") },
    ],
    render: (/** @type {Event} */ _event, /** @type {any} */ dialog) => {
      root = dialog instanceof HTMLElement ? dialog : dialog.element;
      const form = root?.querySelector("form") ?? root;
      if (!root || !form) return;
      const refresh = () => {
        try {
          preview.update(gurpsAttackRequest(view, formValues(form)));
          const status = root?.querySelector(".volley-dialog__status");
          if (status) {
            status.textContent = t("VOLLEY.Dialog.Waiting");
            status.classList.remove("volley-dialog__status--error");
          }
        } catch (error) {
          preview.update(null);
          if (root) showPreview(root, targetIds, null, error instanceof FormError ? error.message : error);
        }
      };
      form.addEventListener("input", refresh);
      form.addEventListener("change", refresh);
      refresh();
    },
    rejectClose: false,
  });
  preview.cancel();
  const choice = /** @type {{action?: unknown, values?: Record<string, string>} | null} */ (chosen);
  if (!choice || typeof choice !== "object" || !choice.values) return null;
  try {
    if (choice.action === "reload") return await sendRules("action", gurpsReloadRequest(view, choice.values));
    if (choice.action === "unjam") return await sendRules("action", gurpsUnjamRequest(view, choice.values));
    return await sendRules("attack", gurpsAttackRequest(view, choice.values));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    ui.notifications.error(t("VOLLEY.Errors.Failed", { message }));
    return null;
  }
}
