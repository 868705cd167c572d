// The protocol's message builders, and the module's package: manifest, languages, and every string the
// module shows present in English and Russian.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { describe, it } from "node:test";

import { VOLLEY_STATUSES } from "../../vtt_module/scripts/foundry/statuses.js";
import * as protocol from "../../vtt_module/scripts/protocol.js";
import { allSystems } from "../../vtt_module/scripts/systems/index.js";

describe("protocol messages", () => {
  it("says hello with the token, and the client name only when given", () => {
    assert.deepEqual(protocol.hello("t0k"), { type: "hello", token: "t0k" });
    assert.deepEqual(protocol.hello("t0k", "volley-module 0.1.0"), { type: "hello", token: "t0k", client: "volley-module 0.1.0" });
  });

  it("builds each request type with its id, naming the Foundry user it is for (protocol v2)", () => {
    const request = { system: "gurps" };
    assert.deepEqual(protocol.attack("a1", request), { type: "attack", id: "a1", request });
    assert.deepEqual(protocol.odds("o1", request), { type: "odds", id: "o1", request });
    assert.deepEqual(protocol.action("r1", request), { type: "action", id: "r1", request });
    assert.deepEqual(protocol.rulesMessage("attack", "a2", request, "pl01"), { type: "attack", id: "a2", request, user: "pl01" });
    assert.equal(protocol.rulesMessage("attack", "a3", request, "u".repeat(200)).user.length, protocol.MAX_USER_ID);
    assert.deepEqual(protocol.allocate("x1", "p1", { a: 3 }), { type: "allocate", id: "x1", pending_id: "p1", allocation: { a: 3 } });
    assert.deepEqual(protocol.allocate("x1", "p1", [2], "pl01").user, "pl01");
    assert.deepEqual(protocol.undo("u1", "a1", "gm01"), { type: "undo", id: "u1", target_id: "a1", user: "gm01" });
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
  const text = (path) => readFileSync(new URL(path, dir), "utf8");
  const json = (path) => JSON.parse(text(path));
  const manifest = json("module.json");

  /** Every key of a lang file, flattened ("VOLLEY.Dialog.Fire"); dotted top-level keys stay as they are. */
  const keys = (obj, prefix = "") =>
    Object.entries(obj).flatMap(([k, v]) => (typeof v === "object" && v !== null ? keys(v, `${prefix}${k}.`) : [`${prefix}${k}`]));
  /** The module's own words in one language (every file module.json lists, but the rules' messages). */
  const words = (lang) =>
    new Set(manifest.languages.filter((l) => l.lang === lang && !l.path.includes("messages.")).flatMap((l) => keys(json(l.path))));

  it("module.json declares the id, v13, the ES module, both languages and the socket", () => {
    assert.equal(manifest.id, "volley");
    assert.equal(manifest.compatibility.minimum, "13");
    assert.deepEqual(manifest.esmodules, ["scripts/volley.js"]);
    assert.deepEqual([...new Set(manifest.languages.map((l) => l.lang))], ["en", "ru"]);
    assert.equal(manifest.socket, true);
    for (const path of [...manifest.esmodules, ...manifest.styles, ...manifest.languages.map((l) => l.path)]) {
      assert.ok(text(path).length > 0, path);
    }
    // Each English file has its Russian twin.
    const en = manifest.languages.filter((l) => l.lang === "en").map((l) => l.path.replace(".en.json", "").replace("en.json", ""));
    const ru = manifest.languages.filter((l) => l.lang === "ru").map((l) => l.path.replace(".ru.json", "").replace("ru.json", ""));
    assert.deepEqual(ru, en);
  });

  it("English and Russian have the same keys", () => {
    const en = [...words("en")].sort();
    assert.deepEqual([...words("ru")].sort(), en);
    assert.ok(en.length > 150);
  });

  it("every key the module's code and templates name exists", () => {
    const en = words("en");
    const files = (folder, ext) =>
      readdirSync(new URL(folder, dir), { recursive: true })
        .filter((f) => f.endsWith(ext))
        .map((f) => text(`${folder}${f}`));
    const sources = [...files("scripts/", ".js"), ...files("templates/", ".hbs")].join("\n");
    const used = new Set(sources.match(/VOLLEY\.[A-Za-z0-9.]+[A-Za-z0-9]/g));
    const prefixes = new Set([...used].filter((key) => !en.has(key) && [...en].some((k) => k.startsWith(`${key}.`))));
    const dynamic = new Set(["VOLLEY.Msg.key"]); // the renderer's doc comment
    for (const key of used) {
      if (prefixes.has(key) || dynamic.has(key) || key.startsWith("VOLLEY.Msg")) continue;
      assert.ok(en.has(key), `missing in the English lang files: ${key}`);
    }
    assert.ok(used.size > 100);
  });

  it("every system's notation, options, statuses and system names have words", () => {
    const en = words("en");
    for (const plugin of allSystems()) {
      assert.ok(en.has(plugin.label), plugin.label);
      assert.ok(en.has(`VOLLEY.Systems.${plugin.id}`));
      const { character, skill, stats, state } = plugin.profile;
      for (const spec of [...character, ...(skill ? [skill] : []), ...stats, ...state]) {
        assert.ok(en.has(spec.label), `${plugin.id}: ${spec.label}`);
        if (spec.hint) assert.ok(en.has(spec.hint), `${plugin.id}: ${spec.hint}`);
        for (const option of spec.options ?? []) assert.ok(en.has(`${spec.optionLabel}.${option}`), `${spec.optionLabel}.${option}`);
      }
    }
    for (const status of VOLLEY_STATUSES) assert.ok(en.has(status.name), status.name);
  });
});
