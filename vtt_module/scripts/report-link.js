/**
 * The referee's "Session report" link: fetch the running session's report page from the bridge and
 * show it in a new tab.
 *
 * - The bridge serves it at `GET /report/current` on the same host and port as its websocket.
 * - The access token goes in the `Authorization: Bearer` header, never in the URL, where browser
 *   history, proxies and logs would keep it. That is why this is a fetch and not a plain link.
 * - The page is self-contained (inline styles and SVG, no scripts), so it is shown from a Blob URL.
 *   The tab is opened at once, inside the click, so popup blockers let it through, and is pointed at
 *   the page when it arrives; if the fetch fails, the empty tab is closed again.
 *
 * `fetch`, `open`, `URL` and the timers are injected so node:test can drive it with fakes; nothing
 * here touches Foundry.
 */

export const REPORT_PATH = "/report/current";
/** How long the Blob URL outlives the tab's navigation to it (the tab keeps its copy of the page). */
export const REVOKE_AFTER_MS = 60_000;

/**
 * @typedef {"no-token" | "bad-address" | "unauthorized" | "unavailable" | "http" | "network" | "popup-blocked"} ReportFailure
 * @typedef {{ok: boolean, status: number, blob(): Promise<Blob>, text(): Promise<string>}} ResponseLike
 * @typedef {(url: string, init: {method: string, headers: Record<string, string>, cache: "no-store",
 *   credentials: "omit"}) => Promise<ResponseLike>} FetchLike
 * @typedef {{location: {href: string} | Location, close(): void, closed?: boolean}} WindowLike
 * @typedef {(url?: string, target?: string) => WindowLike | null} OpenLike
 * @typedef {{createObjectURL(blob: Blob): string, revokeObjectURL(url: string): void}} ObjectUrls
 * @typedef {{setTimeout: (fn: () => void, ms: number) => unknown}} Timers
 */

/** Why the report could not be shown, as a `reason` the module can put into words. */
export class ReportError extends Error {
  /**
   * @param {ReportFailure} reason
   * @param {string} message
   * @param {number} [status] the HTTP status, when the bridge answered
   */
  constructor(reason, message, status) {
    super(message);
    this.name = "ReportError";
    this.reason = reason;
    this.status = status;
  }
}

/**
 * The report's address for the bridge's websocket address: `ws://127.0.0.1:8765/ws` becomes
 * `http://127.0.0.1:8765/report/current?lang=ru` (`wss:` becomes `https:`).
 * @param {string} bridgeUrl the websocket URL from the module's settings
 * @param {string} [lang] the page's language (Foundry's `game.i18n.lang`)
 * @returns {string}
 */
export function reportUrl(bridgeUrl, lang) {
  let url;
  try {
    url = new URL(bridgeUrl);
  } catch {
    throw new ReportError("bad-address", `not a bridge address: ${bridgeUrl}`);
  }
  const schemes = /** @type {Record<string, string>} */ ({ "ws:": "http:", "wss:": "https:", "http:": "http:", "https:": "https:" });
  const scheme = schemes[url.protocol];
  if (!scheme) throw new ReportError("bad-address", `not a bridge address: ${bridgeUrl}`);
  const page = new URL(REPORT_PATH, `${scheme}//${url.host}`);
  if (lang) page.searchParams.set("lang", lang);
  return page.toString();
}

/**
 * Fetch the current session's report page.
 * @param {{url: string, token: string, fetch: FetchLike}} options
 * @returns {Promise<Blob>} the page, as `text/html`
 */
export async function fetchReport({ url, token, fetch }) {
  if (!token) throw new ReportError("no-token", "no bridge access token in the module's settings");
  /** @type {ResponseLike} */
  let response;
  try {
    response = await fetch(url, {
      method: "GET",
      headers: { Authorization: `Bearer ${token}` },
      cache: "no-store",
      credentials: "omit",
    });
  } catch (error) {
    throw new ReportError("network", `the bridge did not answer: ${error instanceof Error ? error.message : error}`);
  }
  if (response.status === 401) throw new ReportError("unauthorized", "the bridge refused the access token", 401);
  if (response.status === 503) throw new ReportError("unavailable", (await response.text()).trim(), 503);
  if (!response.ok) throw new ReportError("http", `the bridge answered ${response.status}`, response.status);
  const page = await response.blob();
  return page.type.startsWith("text/html") ? page : new Blob([page], { type: "text/html;charset=utf-8" });
}

/**
 * Open the report in a new tab. Call it straight from the click handler.
 * @param {{bridgeUrl: string, token: string, lang?: string, fetch: FetchLike, open: OpenLike,
 *   urls: ObjectUrls, timers: Timers}} options
 * @returns {Promise<string>} the Blob URL the tab shows
 */
export async function openSessionReport({ bridgeUrl, token, lang, fetch, open, urls, timers }) {
  const tab = open("", "_blank");
  let page;
  try {
    page = await fetchReport({ url: reportUrl(bridgeUrl, lang), token, fetch });
  } catch (error) {
    tab?.close();
    throw error;
  }
  const address = urls.createObjectURL(page);
  timers.setTimeout(() => urls.revokeObjectURL(address), REVOKE_AFTER_MS);
  if (tab && !tab.closed) {
    tab.location.href = address;
    return address;
  }
  if (!open(address, "_blank")) {
    throw new ReportError("popup-blocked", "the browser blocked the report's tab; allow pop-ups for this page");
  }
  return address;
}
