/**
 * The seal on a card's undo record: HMAC-SHA-256 of what Undo would put back, keyed with the bridge's
 * access token (which only the GM browsers that hold the bridge have).
 *
 * Undo writes old values back with a GM's rights, so what it restores must come from a record no
 * player can write. The card is authored by a GM (a player can neither create a message in a GM's
 * name nor update one: v13 `BaseChatMessage` create/update permission checks), and on top of that its
 * `before` carries this seal: an edited `before`, or a card made up in the console, does not verify,
 * and Undo refuses it (docs/protocol.md, "Undo").
 *
 * The hash and the MAC are @noble/hashes' (vendored in scripts/vendor/noble-hashes/, MIT, audited; see
 * its README and scripts/vendor/README.md), not Volley's own: `crypto.subtle` would do, but a browser
 * has it only in a secure context, and a Foundry server on a LAN address over plain http is not one.
 * Checked against RFC 4231's test vectors and node:crypto in tests/js/table-seal.test.mjs.
 */

import { hmac } from "../vendor/noble-hashes/hmac.js";
import { sha256 as nobleSha256 } from "../vendor/noble-hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "../vendor/noble-hashes/utils.js";

/**
 * SHA-256 of bytes.
 * @param {Uint8Array} bytes
 * @returns {Uint8Array}
 */
export function sha256(bytes) {
  return nobleSha256(bytes);
}

/**
 * HMAC-SHA-256 (RFC 2104) of bytes with a key of bytes.
 * @param {Uint8Array} key
 * @param {Uint8Array} message
 * @returns {Uint8Array}
 */
export function hmacSha256Bytes(key, message) {
  return hmac(nobleSha256, key, message);
}

/**
 * HMAC-SHA-256 of a text with a text key (both UTF-8), as lowercase hex.
 * @param {string} key
 * @param {string} message
 */
export function hmacSha256(key, message) {
  return bytesToHex(hmacSha256Bytes(utf8ToBytes(key), utf8ToBytes(message)));
}

/**
 * JSON with object keys sorted, so the same record seals the same however Foundry stored it.
 * @param {unknown} value
 * @returns {string}
 */
export function canonicalJson(value) {
  return JSON.stringify(value ?? null, (_key, v) =>
    v !== null && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

/**
 * The seal of a card's undo record.
 * @param {string} token the bridge's access token
 * @param {{requestId: string, system: string, token: string, before: unknown}} record
 */
export function sealOf(token, { requestId, system, token: tokenId, before }) {
  return hmacSha256(token, canonicalJson({ v: 1, requestId, system, token: tokenId, before }));
}

/**
 * Whether a card's seal is the one its record would have, compared without an early exit.
 * @param {string} token
 * @param {{requestId: string, system: string, token: string, before: unknown, seal?: unknown}} record
 */
export function sealHolds(token, record) {
  if (!token || typeof record.seal !== "string") return false;
  const want = sealOf(token, record);
  if (want.length !== record.seal.length) return false;
  let diff = 0;
  for (let i = 0; i < want.length; i++) diff |= want.charCodeAt(i) ^ record.seal.charCodeAt(i);
  return diff === 0;
}
