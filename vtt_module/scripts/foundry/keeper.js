/**
 * The glue of books.js (issue #31): the browser holding the bridge keeps Volley's flags the referee's.
 *
 * Every GM browser keeps a copy of each actor's `flags.volley` as it was after its last update (so the
 * browser that holds the bridge now, or the one that takes over, can put a change back), and who last
 * changed the actor outside Volley. Foundry calls `updateActor` on every client with the user who made
 * the change (v13 `ClientDatabaseBackend#_handleUpdateDocuments`: `_onUpdate(changed, options,
 * userId)`, then the `update<Document>` hook with the same arguments); a synthetic actor's (an unlinked
 * token's) change comes the same way. Only the holder acts on it:
 * - a change to Volley's flags that the user may not make (books.js `forbiddenFlags`) is put back at
 *   once from the copy, and the game masters are told in a whispered chat line, naming the user, the
 *   actor, the weapon and the values ("Player changed Kira Rhyne outside Volley: Autorifle rounds
 *   3 → 20; put back."); the change also goes on the next card of that weapon (`kept: false`);
 * - a change that stands is found at the weapon's next card by comparing its state with the books
 *   Volley wrote after its last card (`outsideFor`), said on that card and journalled with the key's
 *   applied mark.
 *
 * What the holder's browser does not see (a change made while no GM browser was open) has no copy to
 * be put back from; the books still find it at the next card, with no name for who made it.
 */

import { findWeapon, magazineOf } from "../adapters/identity.js";
import { BOOKS_FLAG, changedSince, forbiddenFlags, namedChanges, plainState, revertOf, weaponBooks } from "../books.js";
import { isHolder, onBridgeStatus } from "./bridge.js";
import { arsenalOf, findTokenDocument } from "./documents.js";
import { MODULE_ID, worldRuleSystem } from "./settings.js";
import { t } from "./words.js";
import { isHtmlElement } from "./window-dom.js";

/**
 * @typedef {import("../books.js").FieldChange} FieldChange
 * @typedef {{token: string, token_name: string, weapon: string, weapon_name: string, field: string,
 *   from: unknown, to: unknown, by: string | null, by_name: string | null, kept: boolean}} OutsideChange
 *   one change made outside Volley, as a card and the journal keep it (docs/protocol.md, `applied`)
 */

/** Each actor's `flags.volley` after its last update, by the actor's uuid. @type {Map<string, unknown>} */
const copies = new Map();
/** Who last changed each actor outside Volley (its id), since Volley last wrote its books. @type {Map<string, string>} */
const changedBy = new Map();
/** Changes put back, to be said on the next card of their weapon: by actor, then magazine. @type {Map<string, Map<string, OutsideChange[]>>} */
const putBack = new Map();
let watching = false;
/** Whether this browser has written the baseline books since it became the holder. */
let baselined = false;

/** @param {any} actor */
function keyOf(actor) {
  return String(actor?.uuid ?? actor?.id ?? "");
}

/** @param {any} actor */
function remember(actor) {
  if (!actor) return;
  const flags = actor.flags?.[MODULE_ID];
  copies.set(keyOf(actor), flags === undefined ? {} : structuredClone(flags));
}

/** Whether players may edit Volley profiles at this table (the world setting). */
function playersEditProfiles() {
  try {
    return game.settings.get(MODULE_ID, "playersEditProfiles") === true;
  } catch {
    return false;
  }
}

/**
 * Start keeping the copies (every GM browser; `ready`). The holder acts on what it sees.
 */
export function watchBooks() {
  if (watching || !game.user.isGM) return;
  watching = true;
  for (const actor of game.actors?.contents ?? []) remember(actor);
  for (const scene of game.scenes?.contents ?? []) for (const token of scene.tokens?.contents ?? []) if (!token.actorLink) remember(token.actor);
  Hooks.on("createActor", (actor) => remember(actor));
  Hooks.on("createToken", (token) => remember(/** @type {any} */ (token).actor));
  Hooks.on("updateActor", (actor, changed, _options, userId) => void onActorUpdate(actor, changed, String(userId ?? "")));
  Hooks.on("updateItem", (item, _changed, _options, userId) => noteOutside(/** @type {any} */ (item).parent, String(userId ?? "")));
  // The browser that holds the bridge records where every weapon stands before its first card, so a
  // change made before that card is found too; new actors and tokens get theirs as they come.
  onBridgeStatus(() => {
    if (isHolder() && !baselined) {
      baselined = true;
      void baselineBooks(allActors()).catch((error) => console.error("volley:", error));
    } else if (!isHolder()) {
      baselined = false;
    }
  });
  Hooks.on("createActor", (actor) => {
    if (isHolder()) void baselineBooks([actor]).catch((error) => console.error("volley:", error));
  });
  Hooks.on("createToken", (token) => {
    if (isHolder()) void baselineBooks([/** @type {any} */ (token).actor]).catch((error) => console.error("volley:", error));
  });
}

