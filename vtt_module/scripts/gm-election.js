/**
 * Which browser holds the bridge connection: Foundry's own choice of referee, unless that referee's
 * browser has no access token and another connected GM's has.
 *
 * Foundry names one active GM for work only one client should do (`game.users.activeGM`: a full GM
 * before an assistant). The bridge's access token, though, is a per-browser setting, so the GM Foundry
 * picks may not have it. Each GM's browser therefore says in its user flags whether it has a token
 * (`flags.volley.bridgeToken`), and every client computes the same holder from the same user list:
 * Foundry's GM first, then the other active GMs (full GMs before assistants, then by id), the first
 * that has not said "no token" wins. When nobody has a token, Foundry's GM is the holder, and is told.
 *
 * Pure: the caller passes the users and Foundry's pick in; the election is re-run whenever a user
 * connects, leaves, or changes that flag.
 */

/** The user flag a GM's browser sets to say whether it holds a bridge access token. */
export const TOKEN_FLAG = "bridgeToken";

/** Foundry's CONST.USER_ROLES.GAMEMASTER. */
const GAMEMASTER = 4;

/**
 * @typedef {{id: string, active: boolean, isGM: boolean, role?: number,
 *   flags?: {volley?: {bridgeToken?: unknown}} | Record<string, any>}} UserLike
 */

/** @param {UserLike} user */
function saysNoToken(user) {
  return /** @type {any} */ (user.flags)?.volley?.[TOKEN_FLAG] === false;
}

/**
 * The GMs in the order they are asked to hold the bridge.
 * @param {Iterable<UserLike>} users
 * @param {string | null | undefined} activeGmId Foundry's `game.users.activeGM?.id`
 */
export function holderOrder(users, activeGmId) {
  const gms = [...users].filter((user) => user.active && user.isGM);
  const rank = (/** @type {UserLike} */ user) => (user.id === activeGmId ? 0 : (user.role ?? GAMEMASTER) >= GAMEMASTER ? 1 : 2);
  return gms.sort((a, b) => rank(a) - rank(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * @param {Iterable<UserLike>} users
 * @param {string | null | undefined} activeGmId
 * @returns {UserLike | null} the GM whose browser should hold the bridge, or null when no GM is connected
 */
export function electBridgeHolder(users, activeGmId) {
  const order = holderOrder(users, activeGmId);
  return order.find((user) => !saysNoToken(user)) ?? order[0] ?? null;
}

/**
 * @param {Iterable<UserLike>} users
 * @param {string | null | undefined} activeGmId
 * @param {string} userId
 */
export function isBridgeHolder(users, activeGmId, userId) {
  return electBridgeHolder(users, activeGmId)?.id === userId;
}

/**
 * One GM may have the table open in several browsers (a second screen, an old tab), and Foundry's
 * `activeGM` names a user, not a browser. So the holder is chosen among browsers: every GM browser says
 * over the module socket that it is there (presence.js), and every client runs this on the same list.
 *
 * @typedef {{browser: string, user: string, token: boolean, since: number}} BrowserLike one live browser of
 *   a GM: its random id for this page load, its user (the socket's sender id, never a claim), whether it
 *   has an access token, and when it started (ms, its own clock; only compared within one user)
 */

/**
 * The browser that holds the bridge: the users in `holderOrder`, each user's browsers oldest first
 * (an old tab keeps the bridge when a second one opens; it says so); the first browser with a token
 * wins, else the first browser at all (it is told it has no token).
 * @param {Iterable<BrowserLike>} browsers
 * @param {Iterable<UserLike>} users
 * @param {string | null | undefined} activeGmId
 * @returns {BrowserLike | null}
 */
export function electHolderBrowser(browsers, users, activeGmId) {
  const order = holderOrder(users, activeGmId).map((user) => user.id);
  const rank = (/** @type {BrowserLike} */ b) => order.indexOf(b.user);
  const live = [...browsers].filter((b) => rank(b) >= 0);
  live.sort((a, b) => rank(a) - rank(b) || a.since - b.since || (a.browser < b.browser ? -1 : a.browser > b.browser ? 1 : 0));
  return live.find((b) => b.token) ?? live[0] ?? null;
}
