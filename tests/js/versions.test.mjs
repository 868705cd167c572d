// The settings page's version lines (scripts/versions.js): both versions, and which one to update.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { compareVersions, versionLines } from "../../vtt_module/scripts/versions.js";

describe("the module's and the bridge's versions", () => {
  it("compares dotted numbers as numbers", () => {
    assert.equal(compareVersions("0.1.0", "0.1.0"), 0);
    assert.equal(compareVersions("0.9.0", "0.10.0"), -1);
    assert.equal(compareVersions("1.0", "1.0.0"), 0);
    assert.equal(compareVersions("2.0.1", "2.0.0"), 1);
  });

  it("says nothing more when they agree", () => {
    assert.deepEqual(versionLines("0.1.0", "0.1.0"), [{ key: "VOLLEY.Versions.Both", values: { module: "0.1.0", bridge: "0.1.0" } }]);
  });

  it("names the older one when they differ, as a warning", () => {
    const moduleOld = versionLines("0.1.0", "0.2.0");
    assert.deepEqual(moduleOld.map((line) => [line.key, Boolean(line.warn)]), [["VOLLEY.Versions.Both", false], ["VOLLEY.Versions.ModuleOlder", true]]);
    const bridgeOld = versionLines("0.10.0", "0.9.3");
    assert.equal(bridgeOld[1].key, "VOLLEY.Versions.BridgeOlder");
    assert.deepEqual(bridgeOld[1].values, { module: "0.10.0", bridge: "0.9.3" });
  });

  it("says where to look when this browser does not hold the bridge", () => {
    const lines = versionLines("0.1.0", null);
    assert.deepEqual(lines.map((line) => line.key), ["VOLLEY.Versions.Both", "VOLLEY.Versions.Unknown"]);
    assert.equal(lines[0].values.bridge, "—");
  });
});
