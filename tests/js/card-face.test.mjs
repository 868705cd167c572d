// The card's face says what the referee acts on next (#35): a GURPS critical and what it means, a
// malfunction's rounds as fired, an unjam's outcome; d100 hit locations, a suppression test's pass or
// fail per token (and no Hits column on a test card), an unjam's and a recovery of ammunition's outcome.
// The dice stay in the Rolls.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, it } from "node:test";

import { cardView } from "../../vtt_module/scripts/card.js";
import { formatTemplate } from "../../vtt_module/scripts/i18n/format.js";
import { d100CardExtras, d100CardHits, d100CardRows } from "../../vtt_module/scripts/systems/d100/card.js";
import gurps from "../../vtt_module/scripts/systems/gurps/index.js";

const moduleDir = new URL("../../vtt_module/", import.meta.url);
const read = (path) => JSON.parse(readFileSync(new URL(path, moduleDir), "utf8"));

/** Every module text in one language, flat (`VOLLEY.Gurps.Card.CriticalHit` -> its text). */
function catalogue(lang) {
  /** @type {Record<string, string>} */
  const flat = { ...read(`lang/messages.${lang}.json`) };
  const walk = (node, path) => {
    for (const [key, value] of Object.entries(node)) {
      if (typeof value === "string") flat[`${path}${key}`] = value;
      else walk(value, `${path}${key}.`);
    }
  };
  for (const file of ["", "systems/gurps.", "systems/d100.", "systems/megatraveller."]) walk(read(`lang/${file}${lang}.json`), "");
  return flat;
}

function wordsIn(lang) {
  const flat = catalogue(lang);
  const lookup = (/** @type {string} */ key) => flat[`VOLLEY.Msg.${key}`] ?? null;
  return {
    flat,
    words: {
      text: (/** @type {any} */ value) => (typeof value === "string" ? value : value?.key ?? ""),
      localize: (/** @type {string} */ key) => flat[key] ?? key,
      has: (/** @type {string} */ key) => key in flat,
      format: (/** @type {string} */ key, /** @type {Record<string, unknown>} */ values) => formatTemplate(flat[key] ?? key, values, lang, lookup),
    },
  };
}

const { words } = wordsIn("en");
const ru = wordsIn("ru").words;

/** The card's face as the template shows it: each row's notes and every line under the table. */
function face(card, options, lang = words) {
  const view = cardView(card, { words: lang, ...options });
  return {
    notes: Object.fromEntries(view.rows.map((row) => [row.name, row.notes.map((note) => `${note.tone ? `[${note.tone}] ` : ""}${note.text}`)])),
    extras: view.extras.map((extra) => `${extra.tone ? `[${extra.tone}] ` : ""}${extra.label}: ${extra.value}`),
    hitsShown: view.hitsShown,
  };
}

const gurpsCard = (rows) => ({ title: "Sgt. Hale fires MP5", system: "gurps", rows, weapon: { name: "MP5", loaded: 20, jammed: false }, log: [] });

describe("GURPS on the card's face", () => {
  it("a critical hit says it cannot be dodged and sends the referee to the Critical Hit Table", () => {
    const result = {
      action: "attack",
      weapon: { spent: 5 },
      targets: [{ id: "r", name: "Raider", outcome: "critical hit", shots: 5, effective: 14, attack: { roll: 3, target: 14, success: true, critical: "success" }, scored: 3, hits: 3 }],
    };
    const seen = face(gurpsCard([{ target: "r", name: "Raider", hits: 3 }]), { rowNotes: gurps.cardRows(result), extras: gurps.cardExtras(result) });
    assert.deepEqual(seen.notes.Raider, ["5 shots at skill 14", "[alert] critical hit: no dodge; roll on the Critical Hit Table (B556)"]);
    assert.deepEqual(seen.extras, ["Rounds fired: 5"]);
    const inRussian = face(gurpsCard([{ target: "r", name: "Raider", hits: 3 }]), { rowNotes: gurps.cardRows(result) }, ru);
    assert.match(inRussian.notes.Raider[1], /^\[alert\] критическое попадание: без уклонения/);
  });

  it("a stoppage says the rounds it fired, not the shots planned", () => {
    const result = {
      action: "attack",
      weapon: { spent: 1, malfunction: "stoppage", jammed: true },
      targets: [
        { id: "r", name: "Raider", outcome: "malfunction", shots: 13, effective: 16 },
        { id: "l", name: "Lookout", outcome: "not fired", shots: 0 },
      ],
    };
    const seen = face(gurpsCard([{ target: "r", name: "Raider", hits: 0 }, { target: "l", name: "Lookout", hits: 0 }]), { rowNotes: gurps.cardRows(result), extras: gurps.cardExtras(result) });
    assert.deepEqual(seen.notes.Raider, ["[bad] malfunction: 1 of 13 shots fired"]);
    assert.deepEqual(seen.extras, ["Rounds fired: 1", "Malfunction: stoppage"]);
  });

  it("an unjam says whether the weapon fires again, or what the critical failure made of it", () => {
    const unjam = (check, weapon) => gurps.cardExtras({ action: "unjam", weapon: { spent: 0, ...weapon }, unjam: { check } });
    const said = (extras) => face(gurpsCard([]), { extras }).extras;
    assert.deepEqual(said(unjam({ roll: 9, target: 13, success: true }, { jammed: false })), ["[good] Unjam: cleared, the weapon fires again (rolled 9 against 13)"]);
    assert.deepEqual(said(unjam({ roll: 15, target: 13, success: false }, { jammed: true, malfunction: "stoppage" })), [
      "[bad] Unjam: failed, still jammed (rolled 15 against 13); try again",
      "Malfunction: stoppage",
    ]);
    assert.deepEqual(said(unjam({ roll: 18, target: 13, success: false, critical: "failure" }, { jammed: true, malfunction: "mechanical" }))[0], "[bad] Unjam: critical failure (rolled 18 against 13): now a mechanical failure");
    assert.deepEqual(said(unjam({ roll: 18, target: 13, success: false, critical: "failure" }, { jammed: true, malfunction: "destroyed" }))[0], "[bad] Unjam: critical failure (rolled 18 against 13): the weapon is destroyed");
  });
});

