// The module's renderer of the rules' messages against the vectors the CLI's renderer (bridge/i18n.py)
// is held to: both must print exactly the same words (docs/i18n.md).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";

import {
  flatLookup,
  formatNumber,
  formatTemplate,
  isMessage,
  pluralForm,
  renderMessage,
  renderText,
} from "../../vtt_module/scripts/i18n/format.js";

const VECTORS = JSON.parse(readFileSync(new URL("../i18n/format_vectors.json", import.meta.url), "utf8"));

describe("formatTemplate against tests/i18n/format_vectors.json", () => {
  it("has vectors to check", () => assert.ok(VECTORS.length >= 20));
  for (const vector of VECTORS) {
    it(`${vector.lang}: ${vector.template}`, () => {
      const lookup = flatLookup(vector.catalogue ?? {});
      assert.equal(formatTemplate(vector.template, vector.values, vector.lang, lookup), vector.expected);
    });
  }
});

describe("pluralForm", () => {
  it("follows CLDR for Russian: one, few, many", () => {
    const forms = ["one", "few", "many"];
    assert.deepEqual(
      [0, 1, 4, 11, 14, 21, 104, 111].map((n) => pluralForm("ru", n, forms)),
      ["many", "one", "few", "many", "many", "one", "few", "many"],
    );
  });

  it("gives English one or other, and a fraction the second form", () => {
    assert.deepEqual([1, 0, 2, 1.5].map((n) => pluralForm("en", n, ["one", "other"])), ["one", "other", "other", "other"]);
    assert.equal(pluralForm("ru", 2.5, ["one", "few", "many"]), "few");
  });
});

describe("messages", () => {
  const lookup = flatLookup({ "VOLLEY.Msg.gurps.hits": "{who}: {n} {n|hit|hits}" });

  it("renders a message from the catalogue, a missing key as the key and its values", () => {
    assert.equal(renderMessage({ key: "gurps.hits", values: { who: "Kane", n: 2 } }, "en", lookup), "Kane: 2 hits");
    assert.equal(renderMessage({ key: "gurps.nothing", values: { n: 2 } }, "en", lookup), "gurps.nothing(n=2)");
    assert.equal(renderMessage({ key: "gurps.nothing" }, "en", lookup), "gurps.nothing");
  });

  it("accepts an old plain string as well as a message (a card from before protocol v2)", () => {
    assert.equal(renderText("Kane fires MP5", "en", lookup), "Kane fires MP5");
    assert.equal(renderText({ key: "gurps.hits", values: { who: "Kane", n: 1 } }, "en", lookup), "Kane: 1 hit");
    assert.equal(renderText(null, "en", lookup), "");
    assert.equal(renderText({ no: "key" }, "en", lookup), "");
    assert.ok(isMessage({ key: "a" }) && !isMessage(["a"]) && !isMessage("a"));
  });

  it("prints numbers the CLI's way, with the language's decimal separator", () => {
    assert.deepEqual(
      [3, 0.125, 2.5, -0.001, 1 / 3].map((n) => formatNumber(n, "ru")),
      ["3", "0,13", "2,5", "0", "0,33"],
    );
  });
});
