// From the attack dialog's form to a GURPS rapid-fire request, and the protocol's message builders.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";

import {
  attackFormView,
  DEFAULT_ARMOURY,
  DEFAULT_SKILL,
  FormError,
  gurpsAttackRequest,
  gurpsReloadRequest,
  gurpsUnjamRequest,
  shooterState,
} from "../../vtt_module/scripts/attack-request.js";
import * as protocol from "../../vtt_module/scripts/protocol.js";

const MP5 = { skill: 14, weapon: { name: "MP5", rof: 13, rcl: 2, loaded: 30, capacity: 30, malf: 17, jammed: false } };
const shooter = { id: "tok-hale", name: "Sgt. Hale" };
const raiders = [
  { id: "tok-r1", name: "Raider" },
  { id: "tok-r2", name: "Lookout" },
];

/** The form as the dialog renders it, with some fields changed. */
function formOf(view, changes = {}) {
  const values = {
    skill: String(view.shooter.skill),
    "weapon.name": view.shooter.weapon.name,
    "weapon.rof": String(view.shooter.weapon.rof),
    "weapon.rcl": String(view.shooter.weapon.rcl),
    "weapon.loaded": String(view.shooter.weapon.loaded),
    "weapon.capacity": String(view.shooter.weapon.capacity),
    "weapon.malf": String(view.shooter.weapon.malf),
  };
  view.targets.forEach((t, i) => {
    values[`targets.${i}.shots`] = String(t.shots);
    values[`targets.${i}.modifier`] = String(t.modifier);
    values[`targets.${i}.dodge`] = t.dodge === null ? "" : String(t.dodge);
  });
  return { ...values, ...changes };
}

describe("the attack form", () => {
  it("opens with the token's weapon and every shot the RoF allows at the first target", () => {
    const view = attackFormView(shooter, MP5, raiders);
    assert.equal(view.shooter.skill, 14);
    assert.equal(view.shooter.weapon.rof, 13);
    assert.deepEqual(
      view.targets.map((t) => [t.id, t.shots]),
      [
        ["tok-r1", 13],
        ["tok-r2", 0],
      ],
    );
  });

  it("never offers more shots than the magazine holds", () => {
    const view = attackFormView(shooter, { ...MP5, weapon: { ...MP5.weapon, loaded: 4 } }, raiders);
    assert.equal(view.targets[0].shots, 4);
  });

  it("fills in defaults for a token nobody has set up", () => {
    const state = shooterState(undefined);
    assert.equal(state.skill, DEFAULT_SKILL);
    assert.equal(state.armoury, DEFAULT_ARMOURY);
    assert.deepEqual(state.weapon, { name: "", rof: 1, rcl: 2, loaded: 0, capacity: 0, malf: 17, jammed: false });
    assert.equal(shooterState({ weapon: { rof: "3x9" } }).weapon.rof, "3x9");
  });

  it("builds the request the rules engine expects: total shots, per-target shots, dodge only when given", () => {
    const view = attackFormView(shooter, MP5, raiders);
    const request = gurpsAttackRequest(
      view,
      formOf(view, { "targets.0.shots": "8", "targets.0.modifier": "-3", "targets.1.shots": "5", "targets.1.dodge": "9" }),
    );
    assert.deepEqual(request, {
      system: "gurps",
      action: "attack",
      attacker: { id: "tok-hale", name: "Sgt. Hale", skill: 14 },
      weapon: { name: "MP5", rof: 13, rcl: 2, loaded: 30, malf: 17, jammed: false, capacity: 30 },
      shots: 13,
      targets: [
        { id: "tok-r1", name: "Raider", modifier: -3, shots: 8 },
        { id: "tok-r2", name: "Lookout", modifier: 0, shots: 5, dodge: 9 },
      ],
    });
  });

  it("carries the jam the token already has, and a shotgun's NxM RoF as text", () => {
    const jammed = { ...MP5, weapon: { ...MP5.weapon, rof: "3x9", jammed: true, malfunction: "stoppage" } };
    const view = attackFormView(shooter, jammed, raiders.slice(0, 1));
    const request = gurpsAttackRequest(view, formOf(view, { "weapon.rof": "3X9" }));
    assert.equal(request.weapon.rof, "3x9");
    assert.equal(request.weapon.jammed, true);
    assert.equal(request.weapon.malfunction, "stoppage");
  });

  it("builds a reload for the same weapon, which needs a capacity", () => {
    const view = attackFormView(shooter, { ...MP5, weapon: { ...MP5.weapon, loaded: 4 } }, raiders);
    assert.deepEqual(gurpsReloadRequest(view, formOf(view)), {
      system: "gurps",
      action: "reload",
      attacker: { id: "tok-hale", name: "Sgt. Hale" },
      weapon: { name: "MP5", loaded: 4, capacity: 30, malf: 17, jammed: false },
    });
    assert.throws(() => gurpsReloadRequest(view, formOf(view, { "weapon.capacity": "" })), {
      name: "FormError",
      field: "weapon.capacity",
      message: "weapon.capacity: required to reload",
    });
  });

  it("builds an attempt to clear the jam with Armoury, or IQ-based weapon skill", () => {
    const jammed = { ...MP5, armoury: 11, weapon: { ...MP5.weapon, loaded: 29, jammed: true, malfunction: "stoppage" } };
    const view = attackFormView(shooter, jammed, raiders.slice(0, 1));
    assert.equal(view.shooter.armoury, 11);
    const form = formOf(view, { "unjam.using": "armoury", "unjam.skill": "11", "unjam.modifier": "-1" });
    assert.deepEqual(gurpsUnjamRequest(view, form), {
      system: "gurps",
      action: "unjam",
      attacker: { id: "tok-hale", name: "Sgt. Hale" },
      weapon: { name: "MP5", loaded: 29, malf: 17, jammed: true, capacity: 30, malfunction: "stoppage" },
      skill: 11,
      using: "armoury",
      modifier: -1,
    });
    assert.equal(gurpsUnjamRequest(view, { ...form, "unjam.using": "weapon" }).using, "weapon");
    assert.throws(() => gurpsUnjamRequest(view, { ...form, "unjam.using": "luck" }), { field: "unjam.using" });
    assert.throws(() => gurpsUnjamRequest(view, { ...form, "unjam.skill": "" }), { field: "unjam.skill" });
  });

  it("names the field that is wrong", () => {
    const view = attackFormView(shooter, MP5, raiders);
    const wrong = (changes) => {
      try {
        gurpsAttackRequest(view, formOf(view, changes));
      } catch (error) {
        assert.ok(error instanceof FormError);
        return [error.field, error.message];
      }
      assert.fail("no FormError");
    };
    assert.deepEqual(wrong({ skill: "" }), ["skill", "skill: required"]);
    assert.deepEqual(wrong({ "targets.0.shots": "2.5" }), ["targets.0.shots", "targets.0.shots: not a whole number: 2.5"]);
    assert.deepEqual(wrong({ "weapon.rcl": "0" }), ["weapon.rcl", "weapon.rcl: must be at least 1"]);
    assert.deepEqual(wrong({ "weapon.rof": "fast" }), ["weapon.rof", "weapon.rof: expected a number or NxM, not fast"]);
    assert.deepEqual(wrong({ "targets.0.shots": "0" }), ["targets", "targets: give at least one target a shot"]);
  });
});

