// Sectors of fire on the map (scripts/sector.js): who stands in a wedge opening from the
// shooter, read from token centres in metres, as the d100 dialog lists them for suppressing fire, wide
// bursts and overwatch.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import {
  angleBetween,
  bearing,
  distanceBetween,
  isSector,
  metresPerUnit,
  normaliseDegrees,
  readFacing,
  sectorOutline,
  tokensInSector,
  wholeDegrees,
} from "../../vtt_module/scripts/sector.js";
import { FormError } from "../../vtt_module/scripts/fields.js";

const at = (x, y) => ({ x, y });
const ids = (found) => found.map((f) => f.id);

describe("bearings on the map", () => {
  it("measure as Foundry's templates do: 0° east, clockwise with y down the map", () => {
    assert.equal(bearing(at(0, 0), at(10, 0)), 0);
    assert.equal(bearing(at(0, 0), at(0, 10)), 90, "south is 90°: y grows down the map");
    assert.equal(bearing(at(0, 0), at(-10, 0)), 180);
    assert.equal(bearing(at(0, 0), at(0, -10)), 270);
    assert.equal(Math.round(bearing(at(0, 0), at(10, -10))), 315);
  });

  it("wrap round north-east: 350° and 10° are 20° apart", () => {
    assert.equal(angleBetween(350, 10), 20);
    assert.equal(angleBetween(-10, 10), 20);
    assert.equal(angleBetween(0, 180), 180);
    assert.equal(normaliseDegrees(-90), 270);
    assert.equal(normaliseDegrees(720), 0);
    assert.equal(normaliseDegrees(359.9999999999999), 0);
  });

  it("a facing typed in the Facing field is a whole degree from 0 to 359; anything else names the field", () => {
    assert.equal(readFacing("352"), 352);
    assert.equal(readFacing(" 0 "), 0);
    assert.equal(readFacing(359), 359);
    const refused = (raw, key) => assert.throws(() => readFacing(raw), (e) => e instanceof FormError && e.field === "facing" && e.key === key);
    refused("360", "VOLLEY.Form.AtMost");
    refused("-1", "VOLLEY.Form.AtLeast");
    refused("35.5", "VOLLEY.Form.WholeNumber");
    refused("east", "VOLLEY.Form.WholeNumber");
    refused("", "VOLLEY.Form.Required");
  });

  it("a facing clicked on the map is taken to the whole degree the field shows", () => {
    assert.equal(wholeDegrees(351.8), 352);
    assert.equal(wholeDegrees(-8.2), 352);
    assert.equal(wholeDegrees(359.6), 0);
    assert.equal(wholeDegrees(0.4), 0);
  });

  it("measure straight lines between centres", () => {
    assert.equal(distanceBetween(at(0, 0), at(3, 4)), 5);
  });
});

