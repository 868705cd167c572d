// The chat card: the bridge's structured card through cardView and the real chat-card.hbs template
// (compiled with Handlebars as Foundry does). Everything a player can type must come out escaped.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, it } from "node:test";

import { CARD_LIMITS, cardView, escapeHtml, renderCard } from "../../vtt_module/scripts/card.js";
import { flatLookup, renderText } from "../../vtt_module/scripts/i18n/format.js";

const moduleDir = new URL("../../vtt_module/", import.meta.url);
// Handlebars is one of the module's dev dependencies (vtt_module/node_modules), not this folder's.
const Handlebars = createRequire(new URL("package.json", moduleDir))("handlebars");
const source = readFileSync(new URL("templates/chat-card.hbs", moduleDir), "utf8");
const en = JSON.parse(readFileSync(new URL("lang/en.json", moduleDir), "utf8"));
const gurpsEn = JSON.parse(readFileSync(new URL("lang/systems/gurps.en.json", moduleDir), "utf8"));
const english = (key) => key.split(".").reduce((o, k) => o?.[k], en) ?? key.split(".").reduce((o, k) => o?.[k], gurpsEn);

function compile() {
  const hb = Handlebars.create();
  // Foundry's {{localize}} helper, reading the module's English strings.
  hb.registerHelper("localize", (key) => english(key) ?? key);
  return hb.compile(source);
}

/** How the module's glue gives the card its words: module keys localised, rules messages rendered. */
const catalogue = { "VOLLEY.Msg.gurps.title": "{who} fires {weapon}", "VOLLEY.Msg.gurps.roll": "to-hit {roll}: {hits} {hits|hit|hits}" };
const words = {
  text: (value) => renderText(value, "en", flatLookup(catalogue)),
  localize: (key) => english(key) ?? key,
  has: (key) => english(key) !== undefined,
};

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
    assert.deepEqual(view.weapon, { name: "MP5", loaded: 25, capacity: null, jammed: false });
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

describe("cardView in the reader's words", () => {
  it("renders messages (protocol v2) and plain strings (before it) alike", () => {
    const card = {
      ...CARD,
      title: { key: "gurps.title", values: { who: "Sgt. Hale", weapon: "MP5" } },
      log: [{ key: "gurps.roll", values: { roll: 9, hits: 1 } }, "an old plain line", { key: "gurps.unknown", values: { n: 2 } }],
    };
    const view = cardView(card, { words });
    assert.equal(view.title, "Sgt. Hale fires MP5");
    assert.deepEqual(view.log, ["to-hit 9: 1 hit", "an old plain line", "gurps.unknown(n=2)"]);
  });

  it("names the system and the statuses in the module's words, an unknown status by its id", () => {
    const view = cardView({ ...CARD, rows: [{ target: "t", hits: 0, statuses_add: ["suppressed", "on_fire"] }] }, { words });
    assert.equal(view.systemTitle, "GURPS 4e");
    assert.deepEqual(view.rows[0].statusesAdd, ["Suppressed", "on_fire"]);
  });

  it("adds the system's extra lines, the capacity, and whether the card was undone", () => {
    const view = cardView(CARD, {
      words,
      extras: [
        { label: "VOLLEY.Card.RoundsFired", value: 5 },
        { label: "VOLLEY.Gurps.Card.Malfunction", value: { key: "VOLLEY.Faults.stoppage" } },
      ],
      capacity: 30,
      undone: true,
    });
    assert.deepEqual(view.extras, [
      { label: "Rounds fired", value: "5", tone: "" },
      { label: "Malfunction", value: "stoppage", tone: "" },
    ]);
    assert.equal(view.weapon.capacity, 30);
    assert.equal(view.undone, true);
  });
});