describe("protocol messages", () => {
  it("says hello with the token, and the client name only when given", () => {
    assert.deepEqual(protocol.hello("t0k"), { type: "hello", token: "t0k" });
    assert.deepEqual(protocol.hello("t0k", "volley-module 0.1.0"), { type: "hello", token: "t0k", client: "volley-module 0.1.0" });
  });

  it("builds each request type with its id", () => {
    const request = { system: "gurps" };
    assert.deepEqual(protocol.attack("a1", request), { type: "attack", id: "a1", request });
    assert.deepEqual(protocol.odds("o1", request), { type: "odds", id: "o1", request });
    assert.deepEqual(protocol.action("r1", request), { type: "action", id: "r1", request });
    assert.deepEqual(protocol.allocate("x1", "p1", { a: 3 }), { type: "allocate", id: "x1", pending_id: "p1", allocation: { a: 3 } });
    assert.deepEqual(protocol.ping("p"), { type: "ping", id: "p" });
    assert.throws(() => protocol.rulesMessage("hello", "x", request), protocol.ProtocolError);
    assert.throws(() => protocol.attack("", request), /needs an id/);
    assert.throws(() => protocol.attack("a", [1]), /must be an object/);
  });

  it("makes request ids that do not repeat and fit the bridge's 128-character limit", () => {
    const ids = new Set(Array.from({ length: 1000 }, () => protocol.newRequestId()));
    assert.equal(ids.size, 1000);
    for (const id of ids) assert.match(id, /^volley-[0-9a-f]{32}$/);
  });

  it("parses only objects with a type", () => {
    assert.deepEqual(protocol.parseMessage('{"type":"pong","id":null}'), { type: "pong", id: null });
    for (const bad of ["nope", "[1]", '{"id":1}', '"x"', new ArrayBuffer(2)]) {
      assert.throws(() => protocol.parseMessage(bad), protocol.ProtocolError);
    }
  });
});

describe("module package", () => {
  const dir = new URL("../../vtt_module/", import.meta.url);
  const json = (path) => JSON.parse(readFileSync(new URL(path, dir), "utf8"));

  it("module.json declares the id, v13, the ES module, both languages and the socket", () => {
    const manifest = json("module.json");
    assert.equal(manifest.id, "volley");
    assert.equal(manifest.compatibility.minimum, "13");
    assert.deepEqual(manifest.esmodules, ["scripts/volley.js"]);
    // Each language has the module's own words and the rules' message catalogue (docs/i18n.md).
    assert.deepEqual(
      manifest.languages.map((l) => `${l.lang}:${l.path}`),
      ["en:lang/en.json", "en:lang/messages.en.json", "ru:lang/ru.json", "ru:lang/messages.ru.json"],
    );
    assert.equal(manifest.socket, true);
    for (const path of [...manifest.esmodules, ...manifest.styles, ...manifest.languages.map((l) => l.path)]) {
      assert.ok(readFileSync(new URL(path, dir), "utf8").length > 0, path);
    }
  });

  it("English and Russian have the same keys, and every key the module uses exists", () => {
    const keys = (obj, prefix = "") =>
      Object.entries(obj).flatMap(([k, v]) => (typeof v === "object" ? keys(v, `${prefix}${k}.`) : [`${prefix}${k}`]));
    const en = keys(json("lang/en.json")).sort();
    assert.deepEqual(keys(json("lang/ru.json")).sort(), en);
    const sources = ["scripts/volley.js", "templates/chat-card.hbs", "templates/attack-dialog.hbs"]
      .map((p) => readFileSync(new URL(p, dir), "utf8"))
      .join("\n");
    const used = new Set(sources.match(/VOLLEY\.[A-Za-z.]+[A-Za-z]/g));
    assert.ok(used.size > 20);
    for (const key of used) assert.ok(en.includes(key), `missing in en.json: ${key}`);
  });
});
