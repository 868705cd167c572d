/**
 * The veil over a private card: what only its readers may see, sealed so that no other client can.
 *
 * Foundry sends every chat message to every client and only hides a private roll's content when it
 * draws it (issue #32): a player's JavaScript reads `game.messages` whole. So a card that not everyone
 * may read (a GM, blind or self roll) carries in the clear only what every client may know (whose request,
 * which system, who shot, whether it is applied, undone or settled, the undo seal), and the rest (the
 * bridge's card and result, the player's choice, the weapon, `before`, the pool of a pending attack)
 * travels inside the veil: authenticated encryption (XChaCha20-Poly1305, @noble/ciphers, vendored in
 * scripts/vendor/noble-ciphers/) under a key derived from the bridge's access token (HKDF-SHA-256,
 * @noble/hashes). Only browsers that hold the token (the referee's) can lift it; every other reader
 * (the player who fired a GM roll, a second GM without the token) asks the browser holding the bridge,
 * which checks that the asker may read that card and answers that user alone (relay.js, `reveal`).
 *
 * The card's request id is the veil's associated data: a veil moved onto another card does not lift.
 * A token changed since the card was posted cannot lift it either (as it cannot verify the undo seal).
 *
 * Pure apart from the random nonce (injectable for tests).
 */

import { xchacha20poly1305 } from "../vendor/noble-ciphers/chacha.js";
import { hkdf } from "../vendor/noble-hashes/hkdf.js";
import { sha256 } from "../vendor/noble-hashes/sha2.js";
import { utf8ToBytes } from "../vendor/noble-hashes/utils.js";

/** The veil's format, first in its text: a later one can be told apart. */
const VERSION = "v1";
/** What the key is for, so the token's other use (the undo seal's HMAC key) never meets it. */
const INFO = "volley card veil v1";
const NONCE_BYTES = 24;

/** @param {string} token */
function keyOf(token) {
  return hkdf(sha256, utf8ToBytes(token), undefined, utf8ToBytes(INFO), 32);
}

/** @param {Uint8Array} bytes */
function toBase64(bytes) {
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

/** @param {string} text */
function fromBase64(text) {
  const raw = atob(text);
  const bytes = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

/**
 * Seal what a card's readers may see.
 * @param {string} token the bridge's access token
 * @param {string} requestId the card's request key (associated data)
 * @param {Record<string, unknown>} secret plain JSON data
 * @param {(length: number) => Uint8Array} [random] nonce source (default: the platform's)
 * @returns {string} `v1.<base64 of nonce and ciphertext>`
 */
export function veil(token, requestId, secret, random = (length) => globalThis.crypto.getRandomValues(new Uint8Array(length))) {
  if (!token) throw new TypeError("token: only a browser that holds the bridge's token can veil a card");
  const nonce = random(NONCE_BYTES);
  const sealed = xchacha20poly1305(keyOf(token), nonce, utf8ToBytes(requestId)).encrypt(utf8ToBytes(JSON.stringify(secret)));
  const out = new Uint8Array(nonce.length + sealed.length);
  out.set(nonce);
  out.set(sealed, nonce.length);
  return `${VERSION}.${toBase64(out)}`;
}

/**
 * Lift a card's veil: its secret, or null when this token cannot (another token, another card, an
 * edited veil, anything that is not a veil).
 * @param {string} token
 * @param {string} requestId
 * @param {unknown} veiled
 * @returns {Record<string, unknown> | null}
 */
export function unveil(token, requestId, veiled) {
  if (!token || typeof veiled !== "string" || !veiled.startsWith(`${VERSION}.`)) return null;
  try {
    const bytes = fromBase64(veiled.slice(VERSION.length + 1));
    if (bytes.length <= NONCE_BYTES) return null;
    const opened = xchacha20poly1305(keyOf(token), bytes.subarray(0, NONCE_BYTES), utf8ToBytes(requestId)).decrypt(bytes.subarray(NONCE_BYTES));
    const value = JSON.parse(new TextDecoder().decode(opened));
    return typeof value === "object" && value !== null && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}