describe("tokensInSector", () => {
  // Seed 004's sector: 45° at most. The shooter at the origin faces east.
  const sector = { origin: at(0, 0), facing: 0, arc: 45, length: 90 };

  it("lists the tokens whose centres are inside, nearest first, with distance and bearing", () => {
    const tokens = [
      { id: "far", centre: at(60, 5) },
      { id: "near", centre: at(10, -2) },
      { id: "outside-angle", centre: at(10, 10) }, // 45° off the middle line: beyond 22.5°
      { id: "too-far", centre: at(95, 0) },
      { id: "behind", centre: at(-20, 0) },
    ];
    const found = tokensInSector(sector, tokens);
    assert.deepEqual(ids(found), ["near", "far"]);
    assert.ok(Math.abs(found[0].distance - Math.hypot(10, 2)) < 1e-9);
    assert.ok(Math.abs(found[0].off - (Math.atan2(2, 10) * 180) / Math.PI) < 1e-9);
  });

  it("counts a token exactly on an edge or at the full length as inside", () => {
    const edge = 22.5 * (Math.PI / 180);
    const tokens = [
      { id: "edge", centre: at(40 * Math.cos(edge), 40 * Math.sin(edge)) },
      { id: "end", centre: at(90, 0) },
    ];
    assert.deepEqual(ids(tokensInSector(sector, tokens)).sort(), ["edge", "end"]);
  });

  it("wraps round east: a sector facing 350° holds a token at 10°", () => {
    const wrapped = { origin: at(0, 0), facing: 350, arc: 45, length: Infinity };
    const tokens = [
      { id: "at10", centre: at(Math.cos(Math.PI / 18) * 50, Math.sin(Math.PI / 18) * 50) },
      { id: "at330", centre: at(Math.cos(-Math.PI / 6) * 50, Math.sin(-Math.PI / 6) * 50) },
      { id: "at20", centre: at(Math.cos(Math.PI / 9) * 50, Math.sin(Math.PI / 9) * 50) },
    ];
    assert.deepEqual(ids(tokensInSector(wrapped, tokens)).sort(), ["at10", "at330"]);
  });

  it("never lists the shooter's own spot, nor tokens off the map", () => {
    const tokens = [
      { id: "self", centre: at(0, 0) },
      { id: "nowhere", centre: null },
      { id: "broken", centre: at(Number.NaN, 1) },
      { id: "there", centre: at(5, 0) },
    ];
    assert.deepEqual(ids(tokensInSector(sector, tokens)), ["there"]);
  });

  it("lists nobody for a sector that cannot be drawn", () => {
    const tokens = [{ id: "there", centre: at(5, 0) }];
    for (const bad of [
      { ...sector, arc: 0 },
      { ...sector, arc: 400 },
      { ...sector, length: 0 },
      { ...sector, facing: Number.NaN },
      { ...sector, origin: null },
    ]) {
      assert.equal(isSector(bad), false);
      assert.deepEqual(tokensInSector(bad, tokens), []);
    }
  });

  it("the sandbox's d100 scene: a 45° sector between the Heretic and the Cultist leaves the demagogue out", () => {
    // Token centres on the stand-in board (pixels), 70 px to a 1.4 m square, the shooter Vex at (90, 225).
    const metres = (x, y) => at((x * 1.4) / 70, (y * 1.4) / 70);
    const tokens = [
      { id: "Heretic", centre: metres(370, 135) },
      { id: "Cultist", centre: metres(370, 230) },
      { id: "Cult demagogue", centre: metres(320, 375) },
    ];
    const found = tokensInSector({ origin: metres(90, 225), facing: 352, arc: 45, length: 270 }, tokens);
    assert.deepEqual(ids(found), ["Cultist", "Heretic"]);
    assert.ok(distanceBetween(tokens[0].centre, tokens[1].centre) < 2, "close enough for a burst's extra hits");
  });
});

describe("sectorOutline", () => {
  it("runs from the origin along the arc and back, every 5° at most", () => {
    const points = sectorOutline({ origin: at(0, 0), facing: 0, arc: 45, length: 10 });
    assert.deepEqual(points[0], at(0, 0));
    assert.deepEqual(points.at(-1), at(0, 0));
    assert.equal(points.length, 2 + 10, "45° in nine steps of 5°: ten points on the arc");
    for (const point of points.slice(1, -1)) assert.ok(Math.abs(Math.hypot(point.x, point.y) - 10) < 1e-9);
    assert.ok(Math.abs(bearing(at(0, 0), points[1]) - 337.5) < 1e-9);
  });

  it("draws an unlimited sector to the reach it is given", () => {
    const points = sectorOutline({ origin: at(0, 0), facing: 90, arc: 10, length: Infinity }, 500);
    assert.ok(Math.abs(Math.hypot(points[1].x, points[1].y) - 500) < 1e-9);
    assert.deepEqual(sectorOutline({ origin: at(0, 0), facing: 0, arc: 0, length: 5 }), []);
  });
});

describe("metresPerUnit", () => {
  it("turns a scene's units into metres, and refuses what it cannot", () => {
    assert.equal(metresPerUnit("m"), 1);
    assert.equal(metresPerUnit(" Metres "), 1);
    assert.equal(metresPerUnit("м"), 1);
    assert.equal(metresPerUnit(""), 1, "unitless grids read as metres");
    assert.equal(metresPerUnit("ft"), 0.3048);
    assert.equal(metresPerUnit("ft."), 0.3048);
    assert.equal(metresPerUnit("km"), 1000);
    assert.equal(metresPerUnit("hex"), null);
    assert.equal(metresPerUnit(undefined), 1, "no unit set: metres");
    assert.equal(metresPerUnit(5), null, "not a unit at all");
  });
});
