// A refusal from the bridge in the user's language (docs/protocol.md, `error`'s `msg`): the module
// renders the rules message through game.i18n when it has the key, the bridge's English otherwise.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { afterEach, describe, it } from "node:test";

import { BridgeError, errorFrom } from "../../vtt_module/scripts/connection.js";
import { problemText } from "../../vtt_module/scripts/foundry/words.js";

const langDir = new URL("../../vtt_module/lang/", import.meta.url);

/** Nested lang-file keys as Foundry flattens them ("VOLLEY.BridgeRefusal.rate_limited"). */
function flatten(tree, prefix = "") {
  return Object.entries(tree).reduce(
    (flat, [key, value]) =>
      typeof value === "object" ? { ...flat, ...flatten(value, `${prefix}${key}.`) } : { ...flat, [`${prefix}${key}`]: value },
    {},
  );
}

/** Foundry's game.i18n over the module's message catalogue and own words of `lang`. */
function fakeGame(lang) {
  const texts = {
    ...JSON.parse(readFileSync(new URL(`messages.${lang}.json`, langDir), "utf-8")),
    ...flatten(JSON.parse(readFileSync(new URL(`${lang}.json`, langDir), "utf-8"))),
  };
  return {
    i18n: {
      lang,
      has: (key) => key in texts,
      localize: (key) => texts[key] ?? key,
    },
  };
}

const OVER_ROF = {
  type: "error",
  id: "r1",
  code: "rule",
  message: "shots 12 > RoF 10",
  path: "$.request.shots",
  msg: { key: "gurps.error.shots_over_rof", values: { shots: 12, rof: 10 } },
};

describe("a bridge refusal on screen", () => {
  afterEach(() => {
    delete globalThis.game;
  });

  it("reads in Russian for a Russian user, from the reply or from a BridgeError", () => {
    globalThis.game = fakeGame("ru");
    assert.equal(problemText(OVER_ROF), "12 выстрелов — больше СС 10");
    const error = errorFrom(OVER_ROF);
    assert.ok(error instanceof BridgeError);
    assert.equal(problemText(error), "12 выстрелов — больше СС 10");
  });

  it("renders nested words and plural forms in the user's language", () => {
    globalThis.game = fakeGame("ru");
    const slung = {
      ...OVER_ROF,
      message: "Fast Draw needs a holstered (or already ready) weapon; the weapon is slung: ...",
      msg: { key: "megatraveller.error.fast_draw_from", values: { before: { key: "megatraveller.error.slung", values: {} } } },
    };
    assert.match(problemText(slung), /^быстрое выхватывание — только из кобуры .*; оружие на плече: сначала снять оружие с плеча/);
    const short = { ...OVER_ROF, msg: { key: "d100.error.short_magazine", values: { loaded: 1, rounds: 10, mode: { key: "d100.error.mode.long_burst", values: {} } } } };
    assert.equal(problemText(short), "Длинная Очередь: нужно патронов 10, а в магазине 1");
    const word = (name) => ({ key: `common.error.type.${name}`, values: {} });
    const wrongType = { ...OVER_ROF, message: "Expected `int`, got `str`", msg: { key: "common.error.wrong_type", values: { expected: word("int"), got: word("str") } } };
    assert.equal(problemText(wrongType), "ожидается целое число, а не строка");
    globalThis.game = fakeGame("en");
    assert.equal(problemText(wrongType), wrongType.message);
  });

  it("reads the rules' own English for an English user", () => {
    globalThis.game = fakeGame("en");
    assert.equal(problemText(OVER_ROF), OVER_ROF.message);
  });

  it("falls back to the bridge's English for a key the module does not know, or no msg at all", () => {
    globalThis.game = fakeGame("ru");
    assert.equal(problemText({ ...OVER_ROF, msg: { key: "newsystem.error.thing", values: {} } }), "shots 12 > RoF 10");
    const { msg: _, ...bare } = OVER_ROF;
    assert.equal(problemText(bare), "shots 12 > RoF 10");
    assert.equal(problemText(errorFrom({ ...bare, msg: "not a message" })), "shots 12 > RoF 10");
  });

  it("says the bridge's own refusals (no msg) in the module's words for their code, English as the bridge said it", () => {
    const limited = { type: "error", id: "r2", code: "rate_limited", message: "user u1: more than 20 messages in 1 s", path: null };
    globalThis.game = fakeGame("ru");
    assert.equal(problemText(limited), "слишком много запросов подряд: подождите немного и повторите");
    assert.equal(problemText(errorFrom({ ...limited, code: "no_such_code" })), limited.message);
    globalThis.game = fakeGame("en");
    assert.equal(problemText(limited), limited.message);
  });
});
