// d100 requests built by the referee's browser (systems/d100/requests.js): every number from the actor
// and the map, only choices from the player, refusals naming the field, as the rules want them
// (rules/d100/requests.py; docs/examples/d100/).
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { FormError } from "../../vtt_module/scripts/fields.js";
import { buildD100Request, MODIFIER_LIMIT } from "../../vtt_module/scripts/systems/d100/requests.js";
import { systemPlugin } from "../../vtt_module/scripts/systems/index.js";

const autogun = {
  id: "wAutogun",
  system: "d100",
  name: "Autogun",
  stats: { class: "rifle", rof: "S/3/10", capacity: 30, reliability: 0, range: 90 },
  state: { loaded: 30, jammed: false, spoiled: 0, braced: false },
};

/** Vex at the origin of the map (metres); the Heretic 30 m east, the Cultist 1.5 m from it. */
function context({ weapon = autogun, shooter = {}, character = {}, requester = { id: "pl", isGM: false } } = {}) {
  return {
    shooter: { id: "s1", name: "Vex", statuses: [], state: {}, centre: { x: 0, y: 0 }, ...shooter },
    weapon,
    character: { bs: 45, wp: 35, tech_use: 40, weaponsmith: 35, ...character },
    targets: new Map([
      ["t1", { id: "t1", name: "Heretic", character: { wp: 35 }, statuses: [], state: {}, centre: { x: 30, y: 0 } }],
      ["t2", { id: "t2", name: "Cultist", character: { wp: 28 }, statuses: ["suppressed"], state: {}, centre: { x: 30, y: 1.5 } }],
      ["t3", { id: "t3", name: "Demagogue", character: {}, statuses: ["prone"], state: {}, centre: null }],
      ["s1", { id: "s1", name: "Vex", character: { wp: 35 }, statuses: [], state: {}, centre: { x: 0, y: 0 } }],
    ]),
    requester,
  };
}

const choice = (fields) => ({ system: "d100", token: "s1", weapon: "wAutogun", action: "attack", ...fields });

/** @param {() => unknown} fn @param {string} field @param {string} key */
function refuses(fn, field, key) {
  assert.throws(fn, (error) => error instanceof FormError && error.field === field && error.key === key, `${field}: ${key}`);
}

