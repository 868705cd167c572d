// A small HTML reader for the node tests: enough of the DOM to run adapters/sheet-rows.js's findRows over
// the systems' rendered sheet templates (tests/js/fixtures/sheets/*.html), without a browser. Elements
// with attributes, nesting, void elements and comments; selectors with tags, #ids, .classes, [attr],
// [attr=v], [attr^=v], descendant and child combinators, and comma lists. Text is not kept.

const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);

export class Element {
  /** @param {string} tagName @param {Map<string, string>} attributes @param {Element | null} parent */
  constructor(tagName, attributes, parent) {
    this.tagName = tagName.toUpperCase();
    this.attributes = attributes;
    this.parentElement = parent;
    /** @type {Element[]} */
    this.children = [];
  }

  getAttribute(name) {
    return this.attributes.has(name) ? /** @type {string} */ (this.attributes.get(name)) : null;
  }

  get classList() {
    return new Set((this.getAttribute("class") ?? "").split(/\s+/).filter(Boolean));
  }

  /** Every element below this one, in document order. */
  *descendants() {
    for (const child of this.children) {
      yield child;
      yield* child.descendants();
    }
  }

  querySelectorAll(selector) {
    const chains = parseSelectorList(selector);
    return [...this.descendants()].filter((element) => chains.some((chain) => matchesChain(element, chain)));
  }

  querySelector(selector) {
    return this.querySelectorAll(selector)[0] ?? null;
  }

  matches(selector) {
    return parseSelectorList(selector).some((chain) => matchesChain(this, chain));
  }

  closest(selector) {
    for (let element = /** @type {Element | null} */ (this); element; element = element.parentElement) if (element.matches(selector)) return element;
    return null;
  }
}

/**
 * The document fragment an HTML text makes: a root element holding its top-level elements.
 * @param {string} html
 */
export function parseHtml(html) {
  const root = new Element("#root", new Map(), null);
  let current = root;
  // A start tag's inside is read loosely, as browsers do: a template may leave a value unquoted
  // (GGA's `data-name={{localize ...}}`), stray words and slashes become attributes or are dropped.
  const tokens = /<!--[\s\S]*?-->|<\/\s*([a-zA-Z][\w-]*)\s*>|<([a-zA-Z][\w-]*)((?:[^>"']|"[^"]*"|'[^']*')*?)(\/?)>/g;
  for (const match of html.matchAll(tokens)) {
    if (match[0].startsWith("<!--")) continue;
    if (match[1]) {
      const name = match[1].toUpperCase();
      for (let element = current; element !== root; element = /** @type {Element} */ (element.parentElement)) {
        if (element.tagName === name) {
          current = /** @type {Element} */ (element.parentElement);
          break;
        }
      }
      continue;
    }
    const attributes = new Map();
    for (const a of (match[3] ?? "").matchAll(/([^\s=/>"']+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g)) {
      if (!attributes.has(a[1])) attributes.set(a[1], decode(a[2] ?? a[3] ?? a[4] ?? "")); // the first wins, as in a browser
    }
    const element = new Element(match[2], attributes, current);
    current.children.push(element);
    if (!VOID.has(match[2].toLowerCase()) && match[4] !== "/") current = element;
  }
  return root;
}

/** @param {string} text */
function decode(text) {
  return text.replace(/&quot;/g, '"').replace(/&#x27;|&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

/**
 * "a b > c, d" -> [[{compound a}, " ", {compound b}, ">", {compound c}], [...d]]
 * @param {string} list
 */
function parseSelectorList(list) {
  return list.split(",").map((selector) => {
    const parts = [];
    const tokens = selector.trim().match(/>|[^\s>]+(?:\[[^\]]*\])*[^\s>]*/g) ?? [];
    let combinator = " ";
    for (const token of tokens) {
      if (token === ">") {
        combinator = ">";
        continue;
      }
      if (parts.length > 0) parts.push(combinator);
      parts.push(parseCompound(token));
      combinator = " ";
    }
    return parts;
  });
}

/** @param {string} text */
function parseCompound(text) {
  const compound = { tag: "", id: "", classes: /** @type {string[]} */ ([]), attributes: /** @type {{name: string, op: string, value: string}[]} */ ([]) };
  for (const part of text.match(/\[[^\]]*\]|[#.]?[^#.[]+/g) ?? []) {
    if (part.startsWith("[")) {
      const a = /^\[\s*([^\s=^\]]+)\s*(?:(\^?=)\s*(?:"([^"]*)"|'([^']*)'|([^\]\s]*)))?\s*\]$/.exec(part);
      if (!a) throw new Error(`selector not understood: ${part}`);
      compound.attributes.push({ name: a[1], op: a[2] ?? "", value: a[3] ?? a[4] ?? a[5] ?? "" });
    } else if (part.startsWith("#")) compound.id = part.slice(1);
    else if (part.startsWith(".")) compound.classes.push(part.slice(1));
    else compound.tag = part.toUpperCase();
  }
  return compound;
}

function matchesCompound(element, compound) {
  if (compound.tag && compound.tag !== "*" && element.tagName !== compound.tag) return false;
  if (compound.id && element.getAttribute("id") !== compound.id) return false;
  const classes = element.classList;
  if (!compound.classes.every((name) => classes.has(name))) return false;
  return compound.attributes.every(({ name, op, value }) => {
    const actual = element.getAttribute(name);
    if (actual === null) return false;
    if (op === "=") return actual === value;
    if (op === "^=") return actual.startsWith(value);
    return true;
  });
}

/** Whether `element` matches the chain, read right to left over its ancestors (as the DOM does, the
 * ancestors may lie outside the element a query started from). */
function matchesChain(element, chain) {
  const last = chain.length - 1;
  if (!matchesCompound(element, chain[last])) return false;
  let at = element;
  for (let i = last - 2; i >= 0; i -= 2) {
    const combinator = chain[i + 1];
    const compound = chain[i];
    if (combinator === ">") {
      at = at.parentElement;
      if (!at || at.tagName === "#ROOT" || !matchesCompound(at, compound)) return false;
    } else {
      let found = null;
      for (let up = at.parentElement; up && up.tagName !== "#ROOT"; up = up.parentElement) {
        if (matchesCompound(up, compound)) {
          found = up;
          break;
        }
      }
      if (!found) return false;
      at = found;
    }
  }
  return true;
}