const d100Card = (rows, action = "attack") => ({ title: "Vex", system: "d100", action, rows, weapon: null, log: [] });

describe("d100 on the card's face", () => {
  it("says where the hits struck, in the reader's words", () => {
    const result = { action: "attack", targets: [{ id: "h", name: "Heretic", hits: 2, locations: ["head", "right_arm", "<b>"] }] };
    const card = d100Card([{ target: "h", name: "Heretic", hits: 2 }]);
    assert.deepEqual(face(card, { rowNotes: d100CardRows(result) }).notes.Heretic, ["hit: head, right arm"]);
    assert.deepEqual(face(card, { rowNotes: d100CardRows(result) }, ru).notes.Heretic, ["попадания: голова, правая рука"]);
  });

  it("a suppression test card has no Hits column and says pass or fail per token", () => {
    const result = {
      action: "suppression_test",
      targets: [
        { id: "c", name: "Cultist", suppression: { modifier: -10, passed: false, test: { roll: 90, target: 18, success: false, degrees: 9 } } },
        { id: "h", name: "Heretic", suppression: { modifier: -10, passed: true, test: { roll: 10, target: 25, success: true, degrees: 2 } } },
        { id: "o", name: "Ogryn", suppression: { modifier: -10, passed: true, test: null, reason: { key: "d100.suppression.unharmable", values: {} } } },
      ],
    };
    assert.equal(d100CardHits(result), false);
    assert.equal(d100CardHits({ action: "attack" }), true);
    const seen = face(d100Card(result.targets.map((t) => ({ target: t.id, name: t.name, hits: 0 })), "suppression_test"), { rowNotes: d100CardRows(result), hits: d100CardHits(result) });
    assert.equal(seen.hitsShown, false);
    assert.deepEqual(seen.notes, {
      Cultist: ["[bad] failed the suppression test (−10: rolled 90 against 18, 9 degrees)"],
      Heretic: ["[good] passed the suppression test (−10: rolled 10 against 25)"],
      Ogryn: ["[good] not tested: see the Rolls"],
    });
  });

  it("a recovery says who recovers and who stays suppressed", () => {
    const result = {
      action: "recover",
      targets: [
        { id: "c", name: "Cultist", suppression: { modifier: 0, passed: false, test: { roll: 30, target: 28, success: false, degrees: 0 } } },
        { id: "h", name: "Heretic", suppression: { modifier: 0, passed: true, test: { roll: 12, target: 58, success: true, degrees: 4 } } },
      ],
    };
    const seen = face(d100Card([{ target: "c", name: "Cultist", hits: 0 }, { target: "h", name: "Heretic", hits: 0 }], "recover"), { rowNotes: d100CardRows(result), hits: d100CardHits(result) });
    assert.deepEqual(seen.notes, {
      Cultist: ["[bad] still suppressed (+0: rolled 30 against 28)"],
      Heretic: ["[good] recovers (+0: rolled 12 against 58)"],
    });
    assert.equal(seen.hitsShown, false);
  });

  it("an unjam and a recovery of ammunition say their outcome, not only their dice", () => {
    const said = (result) => face(d100Card([]), { extras: d100CardExtras(result) }).extras;
    assert.deepEqual(said({ action: "unjam", action_cost: "full", test: { roll: 20, target: 40, success: true, degrees: 3 }, weapon: { jammed: false } }), [
      "[good] Unjam: the Jam is cleared, the weapon fires again (rolled 20 against 40)",
      "Action: full action",
    ]);
    assert.equal(said({ action: "unjam", test: { roll: 80, target: 40, success: false, degrees: 4 }, weapon: { jammed: true } })[0], "[bad] Unjam: failed, still jammed (rolled 80 against 40); try again");
    assert.deepEqual(said({ action: "recover_ammo", test: { roll: 20, target: 45, success: true, degrees: 3 }, recovered: 20, weapon: { spoiled: 0 } }), [
      "[good] Recover ammunition: 20 rounds back in the reserve (rolled 20 against 45)",
    ]);
    assert.deepEqual(said({ action: "recover_ammo", test: { roll: 80, target: 45, success: false, degrees: 4 }, recovered: 0, weapon: { spoiled: 20 } }), [
      "[bad] Recover ammunition: failed, 20 rounds stay spoiled (rolled 80 against 45)",
    ]);
  });
});

describe("the card template", () => {
  const Handlebars = createRequire(new URL("package.json", moduleDir))("handlebars");
  const source = readFileSync(new URL("templates/chat-card.hbs", moduleDir), "utf8");
  const hb = Handlebars.create();
  hb.registerHelper("localize", (key) => words.localize(key));
  const template = hb.compile(source);

  it("leaves the Hits column out of a test card, and marks the tones", () => {
    const result = { action: "suppression_test", targets: [{ id: "c", name: "Cultist", suppression: { modifier: 0, passed: false, test: { roll: 90, target: 18, success: false, degrees: 9 } } }] };
    const html = template(cardView(d100Card([{ target: "c", name: "Cultist", hits: 0 }], "suppression_test"), { words, rowNotes: d100CardRows(result), hits: false }));
    assert.doesNotMatch(html, /volley-card__hits|>Hits</);
    assert.match(html, /volley-card__note volley-card__note--bad">failed the suppression test/);
  });
});