describe("d100 attack requests", () => {
  it("a long burst at the Heretic with a share for the Cultist: the docs' example, measured on the map", () => {
    const built = buildD100Request(
      choice({
        mode: "long_burst",
        // A hand-edited client's extras are ignored: skill, rounds and dice are the referee's.
        bs: 99,
        loaded: 999,
        dice: [1, 1],
        targets: [{ id: "t1", cover: false, reach_cover: true }, { id: "t2", share: 2, band: "auto" }],
      }),
      context(),
    );
    assert.equal(built.type, "attack");
    assert.deepEqual(built.request, {
      system: "d100",
      action: "attack",
      mode: "long_burst",
      attacker: { id: "s1", name: "Vex", bs: 45, moved: false, in_melee: false, suppressed: false, prone: false },
      weapon: { name: "Autogun", class: "rifle", rof: "S/3/10", loaded: 30, jammed: false, spoiled: 0, braced: false, capacity: 30, reliability: 0, range: 90 },
      modifier: 0,
      targets: [
        { id: "t1", name: "Heretic", in_cover: false, can_reach_cover: true, suppressed: false, prone: false, wp: 35, distance: 30 },
        { id: "t2", name: "Cultist", in_cover: false, can_reach_cover: true, suppressed: true, prone: false, wp: 28, distance: 30.04, share: 2, to_primary: 1.5 },
      ],
    });
  });

  it("takes the shooter's state from its statuses, and its movement and melee from the player", () => {
    const built = buildD100Request(
      choice({ mode: "single", moved: true, in_melee: "on", modifier: "-10", targets: [{ id: "t1" }] }),
      context({ shooter: { statuses: ["suppressed", "prone"] }, character: { sb: 4 } }),
    );
    assert.deepEqual(built.request.attacker, { id: "s1", name: "Vex", bs: 45, moved: true, in_melee: true, suppressed: true, prone: true, sb: 4 });
    assert.equal(built.request.modifier, -10);
  });

  it("a range band the player names replaces the map's distance; a token off the map has neither", () => {
    const built = buildD100Request(choice({ mode: "short_burst", targets: [{ id: "t1", band: "long" }, { id: "t3", share: 1 }] }), context());
    assert.equal(built.request.targets[0].band, "long");
    assert.equal("distance" in built.request.targets[0], false);
    assert.equal("distance" in built.request.targets[1], false);
    assert.equal("to_primary" in built.request.targets[1], false);
    assert.equal(built.request.targets[1].prone, true);
    refuses(() => buildD100Request(choice({ targets: [{ id: "t1", band: "far" }] }), context()), "targets.0.band", "VOLLEY.Form.OneOf");
  });

  it("suppressing fire: the rate and the sector's width go to the rules; everyone in it needs WP", () => {
    const built = buildD100Request(choice({ mode: "suppressing", rate: "semi", arc: 30, targets: [{ id: "t1" }, { id: "t2" }] }), context());
    assert.equal(built.request.rate, "semi");
    assert.equal(built.request.arc, 30);
    assert.equal(built.request.targets.every((t) => !("share" in t) && !("to_primary" in t)), true);
    const noRate = buildD100Request(choice({ mode: "suppressing", targets: [{ id: "t1" }] }), context());
    assert.equal("rate" in noRate.request, false, "no rate: the rules pick the long-burst RoF when there is one");
    refuses(() => buildD100Request(choice({ mode: "suppressing", targets: [{ id: "t1" }, { id: "t3" }] }), context()), "targets.1.wp", "VOLLEY.D100.Form.NoWp");
    refuses(() => buildD100Request(choice({ mode: "suppressing", arc: 46, targets: [{ id: "t1" }] }), context()), "arc", "VOLLEY.Form.AtMost");
  });

  it("a burst's wider reach is the player's call to ask for; WP is not needed where nobody tests", () => {
    const built = buildD100Request(choice({ mode: "wide_long_burst", gm_allows_wider: true, targets: [{ id: "t3" }] }), context());
    assert.equal(built.request.gm_allows_wider, true);
    assert.equal("wp" in built.request.targets[0], false);
  });

  it("refuses what the rules would, naming the field in the player's words", () => {
    refuses(() => buildD100Request(choice({ mode: "single", targets: [{ id: "t1" }, { id: "t2" }] }), context()), "targets", "VOLLEY.D100.Form.SingleOneTarget");
    refuses(() => buildD100Request(choice({ targets: [] }), context()), "targets", "VOLLEY.D100.Form.NoTargets");
    refuses(() => buildD100Request(choice({ targets: [{ id: "nobody" }] }), context()), "targets.0.id", "VOLLEY.Form.UnknownTarget");
    refuses(() => buildD100Request(choice({ targets: [{ id: "s1" }] }), context()), "targets.0.id", "VOLLEY.D100.Form.NotSelf");
    refuses(() => buildD100Request(choice({ mode: "short_burst", targets: [{ id: "t1" }, { id: "t1" }] }), context()), "targets.1.id", "VOLLEY.D100.Form.Twice");
    refuses(() => buildD100Request(choice({ mode: "burst", targets: [{ id: "t1" }] }), context()), "mode", "VOLLEY.Form.OneOf");
    refuses(() => buildD100Request(choice({ modifier: MODIFIER_LIMIT + 1, targets: [{ id: "t1" }] }), context()), "modifier", "VOLLEY.Form.AtMost");
    refuses(() => buildD100Request(choice({ mode: "short_burst", targets: [{ id: "t1" }, { id: "t2", share: -1 }] }), context()), "targets.1.share", "VOLLEY.Form.AtLeast");
    refuses(() => buildD100Request(choice({ targets: [{ id: "t1" }] }), context({ character: { bs: undefined } })), "character.bs", "VOLLEY.Form.NotSet");
    refuses(() => buildD100Request(choice({ action: "fly" }), context()), "action", "VOLLEY.Form.OneOf");
    const many = Array.from({ length: 33 }, (_, i) => ({ id: `x${i}` }));
    refuses(() => buildD100Request(choice({ targets: many }), context()), "targets", "VOLLEY.Form.AtMost");
  });
});

