/**
 * The module's settings page shows the bridge's version and the module's side by side, and one clear
 * line when they differ (the module is always released with the bridge, so a difference means one of
 * them was upgraded and the other was not). The bridge's version is known in the browser holding the
 * bridge (from its `welcome`); elsewhere the line says where to look. Pure apart from the page's DOM:
 * the glue (volley.js) hands in the versions and the translator.
 */

import { isHtmlElement } from "./foundry/window-dom.js";

/**
 * -1, 0 or 1 as version `a` is older than, the same as or newer than `b` (dotted numbers; anything
 * else compares as text).
 * @param {string} a
 * @param {string} b
 */
export function compareVersions(a, b) {
  const pa = a.split(/[.+-]/);
  const pb = b.split(/[.+-]/);
  for (let i = 0; i < Math.max(pa.length, pb.length); i += 1) {
    const x = pa[i] ?? "0";
    const y = pb[i] ?? "0";
    const nx = Number(x);
    const ny = Number(y);
    const order = Number.isFinite(nx) && Number.isFinite(ny) ? Math.sign(nx - ny) : x < y ? -1 : x > y ? 1 : 0;
    if (order !== 0) return order;
  }
  return 0;
}

/**
 * The lines to show: both versions, and what to do when they differ (i18n keys and values).
 * @param {string} moduleVersion
 * @param {string | null} bridgeVersion null when this browser does not hold the bridge
 * @returns {{key: string, values: Record<string, string>, warn?: boolean}[]}
 */
export function versionLines(moduleVersion, bridgeVersion) {
  const versions = { module: moduleVersion, bridge: bridgeVersion ?? "—" };
  /** @type {{key: string, values: Record<string, string>, warn?: boolean}[]} */
  const lines = [{ key: "VOLLEY.Versions.Both", values: versions }];
  if (bridgeVersion === null) lines.push({ key: "VOLLEY.Versions.Unknown", values: versions });
  else if (compareVersions(moduleVersion, bridgeVersion) < 0) lines.push({ key: "VOLLEY.Versions.ModuleOlder", values: versions, warn: true });
  else if (compareVersions(moduleVersion, bridgeVersion) > 0) lines.push({ key: "VOLLEY.Versions.BridgeOlder", values: versions, warn: true });
  return lines;
}

/**
 * Add the lines to the settings page, above the bridge's address (`renderSettingsConfig`).
 * @param {unknown} html the page's element
 * @param {{moduleVersion: string, bridgeVersion: string | null, t: (key: string, values: Record<string, string>) => string}} how
 */
export function showVersions(html, { moduleVersion, bridgeVersion, t }) {
  const root = isHtmlElement(html) ? html : /** @type {any} */ (html)?.[0];
  if (!isHtmlElement(root)) return;
  const field = root.querySelector('[name="volley.bridgeAddress"], [name="volley.bridgeUrl"]');
  const group = field?.closest(".form-group");
  if (!group?.parentElement) return;
  root.querySelector(".volley-versions")?.remove();
  const doc = root.ownerDocument; // the settings window's own (it may be popped out on v14)
  const box = doc.createElement("div");
  box.className = "form-group volley-versions";
  for (const line of versionLines(moduleVersion, bridgeVersion)) {
    const p = doc.createElement("p");
    p.className = line.warn ? "volley-versions__differ notes" : "volley-versions__both notes";
    if (line.warn) p.setAttribute("role", "alert");
    p.textContent = t(line.key, line.values);
    box.append(p);
  }
  group.parentElement.insertBefore(box, group);
}
