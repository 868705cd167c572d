// Token updates from a result: absolute flag values and explicit status switches, applied so that a
// second application of the same result changes nothing.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { applyUpdates, isFlagName, planTokenUpdate, readUpdates } from "../../vtt_module/scripts/updates.js";

/** A token with flags under `flags.volley` and a set of statuses, recording every write. */
function fakeToken(flags = {}, statuses = []) {
  const token = {
    flags: { volley: structuredClone(flags) },
    statuses: new Set(statuses),
    writes: [],
    getFlag(name) {
      return name.split(".").reduce((o, k) => (o === undefined || o === null ? undefined : o[k]), token.flags.volley);
    },
    hasStatus: (id) => token.statuses.has(id),
    async update(changes) {
      token.writes.push({ update: changes });
      for (const [path, value] of Object.entries(changes)) {
        const parts = path.split(".");
        let o = token;
        for (const p of parts.slice(0, -1)) o = o[p] ??= {};
        o[parts.at(-1)] = value;
      }
    },
    async setStatus(id, active) {
      token.writes.push({ status: id, active });
      if (active) token.statuses.add(id);
      else token.statuses.delete(id);
    },
  };
  return token;
}

// A GURPS burst: the shooter spent 5 of 30 rounds and jammed; one target is now suppressed.
const UPDATES = [
  { token: "shooter", state: { "weapon.loaded": 25, "weapon.jammed": true, "weapon.malfunction": "stoppage" } },
  { token: "target", state: {}, statuses_add: ["suppressed"], statuses_remove: ["prone"] },
];

describe("applyUpdates", () => {
  it("writes absolute flag values and switches statuses", async () => {
    const shooter = fakeToken({ weapon: { loaded: 30, jammed: false } });
    const target = fakeToken({}, ["prone"]);
    const tokens = { shooter, target };
    const { applied, problems } = await applyUpdates(UPDATES, (id) => tokens[id]);
    assert.deepEqual(problems, []);
    assert.deepEqual(shooter.writes, [
      { update: { "flags.volley.weapon.loaded": 25, "flags.volley.weapon.jammed": true, "flags.volley.weapon.malfunction": "stoppage" } },
    ]);
    assert.deepEqual(shooter.flags.volley.weapon, { loaded: 25, jammed: true, malfunction: "stoppage" });
    assert.deepEqual(target.writes, [
      { status: "suppressed", active: true },
      { status: "prone", active: false },
    ]);
    assert.equal(applied.length, 2);
  });

  it("is idempotent: the same result applied twice writes nothing the second time", async () => {
    const tokens = { shooter: fakeToken({ weapon: { loaded: 30 } }), target: fakeToken() };
    await applyUpdates(UPDATES, (id) => tokens[id]);
    const before = tokens.shooter.writes.length + tokens.target.writes.length;
    const again = await applyUpdates(UPDATES, (id) => tokens[id]);
    assert.deepEqual(again.applied, []);
    assert.equal(tokens.shooter.writes.length + tokens.target.writes.length, before);
    assert.equal(tokens.shooter.getFlag("weapon.loaded"), 25);
  });

  it("writes only what differs", async () => {
    const shooter = fakeToken({ weapon: { loaded: 25, jammed: false, malfunction: null } });
    await applyUpdates([{ token: "shooter", state: { "weapon.loaded": 25, "weapon.jammed": true, "weapon.malfunction": null } }], () => shooter);
    assert.deepEqual(shooter.writes, [{ update: { "flags.volley.weapon.jammed": true } }]);
  });

  it("reports a status the VTT does not know and still applies the rest", async () => {
    const target = fakeToken({}, ["prone"]);
    const setStatus = target.setStatus;
    target.setStatus = async (id, active) => {
      if (id === "suppressed") throw new Error('Invalid status ID "suppressed"');
      return setStatus(id, active);
    };
    const { problems } = await applyUpdates([UPDATES[1]], () => target);
    assert.deepEqual(problems, ['token target: status suppressed: Invalid status ID "suppressed"']);
    assert.equal(target.statuses.has("prone"), false);
  });

  it("reports a token that is not on the scene and still applies the rest", async () => {
    const shooter = fakeToken({ weapon: { loaded: 30 } });
    const { problems } = await applyUpdates(UPDATES, (id) => (id === "shooter" ? shooter : null));
    assert.deepEqual(problems, ["token target is not on this scene"]);
    assert.equal(shooter.getFlag("weapon.loaded"), 25);
  });
});

describe("readUpdates", () => {
  it("refuses flag names that could escape the module's namespace", () => {
    assert.ok(isFlagName("weapon.loaded"));
    assert.ok(isFlagName("readiness"));
    for (const bad of ["__proto__.polluted", "weapon.constructor", "../x", "a..b", "", "flags.core.x y"]) {
      assert.ok(!isFlagName(bad), bad);
    }
    const { changes, problems } = readUpdates([
      { token: "t", state: { "__proto__.polluted": 1, "weapon.loaded": 3 }, statuses_add: ["ok", "<bad>"] },
      { state: {} },
      "junk",
    ]);
    assert.deepEqual(changes, [{ token: "t", state: { "weapon.loaded": 3 }, add: ["ok"], remove: [] }]);
    assert.equal(problems.length, 4);
    assert.equal({}.polluted, undefined);
  });

  it("merges several entries for one token, later values winning", () => {
    const { changes } = readUpdates([
      { token: "t", state: { "weapon.loaded": 3 } },
      { token: "t", state: { "weapon.loaded": 2 }, statuses_add: ["suppressed"] },
    ]);
    assert.deepEqual(changes, [{ token: "t", state: { "weapon.loaded": 2 }, add: ["suppressed"], remove: [] }]);
  });

  it("ends a status removed when one result both adds and removes it", () => {
    const plan = planTokenUpdate({ token: "t", state: {}, add: ["pinned"], remove: ["pinned"] }, fakeToken({}, ["pinned"]));
    assert.deepEqual([plan.add, plan.remove], [[], ["pinned"]]);
  });
});
