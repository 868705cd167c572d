/**
 * The rules' messages as words: the module's twin of `bridge/i18n.py` (docs/i18n.md).
 *
 * The rules engine emits no sentences, only messages (`{key, values}`); the texts live in
 * `lang/messages.<lang>.json` under `VOLLEY.Msg.<key>`. Foundry's own `game.i18n.format` only fills
 * `{name}`, so the module renders the template itself with the same tiny language the CLI uses: a
 * value, a plural form (`{n|hit|hits}`), a yes/no choice (`{ok?made it|missed}`). Both renderers are
 * held to `tests/i18n/format_vectors.json`, so a card in Foundry and a line of `volley show` never
 * disagree.
 *
 * Pure: the catalogue lookup is passed in (Foundry's translations in the VTT, a plain object in tests).
 */

/** How the module's lang files namespace the rules' messages. */
export const MESSAGE_PREFIX = "VOLLEY.Msg.";

const DECIMAL = /** @type {Record<string, string>} */ ({ en: ".", ru: "," });

/**
 * @typedef {{key: string, values?: Record<string, unknown>}} Message
 * @typedef {(key: string) => string | null} TextLookup the template of a key (without the prefix), or null
 */

/**
 * @param {unknown} value
 * @returns {value is Message}
 */
export function isMessage(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value) && typeof (/** @type {any} */ (value).key) === "string";
}

/**
 * The CLDR plural form of `number`: English one/other, Russian one/few/many; a fraction takes the second.
 * @param {string} language
 * @param {number} number
 * @param {string[]} forms
 */
export function pluralForm(language, number, forms) {
  if (forms.length === 0) return "";
  let index;
  if (number !== Math.trunc(number)) index = 1;
  else if (language === "ru") {
    const n = Math.abs(Math.trunc(number));
    if (n % 10 === 1 && n % 100 !== 11) index = 0;
    else if (n % 10 >= 2 && n % 10 <= 4 && !(n % 100 >= 12 && n % 100 <= 14)) index = 1;
    else index = 2;
  } else index = Math.abs(number) === 1 ? 0 : 1;
  return forms[Math.min(index, forms.length - 1)] ?? "";
}

/**
 * A number in the language's style: integers as they are, others to two decimals with trailing zeros
 * dropped (half away from zero on the binary value, as `toFixed` and the CLI's Decimal both do).
 * @param {number} value
 * @param {string} language
 */
export function formatNumber(value, language) {
  if (Number.isInteger(value)) return String(value);
  let text = value.toFixed(2).replace(/0+$/, "").replace(/\.$/, "");
  if (text === "-0" || text === "") text = "0";
  return text.replace(".", DECIMAL[language] ?? ".");
}

/**
 * Split on `separator` where it is not inside braces.
 * @param {string} text
 * @param {string} separator
 */
function splitTop(text, separator) {
  /** @type {string[]} */
  const parts = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    if (ch === "{") depth += 1;
    else if (ch === "}") depth -= 1;
    else if (ch === separator && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/**
 * @param {string} template
 * @param {number} start index of an opening brace
 */
function closing(template, start) {
  let depth = 0;
  for (let i = start; i < template.length; i += 1) {
    if (template[i] === "{") depth += 1;
    else if (template[i] === "}") {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/**
 * One value as text: numbers in the language's style, lists joined, nested messages rendered.
 * @param {unknown} value
 * @param {string} language
 * @param {TextLookup} [lookup]
 * @returns {string}
 */
export function renderValue(value, language, lookup) {
  if (value === null || value === undefined) return "—";
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") return formatNumber(value, language);
  if (isMessage(value)) return lookup ? renderMessage(value, language, lookup) : value.key;
  if (Array.isArray(value)) return value.map((item) => renderValue(item, language, lookup)).join(", ");
  return String(value);
}

/**
 * @param {string} body what is between the braces
 * @param {Record<string, unknown>} values
 * @param {string} language
 * @param {TextLookup | undefined} lookup
 */
function placeholder(body, values, language, lookup) {
  let nameEnd = body.length;
  for (let i = 0; i < body.length; i += 1) {
    if (body[i] === "|" || body[i] === "?") {
      nameEnd = i;
      break;
    }
  }
  const name = body.slice(0, nameEnd).trim();
  if (!Object.hasOwn(values, name)) return `{${body}}`;
  const value = values[name];
  const rest = body.slice(nameEnd);
  if (rest.startsWith("?")) {
    const branches = splitTop(rest.slice(1), "|");
    const chosen = truthy(value) ? branches[0] : (branches[1] ?? "");
    return formatTemplate(chosen ?? "", values, language, lookup);
  }
  if (rest.startsWith("|")) {
    const forms = splitTop(rest.slice(1), "|");
    const number = typeof value === "number" ? value : 0;
    return formatTemplate(pluralForm(language, number, forms), values, language, lookup);
  }
  return renderValue(value, language, lookup);
}

/**
 * Python's truth, which the CLI uses for `{x?yes|no}`: false, 0, "", null, [] and {} are false.
 * @param {unknown} value
 */
function truthy(value) {
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === "object" && value !== null) return Object.keys(value).length > 0;
  return Boolean(value);
}

/**
 * Fill `template` (docs/i18n.md) with `values` in `language`.
 * @param {string} template
 * @param {Record<string, unknown>} values
 * @param {string} language
 * @param {TextLookup} [lookup] templates of nested messages
 * @returns {string}
 */
export function formatTemplate(template, values, language, lookup) {
  let out = "";
  let index = 0;
  while (index < template.length) {
    const ch = template[index];
    if (ch !== "{") {
      out += ch;
      index += 1;
      continue;
    }
    const end = closing(template, index);
    if (end < 0) {
      out += template.slice(index);
      break;
    }
    out += placeholder(template.slice(index + 1, end), values, language, lookup);
    index = end + 1;
  }
  return out;
}

/**
 * A message in `language`; a key with no text shows the key and its values, so a gap is visible.
 * @param {Message} message
 * @param {string} language
 * @param {TextLookup} lookup
 */
export function renderMessage(message, language, lookup) {
  const values = typeof message.values === "object" && message.values !== null ? message.values : {};
  const template = lookup(message.key);
  if (template === null) {
    const shown = Object.entries(values)
      .map(([name, v]) => `${name}=${renderValue(v, language, lookup)}`)
      .join(", ");
    return shown ? `${message.key}(${shown})` : message.key;
  }
  return formatTemplate(template, values, language, lookup);
}

/**
 * Text for anything a card may hold where words go: an old plain string as it is, a message rendered.
 * @param {unknown} value
 * @param {string} language
 * @param {TextLookup} lookup
 */
export function renderText(value, language, lookup) {
  if (typeof value === "string") return value;
  if (isMessage(value)) return renderMessage(value, language, lookup);
  if (typeof value === "number") return formatNumber(value, language);
  return "";
}

/**
 * A lookup over a flat catalogue (`{"VOLLEY.Msg.key": "text"}`), as the lang files hold it.
 * @param {Record<string, unknown>} flat
 * @returns {TextLookup}
 */
export function flatLookup(flat) {
  return (key) => {
    const text = flat[MESSAGE_PREFIX + key] ?? flat[key];
    return typeof text === "string" ? text : null;
  };
}
