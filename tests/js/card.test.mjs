// The chat card: the bridge's structured card through cardView and the real chat-card.hbs template
// (compiled with Handlebars as Foundry does). Everything a player can type must come out escaped.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, it } from "node:test";

import { CARD_LIMITS, cardView, escapeHtml, renderCard } from "../../vtt_module/scripts/card.js";

const moduleDir = new URL("../../vtt_module/", import.meta.url);
// Handlebars is one of the module's dev dependencies (vtt_module/node_modules), not this folder's.
const Handlebars = createRequire(new URL("package.json", moduleDir))("handlebars");
const source = readFileSync(new URL("templates/chat-card.hbs", moduleDir), "utf8");
const en = JSON.parse(readFileSync(new URL("lang/en.json", moduleDir), "utf8"));

function compile() {
  const hb = Handlebars.create();
  // Foundry's {{localize}} helper, reading the module's English strings.
  hb.registerHelper("localize", (key) => key.split(".").reduce((o, k) => o?.[k], en) ?? key);
  return hb.compile(source);
}

// Shaped like bridge/card.py's Card for the GURPS worked example: 5 shots, success by 5, Rcl 2 -> 3 hits.
const CARD = {
  title: "Sgt. Hale fires MP5",
  system: "gurps",
  system_title: "GURPS 4e rapid fire",
  action: "attack",
  attacker: "Sgt. Hale",
  weapon: { name: "MP5", loaded: 25, jammed: false },
  rows: [
    { target: "tok-1", name: "Raider", hits: 3, statuses_add: [], statuses_remove: [] },
    { target: "tok-2", name: "Lookout", hits: 0, statuses_add: ["suppressed"], statuses_remove: [] },
  ],
  log: ["to-hit 3d6 = 9 vs 14: success by 5 -> 3 hits"],
  pending: null,
};

describe("cardView", () => {
  it("keeps the card's numbers and marks rows hit or miss", () => {
    const view = cardView(CARD);
    assert.equal(view.title, "Sgt. Hale fires MP5");
    assert.equal(view.systemTitle, "GURPS 4e rapid fire");
    assert.deepEqual(view.weapon, { name: "MP5", loaded: 25, jammed: false });
    assert.deepEqual(
      view.rows.map((r) => [r.name, r.hits, r.kind, r.statusesAdd]),
      [
        ["Raider", 3, "hit", []],
        ["Lookout", 0, "miss", ["suppressed"]],
      ],
    );
    assert.equal(view.totalHits, 3);
    assert.equal(view.pending, false);
  });

  it("survives a broken card: wrong types become empty, negatives and NaN become 0", () => {
    const view = cardView({ title: { evil: 1 }, rows: [null, { hits: -4, name: 7 }, { hits: NaN }], weapon: "x", log: "no" });
    assert.equal(view.title, "Volley");
    assert.equal(view.weapon, null);
    assert.deepEqual(
      view.rows.map((r) => [r.name, r.hits]),
      [
        ["?", 0],
        ["7", 0],
        ["?", 0],
      ],
    );
    assert.deepEqual(view.log, []);
    assert.deepEqual(cardView(undefined).rows, []);
  });

  it("bounds a flood: long text is cut, rows and log lines are capped", () => {
    const view = cardView({
      title: "x".repeat(5000),
      rows: Array.from({ length: 500 }, (_, i) => ({ target: `t${i}`, hits: 1 })),
      log: Array.from({ length: 500 }, () => "line"),
    });
    assert.equal(view.title.length, CARD_LIMITS.text);
    assert.equal(view.rows.length, CARD_LIMITS.rows);
    assert.equal(view.log.length, CARD_LIMITS.logLines);
  });
});

describe("chat-card.hbs", () => {
  it("never uses triple braces (unescaped output)", () => {
    assert.doesNotMatch(source.replace(/{{!--[\s\S]*?--}}/g, ""), /{{{|{{&/);
  });

  it("shows each target's hits, the rounds left and every log line", () => {
    const html = renderCard(CARD, compile());
    assert.match(html, /<h3 class="volley-card__title">Sgt\. Hale fires MP5<\/h3>/);
    assert.match(html, /data-target="tok-1">\s*<td class="volley-card__name">Raider<\/td>\s*<td class="volley-card__hits">3<\/td>/);
    assert.match(html, /volley-card__row--miss" data-target="tok-2"/);
    assert.match(html, /\+suppressed/);
    assert.match(html, /rounds left <span class="volley-card__loaded">25<\/span>/);
    assert.doesNotMatch(html, /JAMMED/);
    assert.match(html, /<li>to-hit 3d6 &#x3D; 9 vs 14: success by 5 -&gt; 3 hits<\/li>/);
  });

  it("says JAMMED when the weapon jammed", () => {
    const html = renderCard({ ...CARD, weapon: { name: "MP5", loaded: 24, jammed: true } }, compile());
    assert.match(html, /<strong class="volley-card__jammed">JAMMED<\/strong>/);
  });

  it("escapes hostile names, ids, statuses and log lines", () => {
    const evil = '<img src=x onerror="alert(1)">';
    const html = renderCard(
      {
        title: evil,
        system: `"><script>x()</script>`,
        action: "a' onmouseover='b",
        weapon: { name: evil, loaded: 1, jammed: false },
        rows: [{ target: `"><b>`, name: evil, hits: 1, statuses_add: [evil], statuses_remove: [] }],
        log: [evil, "</li><script>alert(2)</script>"],
      },
      compile(),
    );
    assert.doesNotMatch(html, /<img|<script|<b>|onerror="|' onmouseover/);
    assert.match(html, /&lt;img src&#x3D;x onerror&#x3D;&quot;alert\(1\)&quot;&gt;/);
  });
});

describe("escapeHtml", () => {
  it("escapes markup and attribute breakers", () => {
    assert.equal(escapeHtml(`<a href="x" title='y'>&\`=`), "&lt;a href&#61;&quot;x&quot; title&#61;&#39;y&#39;&gt;&amp;&#96;&#61;");
    assert.equal(escapeHtml(null), "");
    assert.equal(escapeHtml(42), "42");
  });
});