/** Every actor Volley may read: the world's, and each unlinked token's own. */
function allActors() {
  /** @type {any[]} */
  const actors = [...(game.actors?.contents ?? [])];
  for (const scene of game.scenes?.contents ?? []) for (const token of scene.tokens?.contents ?? []) if (!token.actorLink && token.actor) actors.push(token.actor);
  return actors;
}

/**
 * Books for each weapon of these actors that has none yet: its state as it is now (one update per actor).
 * @param {any[]} actors
 */
async function baselineBooks(actors) {
  const system = worldRuleSystem();
  if (!system) return;
  for (const actor of actors) {
    if (!actor) continue;
    const weapons = arsenalOf(/** @type {any} */ ({ actor }), system).weapons;
    const books = actor.flags?.[MODULE_ID]?.[BOOKS_FLAG];
    /** @type {Record<string, unknown>} */
    const update = {};
    for (const weapon of weapons) {
      const magazine = magazineOf(weapon);
      if (weaponBooks(books, magazine)) continue;
      update[`flags.${MODULE_ID}.${BOOKS_FLAG}.${magazine}`] = { state: plainState(weapon.state), key: null, at: Date.now() };
    }
    if (Object.keys(update).length > 0) await actor.update(update);
  }
}

/**
 * A change to an actor outside Volley's own writes: remember who made it (the holder's own user writes
 * Volley's updates, so its changes are not counted).
 * @param {any} actor
 * @param {string} userId
 */
function noteOutside(actor, userId) {
  if (!actor || !userId || userId === String(game.user.id)) return;
  changedBy.set(keyOf(actor), userId);
}

/**
 * @param {any} actor
 * @param {unknown} changed the update as applied (Foundry's `changed`)
 * @param {string} userId who made it
 */
async function onActorUpdate(actor, changed, userId) {
  const key = keyOf(actor);
  const before = copies.get(key);
  const changedVolley = /** @type {any} */ (changed)?.flags?.[MODULE_ID];
  noteOutside(actor, userId);
  const user = game.users.get(userId);
  const refused = changedVolley === undefined ? [] : forbiddenFlags(changedVolley, { isGM: Boolean(user?.isGM), playersEditProfiles: playersEditProfiles() });
  if (refused.length === 0 || before === undefined) {
    remember(actor);
    return;
  }
  // The copy keeps the values put back; what the user was allowed to change is taken in.
  const now = structuredClone(actor.flags?.[MODULE_ID] ?? {});
  for (const flag of refused) now[flag] = structuredClone(/** @type {any} */ (before)?.[flag]);
  copies.set(key, now);
  if (!isHolder()) return;
  const { update, changes } = revertOf(changedVolley, before, refused);
  if (changes.length === 0) return;
  try {
    await actor.update(update);
  } catch (error) {
    console.error("volley:", error);
  }
  await tellPutBack(actor, user, changes);
}

/**
 * Tell the game masters, once, what a user changed and that it was put back; keep it for the next card
 * of each weapon it touched.
 * @param {any} actor
 * @param {any} user
 * @param {FieldChange[]} changes
 */
async function tellPutBack(actor, user, changes) {
  const system = worldRuleSystem();
  const weapons = system ? arsenalOf(/** @type {any} */ ({ actor }), system).weapons : [];
  // A token the state names (a target lock) is named by its name on the scene, never by its id.
  const tokenName = (/** @type {unknown} */ value) => (typeof value === "string" ? (findTokenDocument(value)?.name ?? value) : value);
  const named = namedChanges(changes, weapons).map((change) =>
    change.field === "state.target" ? { ...change, from: tokenName(change.from), to: tokenName(change.to) } : change,
  );
  const actorName = String(actor.name ?? "");
  const userName = String(user?.name ?? "?");
  const lines = named.map((change) => changeText(change));
  const notice = { user: userName, actor: actorName, changes: lines };
  for (const change of named) {
    const weapon = weapons.find((w) => w.name === change.weapon);
    if (!weapon) continue;
    const mine = putBack.get(keyOf(actor)) ?? new Map();
    putBack.set(keyOf(actor), mine);
    const list = mine.get(magazineOf(weapon)) ?? [];
    list.push({
      token: String(actor.token?.id ?? actor.id ?? ""),
      token_name: actorName,
      weapon: weapon.id,
      weapon_name: weapon.name,
      field: change.field,
      from: change.from,
      to: change.to,
      by: user?.id ? String(user.id) : null,
      by_name: userName,
      kept: false,
    });
    mine.set(magazineOf(weapon), list.slice(-16));
  }
  const gms = game.users.contents.filter((u) => u.isGM).map((u) => String(u.id));
  ui.notifications?.warn(`Volley: ${t("VOLLEY.Books.PutBack", noticeValues(notice))}`);
  try {
    await ChatMessage.create({
      content: `<p class="volley-notice volley-books-notice">${escapeHtml(t("VOLLEY.Books.PutBack", noticeValues(notice)))}</p>`,
      whisper: gms,
      speaker: { alias: "Volley" },
      flags: { [MODULE_ID]: { booksNotice: notice } },
    });
  } catch (error) {
    console.error("volley:", error);
  }
}

