// Translations as Foundry loads them: every file module.json lists for the language, merged, with
// English behind for anything missing. localize/format/has as in Foundry.

import { getProperty, isPlainObject, mergeObject } from "./utils.js";

export async function loadTranslations(lang) {
  const manifest = await (await fetch("/modules/volley/module.json")).json().catch(() => null);
  const entries = manifest?.languages ?? [];
  const load = async (code) => {
    const merged = {};
    const paths = entries.filter((e) => e.lang === code).map((e) => `/modules/volley/${e.path}`);
    // The sandbox's own words (its header, its stand-in sheet) come last.
    paths.push(`/sandbox/lang/${code}.json`);
    for (const path of paths) {
      const response = await fetch(path);
      if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
      mergeObject(merged, expand(await response.json()));
    }
    return merged;
  };
  const english = await load("en");
  const chosen = lang === "en" ? english : await load(lang);
  return { chosen, english };
}

/** Foundry expands flat dotted keys ("VOLLEY.Msg.a.b") into nested objects when it loads a file. */
function expand(json) {
  const out = {};
  for (const [key, value] of Object.entries(json)) {
    const target = key.includes(".") ? key.split(".") : [key];
    let o = out;
    for (const part of target.slice(0, -1)) o = o[part] ??= {};
    const last = target.at(-1);
    o[last] = isPlainObject(value) ? mergeObject(isPlainObject(o[last]) ? o[last] : {}, expand(value)) : value;
  }
  return out;
}

export function makeI18n(lang, { chosen, english }) {
  const find = (key) => {
    const here = getProperty(chosen, key);
    if (typeof here === "string") return here;
    const fallback = getProperty(english, key);
    return typeof fallback === "string" ? fallback : undefined;
  };
  return {
    lang,
    translations: chosen,
    has: (key) => find(key) !== undefined,
    localize: (key) => find(key) ?? key,
    format: (key, data = {}) => (find(key) ?? key).replace(/{([^}]+)}/g, (whole, name) => (name in data ? String(data[name]) : whole)),
  };
}
