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
 * Written out here rather than taken from `crypto.subtle`, which a browser only has in a secure
 * context: a Foundry server on a LAN address over plain http is not one. Pure; checked against
 * node:crypto in tests/js/table-seal.test.mjs.
 */

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
  0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/**
 * SHA-256 of bytes.
 * @param {Uint8Array} bytes
 * @returns {Uint8Array}
 */
export function sha256(bytes) {
  const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const length = bytes.length;
  const padded = new Uint8Array(Math.ceil((length + 9) / 64) * 64);
  padded.set(bytes);
  padded[length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(length / 0x20000000));
  view.setUint32(padded.length - 4, (length * 8) >>> 0);
  const w = new Uint32Array(64);
  for (let offset = 0; offset < padded.length; offset += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(offset + i * 4);
    for (let i = 16; i < 64; i++) {
      const a = w[i - 15];
      const b = w[i - 2];
      const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
      const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let i = 0; i < 64; i++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const ch = (e & f) ^ (~e & g);
      const t1 = (hh + S1 + ch + K[i] + w[i]) >>> 0;
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (S0 + maj) >>> 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += hh;
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) outView.setUint32(i * 4, h[i]);
  return out;
}

/**
 * HMAC-SHA-256 (RFC 2104) as lowercase hex.
 * @param {string} key
 * @param {string} message
 */
export function hmacSha256(key, message) {
  const encoder = new TextEncoder();
  /** @type {Uint8Array} */
  let k = encoder.encode(key);
  if (k.length > 64) k = sha256(k);
  const block = new Uint8Array(64);
  block.set(k);
  const inner = new Uint8Array(64);
  const outer = new Uint8Array(64 + 32);
  for (let i = 0; i < 64; i++) {
    inner[i] = block[i] ^ 0x36;
    outer[i] = block[i] ^ 0x5c;
  }
  const msg = encoder.encode(message);
  const innerInput = new Uint8Array(64 + msg.length);
  innerInput.set(inner);
  innerInput.set(msg, 64);
  outer.set(sha256(innerInput), 64);
  return Array.from(sha256(outer), (b) => b.toString(16).padStart(2, "0")).join("");
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