/** @param {{user: string, actor: string, changes: string[]}} notice */
function noticeValues(notice) {
  return { user: notice.user, actor: notice.actor, changes: notice.changes.join("; ") };
}

/** @param {string} text */
function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/**
 * One change in words: "Autorifle: rounds 3 → 20".
 * @param {{weapon: string | null, field: string, from: unknown, to: unknown}} change
 */
export function changeText(change) {
  const field = change.field.replace(/^state\./, "");
  const label = game.i18n?.has?.(`VOLLEY.Books.Fields.${field}`) ? t(`VOLLEY.Books.Fields.${field}`) : field;
  const value = (/** @type {unknown} */ v) => (v === null || v === undefined ? "—" : typeof v === "object" ? JSON.stringify(v).slice(0, 60) : String(v));
  const text = `${label} ${value(change.from)} → ${value(change.to)}`;
  return change.weapon ? `${change.weapon}: ${text}` : text;
}

/**
 * `renderChatMessageHTML`: a put-back notice is written again in the reader's language.
 * @param {{flags: unknown, author?: unknown}} message
 * @param {unknown} html
 */
export function decorateBooksNotice(message, html) {
  const raw = /** @type {any} */ (message.flags)?.[MODULE_ID]?.booksNotice;
  const author = /** @type {any} */ (message).author;
  if (!raw || typeof raw !== "object" || !isHtmlElement(html) || author?.isGM !== true) return;
  const line = html.querySelector(".volley-books-notice");
  const changes = Array.isArray(raw.changes) ? raw.changes.map(String).slice(0, 32) : [];
  if (line) line.textContent = t("VOLLEY.Books.PutBack", noticeValues({ user: String(raw.user ?? "?"), actor: String(raw.actor ?? ""), changes }));
}

/**
 * What changed outside Volley in a weapon's state since Volley's last card for it: the fields that
 * differ from its books (kept), and the changes put back meanwhile. Read, not consumed:
 * `writeBooks` starts the next count.
 * @param {TokenDocument} token
 * @param {import("../profile/types.js").VolleyWeapon} weapon as the request was built from it
 * @returns {OutsideChange[]}
 */
export function outsideFor(token, weapon) {
  const actor = /** @type {any} */ (token.actor);
  if (!actor) return [];
  const books = weaponBooks(actor.flags?.[MODULE_ID]?.[BOOKS_FLAG], magazineOf(weapon));
  const by = changedBy.get(keyOf(actor)) ?? null;
  const byName = by ? (game.users.get(by)?.name ?? null) : null;
  const base = { token: String(token.id), token_name: String(token.name ?? ""), weapon: weapon.id, weapon_name: weapon.name };
  const kept = changedSince(books, weapon.state).map((change) => ({ ...base, ...change, by, by_name: byName, kept: true }));
  const back = putBack.get(keyOf(actor))?.get(magazineOf(weapon)) ?? [];
  return [...back, ...kept].slice(0, 64);
}

/**
 * Volley has written a weapon's state (a result, an undo), or has said on a card what changed outside
 * it: its books are the state now, and the count of changes outside Volley starts again. `key` is the
 * card whose values the weapon holds (what Undo checks); `undefined` keeps the one the books name (a
 * pending attack's card changes nothing of the weapon). `outside`: a change made outside Volley since
 * that card stands in the state (said on a card that did not write the weapon): that card's Undo would
 * overwrite it, so it is refused (referee.js `checkUndoInOrder`).
 * @param {TokenDocument} token
 * @param {string} system
 * @param {string} weaponId
 * @param {string | null | undefined} key the request that wrote it
 * @param {boolean} [outside]
 */
export async function writeBooks(token, system, weaponId, key, outside = false) {
  const actor = /** @type {any} */ (token.actor);
  const weapon = actor ? findWeapon(arsenalOf(token, system).weapons, weaponId) : undefined;
  if (!actor || !weapon) return;
  const magazine = magazineOf(weapon);
  const state = plainState(weapon.state);
  // Foundry merges the update into the flag: a field gone since the last books is written as null.
  const old = weaponBooks(actor.flags?.[MODULE_ID]?.[BOOKS_FLAG], magazine);
  for (const field of Object.keys(old?.state ?? {})) if (!(field in state)) state[field] = null;
  putBack.get(keyOf(actor))?.delete(magazine);
  changedBy.delete(keyOf(actor));
  const named = key === undefined ? (old?.key ?? null) : key;
  await actor.update({ [`flags.${MODULE_ID}.${BOOKS_FLAG}.${magazine}`]: { state, key: named, at: Date.now(), outside } });
}
