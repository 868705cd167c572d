// Layering (issue #17): the Foundry glue in scripts/foundry/ knows no rule system. Systems register
// themselves (scripts/registry.js); nothing below them imports them, not even for a type.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";

const SCRIPTS = new URL("../../vtt_module/scripts/", import.meta.url).pathname;

describe("scripts/foundry/", () => {
  it("imports nothing from scripts/systems/", () => {
    const offenders = [];
    for (const name of readdirSync(join(SCRIPTS, "foundry"))) {
      const text = readFileSync(join(SCRIPTS, "foundry", name), "utf8");
      for (const [i, line] of text.split("\n").entries()) if (/systems\//.test(line) && /import|from/.test(line)) offenders.push(`${name}:${i + 1}: ${line.trim()}`);
    }
    assert.deepEqual(offenders, []);
  });
});