describe("d100 overwatch", () => {
  it("sets a standing order: mode, trigger, facing (kept within a turn) and a sector of at most 45°", () => {
    const built = buildD100Request(
      choice({ action: "overwatch", order: { mode: "short_burst", trigger: "anyone crosses the bridge", facing: -10, arc: 30 } }),
      context(),
    );
    assert.equal(built.type, "action");
    assert.deepEqual(built.request.order, { mode: "short_burst", trigger: "anyone crosses the bridge", facing: 350, arc: 30 });
    assert.equal(built.request.action, "overwatch");
    refuses(() => buildD100Request(choice({ action: "overwatch", order: { facing: 0, arc: 60 } }), context()), "order.arc", "VOLLEY.Form.AtMost");
    refuses(() => buildD100Request(choice({ action: "overwatch", order: { mode: "suppressing", facing: 0 } }), context()), "order.mode", "VOLLEY.Form.OneOf");
    refuses(() => buildD100Request(choice({ action: "overwatch", order: { trigger: "x".repeat(121), facing: 0 } }), context()), "order.trigger", "VOLLEY.Form.TooLong");
    refuses(() => buildD100Request(choice({ action: "overwatch", order: { facing: "north" } }), context()), "order.facing", "VOLLEY.Form.WholeNumber");
    // Where the order watches is never guessed: no facing, or an empty one, is refused (#31, item 3).
    for (const facing of [undefined, null, "", "  "]) {
      refuses(() => buildD100Request(choice({ action: "overwatch", order: { trigger: "x", facing } }), context()), "order.facing", "VOLLEY.Form.Required");
    }
  });

  it("lifts the order", () => {
    const built = buildD100Request(choice({ action: "lift_overwatch" }), context());
    assert.equal(built.request.action, "overwatch");
    assert.equal(built.request.clear, true);
  });

  it("fires the standing order from the token's state, at the tokens that met its trigger", () => {
    const order = { mode: "single", trigger: "anyone crosses the bridge", facing: 90, arc: 45 };
    const built = buildD100Request(choice({ action: "overwatch_fire", targets: [{ id: "t1" }, { id: "t2" }] }), context({ shooter: { state: { overwatch: order } } }));
    assert.equal(built.type, "attack", "overwatch fire is previewed and sent as an attack");
    assert.equal(built.request.action, "overwatch_fire");
    assert.deepEqual(built.request.attacker.overwatch, order);
    assert.equal("mode" in built.request, false, "the order's own mode");
    // Single shots, one per token: no secondary, so no share and no distance to a primary (#31, item 2).
    assert.equal(built.request.targets.every((t) => !("share" in t) && !("to_primary" in t)), true);
    const single = buildD100Request(
      choice({ action: "overwatch_fire", fire_mode: "single", targets: [{ id: "t1" }, { id: "t2", share: 1 }] }),
      context({ shooter: { state: { overwatch: { ...order, mode: "long_burst" } } } }),
    );
    assert.equal(single.request.targets.every((t) => !("share" in t) && !("to_primary" in t)), true);
    const burst = buildD100Request(
      choice({ action: "overwatch_fire", fire_mode: "long_burst", targets: [{ id: "t1" }, { id: "t2", share: 1 }] }),
      context({ shooter: { state: { overwatch: order } } }),
    );
    assert.equal(burst.request.mode, "long_burst");
    assert.equal(burst.request.targets[1].to_primary, 1.5);
  });

  it("refuses overwatch fire without an order, and targets without WP (each one shot at tests at +20)", () => {
    refuses(() => buildD100Request(choice({ action: "overwatch_fire", targets: [{ id: "t1" }] }), context()), "mode", "VOLLEY.D100.Form.NoOrder");
    const standing = context({ shooter: { state: { overwatch: { mode: "single" } } } });
    refuses(() => buildD100Request(choice({ action: "overwatch_fire", targets: [{ id: "t3" }] }), standing), "targets.0.wp", "VOLLEY.D100.Form.NoWp");
  });
});