describe("chat-card.hbs", () => {
  it("never uses triple braces (unescaped output)", () => {
    assert.doesNotMatch(source.replace(/{{!--[\s\S]*?--}}/g, ""), /{{{|{{&/);
  });

  it("shows each target's hits, the rounds left and every log line", () => {
    const html = renderCard(CARD, compile());
    assert.match(html, /<h3 class="volley-card__title">Sgt\. Hale fires MP5<\/h3>/);
    assert.match(html, /data-target="tok-1">\s*<td class="volley-card__name">Raider<\/td>\s*<td class="volley-card__hits"><span class="volley-card__count">3<\/span><\/td>/);
    assert.match(html, /volley-card__row--miss" data-target="tok-2"/);
    assert.match(html, /\+suppressed/);
    assert.match(html, /rounds left <span class="volley-card__loaded">25<\/span>/);
    assert.doesNotMatch(html, /JAMMED/);
    assert.match(html, /<li>to-hit 3d6 &#x3D; 9 vs 14: success by 5 -&gt; 3 hits<\/li>/);
  });

  it("says JAMMED when the weapon jammed, and Undone once undone", () => {
    const html = renderCard({ ...CARD, weapon: { name: "MP5", loaded: 24, jammed: true } }, compile());
    assert.match(html, /<strong class="volley-card__jammed">JAMMED<\/strong>/);
    assert.doesNotMatch(html, /volley-card__undone/);
    const undone = renderCard(CARD, compile(), { undone: true, capacity: 30 });
    assert.match(undone, /class="volley-card volley-card--undone"/);
    assert.match(undone, /<p class="volley-card__undone" tabindex="-1">Undone by the referee/);
    assert.match(undone, /<span class="volley-card__capacity"> \/ 30<\/span>/);
  });

  it("a pending card waits, then says how its attack ended and links the result", () => {
    const pending = { ...CARD, pending: { rounds: 20, lost: 4, clusters: [3, 6, 6, 1] } };
    const waiting = renderCard(pending, compile());
    assert.match(waiting, /<p class="volley-card__pending">Waiting for the allocation: no round is spent and nobody is hit until the pool is split\.<\/p>/);
    assert.doesNotMatch(waiting, /volley-card__targets/, "no hits yet: no table of hits");
    assert.equal(cardView(pending).aimedAt, "Raider, Lookout");
    const split = renderCard(pending, compile(), { settled: { kind: "allocated", text: "Split by Referee: Raider 2 hits.", messageId: "msg42" } });
    assert.doesNotMatch(split, /volley-card__pending/);
    assert.match(split, /<p class="volley-card__settled volley-card__settled--allocated">Split by Referee: Raider 2 hits\.<\/p>/);
    assert.match(split, /<a href="#" data-volley-goto="msg42">Show the result<\/a>/);
    const gone = cardView(pending, { settled: { kind: "expired", text: "gone", messageId: '"><script>' } });
    assert.deepEqual(gone.settled, { kind: "expired", text: "gone", messageId: null }, "a message id that is not an id is dropped");
  });

  it("a pending card shows no rounds left (nothing is spent until the split), settled or not", () => {
    const pending = { ...CARD, pending: { rounds: 20, lost: 4, clusters: [3, 6, 6, 1] } };
    assert.doesNotMatch(renderCard(pending, compile(), { capacity: 30 }), /volley-card__weapon|volley-card__loaded/);
    const settled = renderCard(pending, compile(), { capacity: 30, settled: { kind: "allocated", text: "Split.", messageId: "m1" } });
    assert.doesNotMatch(settled, /volley-card__loaded/);
    assert.match(settled, /data-volley-goto="m1"/, "once settled it points to its result");
  });

  it("puts a system's notes on each row's face, marks bystanders, and has no empty Effects column", () => {
    const format = (key, values) => `${key.split(".").at(-1)}(${Object.values(values).join(",")})`;
    const bare = { ...CARD, rows: CARD.rows.map((row) => ({ ...row, statuses_add: [] })) };
    const plain = renderCard(bare, compile(), { words });
    assert.doesNotMatch(plain, /Effects|volley-card__effects/, "no notes, no statuses: no Effects column");
    const html = renderCard(bare, compile(), {
      words: { ...words, format },
      rowNotes: [
        { target: "tok-1", notes: [{ key: "VOLLEY.Gurps.Card.ShotsAt", values: { n: 5, skill: 16 } }, { key: "VOLLEY.Gurps.Card.Dodged", values: { n: 1, of: 4 } }] },
        { target: "tok-2", notes: [], role: "VOLLEY.Card.Hits" },
      ],
    });
    assert.match(html, /<th scope="col">Effects<\/th>/);
    assert.match(html, /<span class="volley-card__note">ShotsAt\(5,16\)<\/span> <span class="volley-card__note">Dodged\(1,4\)<\/span>/);
    assert.match(html, /volley-card__row--miss volley-card__row--bystander" data-target="tok-2">\s*<td class="volley-card__name">Lookout <span class="volley-card__role">Hits<\/span>/);
  });

  it("heads the log Rolls only when a die was rolled", () => {
    assert.match(renderCard(CARD, compile()), /<summary>Rolls<\/summary>/);
    assert.match(renderCard(CARD, compile(), { rolled: false }), /<summary>How it was worked out<\/summary>/);
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
        log: [evil, "</li><script>alert(2)</script>", { key: "gurps.title", values: { who: evil, weapon: evil } }],
      },
      compile(),
      { words, extras: [{ label: "VOLLEY.Card.RoundsFired", value: evil }] },
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