describe("d100 upkeep and morale", () => {
  const jammed = { ...autogun, state: { loaded: 10, jammed: true, spoiled: 20, braced: false } };

  it("unjams with the better of Tech-Use and Trade (Weaponsmith), or the one the player picks", () => {
    const best = buildD100Request(choice({ action: "unjam" }), context({ weapon: jammed }));
    assert.equal(best.request.skill, 40);
    assert.deepEqual(best.request.weapon.jammed, true);
    const smith = buildD100Request(choice({ action: "unjam", using: "weaponsmith", tech_modifier: 10 }), context({ weapon: jammed }));
    assert.equal(smith.request.skill, 35);
    assert.equal(smith.request.modifier, 10);
    refuses(
      () => buildD100Request(choice({ action: "unjam" }), context({ weapon: jammed, character: { tech_use: undefined, weaponsmith: undefined } })),
      "character.tech_use",
      "VOLLEY.Form.NotSet",
    );
    refuses(() => buildD100Request(choice({ action: "unjam", using: "tech_use" }), context({ character: { tech_use: undefined } })), "character.tech_use", "VOLLEY.Form.NotSet");
  });

  it("recovers spoiled rounds with Trade (Weaponsmith), reloads and braces from the weapon as it is", () => {
    const recover = buildD100Request(choice({ action: "recover_ammo" }), context({ weapon: jammed }));
    assert.equal(recover.request.skill, 35);
    assert.equal(recover.request.weapon.spoiled, 20);
    assert.equal(buildD100Request(choice({ action: "reload" }), context()).request.action, "reload");
    assert.equal("release" in buildD100Request(choice({ action: "brace" }), context()).request, false);
    const release = buildD100Request(choice({ action: "release_brace" }), context());
    assert.equal(release.request.action, "brace");
    assert.equal(release.request.release, true);
  });

  it("a morale test is the token's own: its WP, its statuses, the cover the player says", () => {
    const built = buildD100Request(
      choice({ action: "suppression_test", morale_modifier: -10, cover: true, reach_cover: false }),
      context({ shooter: { statuses: ["suppressed"] } }),
    );
    assert.deepEqual(built.request, {
      system: "d100",
      action: "suppression_test",
      modifier: -10,
      targets: [{ id: "s1", name: "Vex", in_cover: true, can_reach_cover: false, suppressed: true, prone: false, wp: 35 }],
    });
    const recover = buildD100Request(choice({ action: "recover", quiet: "on" }), context({ shooter: { statuses: ["suppressed"] } }));
    assert.equal(recover.request.quiet, true);
    refuses(() => buildD100Request(choice({ action: "recover" }), context({ character: { wp: undefined } })), "character.wp", "VOLLEY.Form.NotSet");
    const melee = buildD100Request(choice({ action: "enter_melee" }), context({ character: { wp: undefined } }));
    assert.equal(melee.request.targets[0].id, "s1", "entering melee needs no WP");
  });

  it("only a game master calls morale tests for the listed targets", () => {
    const asked = choice({ action: "suppression_test", who: "targets", targets: [{ id: "t1" }, { id: "t2", cover: true }] });
    refuses(() => buildD100Request(asked, context()), "who", "VOLLEY.D100.Form.GmOnly");
    const built = buildD100Request(asked, context({ requester: { id: "gm", isGM: true } }));
    assert.deepEqual(
      built.request.targets.map((t) => [t.id, t.wp, t.in_cover, t.suppressed]),
      [
        ["t1", 35, false, false],
        ["t2", 28, true, true],
      ],
    );
  });
});

describe("the d100 plug-in", () => {
  it("previews attacks and overwatch fire, and has a dialog", () => {
    const d100 = systemPlugin("d100");
    assert.deepEqual(d100.previewActions, ["attack", "overwatch_fire"]);
    assert.equal(typeof d100.dialog, "function");
    assert.equal(d100.buildRequest, buildD100Request);
    assert.deepEqual(
      d100.profile.character.map((field) => field.key),
      ["bs", "wp", "tech_use", "weaponsmith", "sb"],
    );
  });
});
