/**
 * Twodsix (game system id `twodsix`, xdy/twodsix-foundryvtt) for Volley's MegaTraveller rules (RCS).
 *
 * Read from the system's own code at version 7.5.2 (commit bddb68eac389f199027f41f5ca77af0c1631b907):
 * `src/module/data/items/weaponData.js`, `gear-data.js`, `consumableData.js`, `skillData.js`,
 * `src/module/data/actors/character-base.js` (`makeCharacteristicField`, `prepareDerivedData`),
 * `src/module/entities/items/WeaponItem.js` (`getFireModeParams`, `resolveUnknownAutoMode`),
 * `item-base.js` (`consumeAmmo`, `_resolveSkillAndItem`), `consumables/BaseConsumableItem.js`
 * (`consume`, `refill`), `src/module/config.js` and the Classic Traveller compendium (`packs-src/ct-items`).
 *
 * How Twodsix keeps a character (TypeDataModel classes, no template.json):
 * - Dexterity in `system.characteristics.dexterity` {value, damage}; the system prepares
 *   `current = value - damage`, which is what Volley sends (MegaTraveller's wounds lower characteristics).
 * - Weapons are embedded items of type `weapon`: `system.rateOfFire` (free text, e.g. "1/4" in the
 *   Classic Traveller compendium: single shot, bursts of 4; "3" or "1/4/10" in the Cepheus ones),
 *   `system.doubleTap`, `system.rangeBand` (Classic Traveller weapon categories such as `autoPistol`,
 *   `autoRifle`, `submachinegun`), `system.weaponType`, `system.features` and `system.traits`, `system.ammo`
 *   (its default magazine size), `system.useConsumableForAttack` (the id of the magazine item it fires
 *   from) and `system.skill` (the id of its skill item).
 * - Rounds are counted on that magazine, a `consumable` item: `system.currentCount` of `system.max`,
 *   `system.quantity` spare magazines. The system spends ammunition by writing `system.currentCount`;
 *   Volley does the same. A weapon with no linked magazine has no rounds count in Twodsix, so Volley
 *   keeps it in its flags, as it keeps the weapon's readiness and fire selector.
 * - Skills are items of type `skills` (plural: Twodsix's `system.json` document types and its skill
 *   packs name it so) with `system.value` (the level); a weapon with no skill uses the actor's
 *   `system.untrainedSkill`.
 * - The pre-made actors Twodsix ships (`packs-src/*-actors`) carry no magazine items and mostly no Classic
 *   Traveller range band: `system.range`/`rangeBand` hold "10/50"-style distances, `weaponType` is
 *   "ranged", "melee", "Thrown" or empty (natural attacks: bites, claws, unarmed, robot tools), and
 *   `ammo` the magazine size as a number (the data model migrates "30" to 30).
 *
 * Twodsix has no MegaTraveller rule set, so the RCS fields are read "as best the data allows"
 * (named, overridable readings through `twodsixAdapter(options)`):
 * - `kind` (pistol, rifle, heavy: it sets the bring-to-bear DM when retargeting) from the range band
 *   (`kinds`), else from words in the weapon type or name (`kindWords`: a stunner is a pistol, a bow a
 *   rifle); neither: `unknownKind`, the RCS rules' own default (`rifle`). Set `unknownKind` to null to
 *   have such weapons reported instead.
 * - Rate of fire, decided per the world's autofire rules (Twodsix's `autofireRulesUsed` setting, else its
 *   `ruleset`'s own, else Cepheus Engine's, Twodsix's default):
 *   - under Cepheus Light's (Cepheus Deluxe, Alpha Cephei, Cepheus Light, Faster Than Light, Atom,
 *     Deluxe Enhanced, Light Upgraded, Mongoose 2e) and Cepheus Universal's autofire rules, a lone figure
 *     of 2 or more is the weapon's "Auto N": **automatic** fire, Auto Tgts the attacks Twodsix's full
 *     auto makes (N; Cepheus Universal's Auto 4 makes 2, Auto 10 or 20 makes 3) (`autoRatingRules`);
 *   - otherwise each figure after the first in "a/b/c" (or a lone figure of 2 or more) is a firing
 *     setting: 2, 3 or 4 rounds is a fixed **burst**; 5 or more, or "A"/"Auto", is **automatic** fire.
 *   Classic Traveller's automatic weapons (`autoRifle`, `submachinegun` range bands) fire automatic,
 *   and their "1/4" is that automatic fire (CT's bursts of four), not a fixed-burst setting.
 *   `doubleTap` means the weapon fires **rapid** (RCS's "/R"). No Twodsix data says a Classic Traveller
 *   Automatic Pistol fires rapid: the referee says so in its Features ("Rapid") or ticks Double Tap
 *   (shown on the weapon's sheet when Twodsix's "Show Double Tap" setting is on).
 * - The referee can state the RCS ratings outright in the weapon's Features or Traits, comma-separated:
 *   "Rapid" (or "/R", "Double Tap"), "Burst 4", "Auto", "Auto Tgts 2" (Cepheus "Auto 2" reads the same).
 *   Auto Tgts defaults to 1, the rules' own default, when nothing gives it.
 * - Weapons that are not firearms are refused, each once with its reason (the dialog lists them):
 *   melee weapons (`weaponType` "melee", `range` "melee", a melee range band, as Twodsix's own
 *   `isMeleeWeapon` tells them), thrown weapons and explosives (`weaponType` "thrown", "explosive" or
 *   "demolition", "thrown" in the range band or range, or a grenade, Molotov, dynamite... by name:
 *   `thrownTypes`, `thrownWords`), and natural attacks (no weapon type, no range, no magazine, and a
 *   damage type no gun deals, or a blade's or a tool's name: a bite, a claw, a Laser Welder).
 * - A weapon with no type, range or magazine whose damage type only a gun deals (`gunDamageTypes`:
 *   laser, ballistic, plasma) is a gun: the Warbot's "Robot Laser". A powered one (`poweredDamageTypes`:
 *   laser, plasma) with no magazine at all that fires single shots has one shot always ready, as Twodsix
 *   spends nothing for it (`consumeAmmo` spends only from a linked magazine); nothing is written back.
 * - A reload writes the magazine's rounds only: Twodsix's spare-magazine count (`quantity`) is left to
 *   its own Reload button.
 *
 * Pure: plain actor data in, plain data out.
 */

import { itemWeaponId } from "./identity.js";
import { ProblemLog, integerOf, isRecord, itemsOf, loadedOf, quoted, readInteger } from "./reading.js";

/**
 * @typedef {import("../profile/types.js").VolleyWeapon} VolleyWeapon
 * @typedef {import("../profile/types.js").WeaponState} WeaponState
 * @typedef {import("../profile/types.js").CharacterNumbers} CharacterNumbers
 * @typedef {import("../profile/types.js").DocumentWrite} DocumentWrite
 * @typedef {import("../profile/types.js").GameSystemAdapter} GameSystemAdapter
 * @typedef {import("./reading.js").Problem} Problem
 * @typedef {import("./reading.js").Refusal} Refusal
 */

/** The `game.system.id` of Twodsix. */
export const GAME_SYSTEM = "twodsix";

/** The version of Twodsix this adapter was written against. */
export const READ_FROM = "xdy/twodsix-foundryvtt 7.5.2 (bddb68eac389f199027f41f5ca77af0c1631b907)";

/**
 * The Twodsix versions this adapter reads: the data model of 7.5.x, which its fixtures follow; on
 * Foundry 14 only (7.1.0 and later require it: 7.5.2's system.json, compatibility minimum 14, verified
 * 14.361; 7.0.0 was the last for Foundry 13).
 */
export const SUPPORTED_VERSIONS = Object.freeze({ system: "Twodsix", min: "7.5.0", below: "8.0.0", tested: "7.5.2", foundry: Object.freeze({ min: 14, max: 14 }) });

/** Volley's readings of Twodsix's data for RCS; see the header. */
export const TWODSIX_DEFAULTS = Object.freeze({
  /** Range band (Classic Traveller and Cepheus weapon categories) to RCS weapon kind. */
  kinds: Object.freeze(/** @type {Record<string, "pistol" | "rifle" | "heavy">} */ ({
    bodyPistol: "pistol",
    autoPistol: "pistol",
    revolver: "pistol",
    pistol: "pistol",
    carbine: "rifle",
    rifle: "rifle",
    autoRifle: "rifle",
    shotgun: "rifle",
    submachinegun: "rifle",
    laserCarbine: "rifle",
    laserRifle: "rifle",
    assaultWeapon: "rifle",
    rocket: "heavy",
  })),
  /** Words in the weapon type or name that tell the kind, tried in this order. */
  kindWords: Object.freeze(/** @type {[RegExp, "pistol" | "rifle" | "heavy"][]} */ ([
    [/\b(pistol|revolver|handgun|derringer|stunner|snub)\b/i, "pistol"],
    [/\b(heavy|support|launcher|machine ?gun|cannon|lmg|gpmg|missile|rocket)\b/i, "heavy"],
    [/\b(rifle|carbine|shotgun|smg|sub-?machine ?gun|assault|(cross)?bow|musket)\b/i, "rifle"],
  ])),
  /** Weapon types and names of thrown weapons and explosives (refused: RCS fires guns), as the Cepheus
   * compendiums write them ("Fragmentation Grenade" typed "ranged", "Dynamite", "Plastique"); a grenade
   * launcher is a gun. */
  thrownTypes: Object.freeze(["thrown", "explosive", "demolition"]),
  thrownWords: /\b(grenades?(?!\s*launcher)|molotov|dynamite|plastique|pipe bomb|bomb|flashbang)\b/i,
  /** The kind of a firearm nothing else tells (the RCS rules' default); null reports it instead. */
  unknownKind: /** @type {"pistol" | "rifle" | "heavy" | null} */ ("rifle"),
  /** Range bands of Classic Traveller weapons that fire automatic. */
  automaticBands: Object.freeze(["autoRifle", "submachinegun"]),
  /** Range bands of melee weapons: Classic Traveller's, Cepheus Engine's and Cepheus Universal's
   * (Twodsix `isMeleeWeapon`), and the words its packs use ("reach", "close"). */
  meleeBands: Object.freeze([
    "hands", "claws", "teeth", "horns", "hooves", "stinger", "thrasher", "club", "dagger", "blade", "foil",
    "cutlass", "sword", "broadsword", "bayonet", "spear", "halberd", "pike", "cudgel",
    "closeQuarters", "extendedReach", "close", "personal", "reach", "melee",
  ]),
  /** Auto Tgts when the weapon fires automatic and nothing gives the rating (the rules' default). */
  autoTargets: 1,
  /** The world's rule set, Twodsix's `ruleset` setting ("CE", "CD", "AC", "CU"...; Twodsix's default is
   * "CE"). `adapterForGame` reads it from `game.settings`. */
  ruleset: /** @type {string | null} */ (null),
  /** The world's autofire rules, Twodsix's `autofireRulesUsed` setting ("CE", "CEL", "CT", "CU"; the
   * referee may set it apart from the rule set). When unknown, the rule set's own (`rulesetAutofire`). */
  autofireRules: /** @type {string | null} */ (null),
  /** Each rule set's autofire rules, as Twodsix 7.5.2 sets them when the rule set is chosen
   * (`RULESETS[key].settings.autofireRulesUsed` in src/module/config.js). */
  rulesetAutofire: Object.freeze(/** @type {Record<string, string>} */ ({
    CT: "CT", CE: "CE", CEL: "CEL", CEFTL: "CEL", CEATOM: "CEL", BARBARIC: "CE", CEQ: "CE", CD: "CEL", CDEE: "CEL",
    CLU: "CEL", SOC: "CE", AC: "CEL", CU: "CU", MGT2E: "CEL", RIDER: "RIDER",
  })),
  /** Autofire rules under which a lone RoF of 2 or more is the weapon's "Auto N" (Cepheus Light's, used by
   * Cepheus Deluxe, Alpha Cephei and the rest of its family; Cepheus Universal's): single shots, a burst
   * or full automatic fire, never a fixed burst. Twodsix's `resolveUnknownAutoMode` reads it so. */
  autoRatingRules: Object.freeze(["CEL", "CU"]),
  /** Damage types only a gun deals: a weapon with no type, range or magazine but one of these (the
   * Warbot's "Robot Laser") is a gun, not a natural attack, unless its name is a blade's or a tool's. */
  gunDamageTypes: Object.freeze(["laser", "ballistic", "plasma"]),
  bladeOrToolWords: /\b(rapier|sword|blade|knife|dagger|axe|drill|welder|cutter|saw|torch|whip|club)\b/i,
  /** Damage types of weapons fed by a power source, not a magazine: with no magazine in Twodsix's data
   * (it spends nothing for them), such a weapon that fires single shots reads with one shot always ready. */
  poweredDamageTypes: Object.freeze(["laser", "plasma"]),
});

/** A rate-of-fire token meaning automatic fire. */
const AUTO_TOKEN = /^(a|auto|fa|full(\s*auto)?)$/i;
/** Feature tokens stating RCS ratings. */
const RAPID_FEATURE = /^(rapid|\/r|double[\s-]?tap)$/i;
const BURST_FEATURE = /^burst\s*\(?\s*(\d+)\s*\)?$/i;
const AUTO_FEATURE = /^auto(?:\s*tgts?\.?)?(?:\s*\(?\s*(\d+)\s*\)?)?$/i;

/**
 * The Twodsix adapter.
 * @param {Partial<typeof TWODSIX_DEFAULTS>} [options]
 * @returns {GameSystemAdapter}
 */
export function twodsixAdapter(options = {}) {
  const settings = { ...TWODSIX_DEFAULTS, ...options };
  return {
    gameSystem: GAME_SYSTEM,
    ruleSystem: "megatraveller",
    supported: SUPPORTED_VERSIONS,
    readActor(actor) {
      return readTwodsixActor(actor, settings);
    },
    writeState(actor, weapon, state) {
      return writeTwodsixState(actor, weapon, state);
    },
  };
}

/**
 * @param {Record<string, any>} actor the actor's prepared data (`actor.toObject(false)`)
 * @param {typeof TWODSIX_DEFAULTS} settings
 * @returns {{character: CharacterNumbers, weapons: VolleyWeapon[], problems: Problem[], refused: Refusal[]}}
 */
function readTwodsixActor(actor, settings) {
  const log = new ProblemLog();
  /** @type {VolleyWeapon[]} */
  const weapons = [];
  if (!isRecord(actor) || !isRecord(actor.system)) {
    log.add("system", "actor.invalid");
    return { character: {}, weapons, problems: log.problems, refused: log.refused };
  }
  const dex = readDexterity(actor.system, log);
  const items = itemsOf(actor);
  const byId = new Map(items.map((item) => [item._id, item]));
  const ids = new Set();
  const legacy = new Set();
  for (const item of items) {
    if (item.type !== "weapon") continue;
    const name = typeof item.name === "string" && item.name.trim() !== "" ? item.name.trim() : item._id;
    if (!isRecord(item.system)) {
      log.add(`items.${item._id}.system`, "field.missing", { what: `the data of ${quoted(name)}` });
      continue;
    }
    const refusal = refusalOf(item.system, name, settings);
    if (refusal !== null) {
      log.refuse(`items.${item._id}`, name, refusal.key, refusal.values);
      continue;
    }
    const weapon = readWeapon(item, actor.system, byId, settings, log);
    if (weapon !== null) weapons.push({ ...weapon, ...itemWeaponId(ids, "twodsix", item._id, "twodsix", legacy) });
  }
  return { character: { megatraveller: dex === null ? {} : { dex } }, weapons, problems: log.problems, refused: log.refused };
}

/**
 * Dexterity as Twodsix prepares it: the value less its damage.
 * @param {Record<string, any>} system
 * @param {ProblemLog} log
 */
function readDexterity(system, log) {
  const path = "system.characteristics.dexterity";
  const dexterity = isRecord(system.characteristics) ? system.characteristics.dexterity : undefined;
  if (!isRecord(dexterity)) {
    log.add(path, "field.missing", { what: "Dexterity" });
    return null;
  }
  const current = integerOf(dexterity.current);
  if (current !== null && current >= 0 && current <= 30) return current;
  const value = readInteger(log, `${path}.value`, dexterity.value, { what: "Dexterity", min: 0, max: 30 });
  const damage = readInteger(log, `${path}.damage`, dexterity.damage ?? 0, { what: "damage to Dexterity", min: 0, max: 30 });
  if (value === null || damage === null) return null;
  return Math.max(0, value - damage);
}

/**
 * Why a weapon item is not a firearm Volley fires, or null when it is one.
 * @param {Record<string, any>} system a weapon's system data
 * @param {string} name the weapon's name
 * @param {typeof TWODSIX_DEFAULTS} settings
 * @returns {{key: "refused.melee" | "refused.thrown" | "refused.natural", values?: Record<string, unknown>} | null}
 */
function refusalOf(system, name, settings) {
  const type = typeof system.weaponType === "string" ? system.weaponType.trim().toLowerCase() : "";
  const range = typeof system.range === "string" || typeof system.range === "number" ? String(system.range).trim().toLowerCase() : "";
  const band = typeof system.rangeBand === "string" ? system.rangeBand.trim() : "";
  if (type === "melee" || range === "melee" || settings.meleeBands.includes(band)) return { key: "refused.melee" };
  if (settings.thrownTypes.includes(type) || /\bthrown\b/i.test(band) || /\bthrown\b/i.test(range)) return { key: "refused.thrown" };
  if (settings.thrownWords.test(name)) return { key: "refused.thrown" };
  if (type === "" && !hasRange(range, band, settings) && !hasMagazine(system) && !isGun(system, name, settings)) return { key: "refused.natural" };
  return null;
}

/**
 * Whether a weapon's damage type is one only a gun deals (and its name is not a blade's or a tool's).
 * @param {Record<string, any>} system
 * @param {string} name
 * @param {typeof TWODSIX_DEFAULTS} settings
 */
function isGun(system, name, settings) {
  const damageType = typeof system.damageType === "string" ? system.damageType.trim().toLowerCase() : "";
  return settings.gunDamageTypes.includes(damageType) && !settings.bladeOrToolWords.test(name);
}

/**
 * Whether the weapon has a range: a Classic Traveller firearm band, or a distance above 0 ("10/50", "300").
 * @param {string} range
 * @param {string} band
 * @param {typeof TWODSIX_DEFAULTS} settings
 */
function hasRange(range, band, settings) {
  if (Object.hasOwn(settings.kinds, band)) return true;
  return [range, band].some((text) => {
    const first = Number.parseFloat(text.split("/")[0]);
    return Number.isFinite(first) && first > 0;
  });
}

/**
 * Whether the weapon has a magazine: a linked consumable, or a magazine size above 0.
 * @param {Record<string, any>} system
 */
function hasMagazine(system) {
  if (typeof system.useConsumableForAttack === "string" && system.useConsumableForAttack.trim() !== "") return true;
  return ["ammo", "magazineSize"].some((field) => (integerOf(system[field]) ?? 0) > 0);
}

/**
 * One weapon item as Volley's MegaTraveller weapon, or null with problems logged.
 * @param {Record<string, any>} item
 * @param {Record<string, any>} actorSystem
 * @param {Map<string, Record<string, any>>} byId the actor's items by id
 * @param {typeof TWODSIX_DEFAULTS} settings
 * @param {ProblemLog} log
 * @returns {Omit<VolleyWeapon, "id"> | null}
 */
function readWeapon(item, actorSystem, byId, settings, log) {
  const system = item.system;
  const path = `items.${item._id}.system`;
  const name = typeof item.name === "string" && item.name.trim() !== "" ? item.name.trim() : item._id;
  const before = log.count;

  const kind = readKind(item, name, settings, log);
  const fire = readFiring(system, path, settings, log);
  const magazine = readMagazine(system, path, name, byId, fire, settings, log);
  const skill = readSkill(system, path, name, actorSystem, byId, log);
  if (log.count > before || kind === null || fire === null || magazine === null || skill === null) return null;
  return {
    system: "megatraveller",
    name,
    stats: { kind, ...fire, capacity: magazine.capacity },
    state: magazine.loaded === null ? {} : { loaded: magazine.loaded },
    skill,
    source: { kind: "adapter", adapter: GAME_SYSTEM, ref: item._id },
  };
}

/**
 * @param {Record<string, any>} item
 * @param {string} name
 * @param {typeof TWODSIX_DEFAULTS} settings
 * @param {ProblemLog} log
 * @returns {"pistol" | "rifle" | "heavy" | null}
 */
function readKind(item, name, settings, log) {
  const band = String(item.system.rangeBand ?? "");
  if (Object.hasOwn(settings.kinds, band)) return settings.kinds[band];
  for (const text of [item.system.weaponType, name]) {
    if (typeof text !== "string") continue;
    const found = settings.kindWords.find(([words]) => words.test(text));
    if (found !== undefined) return found[1];
  }
  if (settings.unknownKind !== null) return settings.unknownKind;
  log.add(`items.${item._id}.system.rangeBand`, "twodsix.kind.unknown", { name: quoted(name) });
  return null;
}

/**
 * The RCS firing ratings from the rate of fire, double tap, range band, features and traits.
 * @param {Record<string, any>} system
 * @param {string} path
 * @param {typeof TWODSIX_DEFAULTS} settings
 * @param {ProblemLog} log
 * @returns {{rapid: boolean, burst: number | null, auto: boolean, auto_targets: number} | null}
 */
function readFiring(system, path, settings, log) {
  const before = log.count;
  const autofire = autofireRulesOf(settings);
  const autoRating = settings.autoRatingRules.includes(autofire);
  let rapid = system.doubleTap === true;
  /** @type {number | null} */
  let burst = null;
  const automaticBand = settings.automaticBands.includes(String(system.rangeBand ?? ""));
  let auto = automaticBand;
  /** @type {number | null} */
  let autoTargets = null;

  const text = typeof system.rateOfFire === "number" ? String(system.rateOfFire) : system.rateOfFire;
  if (typeof text !== "string") {
    if (text !== undefined && text !== null) log.add(`${path}.rateOfFire`, "twodsix.rof.invalid", { value: quoted(text) });
  } else if (text.trim() !== "") {
    const tokens = text.split(/[/\-,]/).map((token) => token.trim());
    tokens.forEach((token, index) => {
      if (AUTO_TOKEN.test(token)) {
        auto = true;
        return;
      }
      const figure = /^\d{1,3}$/.test(token) ? Number(token) : null;
      if (figure === null) {
        log.add(`${path}.rateOfFire`, "twodsix.rof.invalid", { value: quoted(text) });
        return;
      }
      if (index === 0 && tokens.length > 1) return; // the single-shot setting
      if (tokens.length === 1 && figure >= 2 && autoRating) {
        // "Auto N" (Cepheus Light's family, Cepheus Universal): automatic fire, N attacks at most.
        auto = true;
        autoTargets ??= Math.min(MAX_AUTO_TARGETS, attacksOf(figure, autofire));
        return;
      }
      if (figure >= 5 || (figure >= 2 && automaticBand)) auto = true;
      else if (figure >= 2 && burst === null) burst = figure;
    });
  }

  const features = [
    ...(typeof system.features === "string" ? system.features.split(/[,;]/) : []),
    ...(Array.isArray(system.traits) ? system.traits.filter((trait) => typeof trait === "string") : []),
  ].map((feature) => feature.trim());
  for (const feature of features) {
    if (RAPID_FEATURE.test(feature)) rapid = true;
    const burstMatch = BURST_FEATURE.exec(feature);
    if (burstMatch !== null) {
      const size = Number(burstMatch[1]);
      if (size >= 2 && size <= 4) burst = size;
      else log.add(`${path}.features`, "twodsix.burst.invalid", { value: quoted(feature) });
    }
    const autoMatch = AUTO_FEATURE.exec(feature);
    if (autoMatch !== null) {
      auto = true;
      if (autoMatch[1] !== undefined) autoTargets = Number(autoMatch[1]);
    }
  }
  if (log.count > before) return null;
  return { rapid, burst, auto, auto_targets: auto ? (autoTargets ?? settings.autoTargets) : 0 };
}

/** The rules' most Auto Tgts (rules/megatraveller/requests.py, MAX_AUTO_TARGETS). */
const MAX_AUTO_TARGETS = 24;

/**
 * The world's autofire rules: Twodsix's `autofireRulesUsed` when known, else its rule set's own, else
 * Twodsix's default rule set's ("CE").
 * @param {typeof TWODSIX_DEFAULTS} settings
 */
export function autofireRulesOf(settings) {
  if (typeof settings.autofireRules === "string" && settings.autofireRules.trim() !== "") return settings.autofireRules.trim().toUpperCase();
  const ruleset = typeof settings.ruleset === "string" ? settings.ruleset.trim().toUpperCase() : "";
  return settings.rulesetAutofire[ruleset] ?? settings.rulesetAutofire.CE ?? "CE";
}

/**
 * Attacks Twodsix's full automatic fire makes for "Auto N" (`getNumberOfAttacks`): N, but Cepheus
 * Universal's Auto 4 makes 2 and its Auto 10 or 20 makes 3. Volley reads them as Auto Tgts, as it reads
 * a Cepheus "Auto 2" written in the features.
 * @param {number} figure
 * @param {string} autofire
 */
function attacksOf(figure, autofire) {
  if (autofire === "CU") return figure === 4 ? 2 : figure === 10 || figure === 20 ? 3 : figure;
  return figure;
}

/**
 * Capacity and rounds loaded: from the linked magazine, else the default magazine size (rounds then
 * live in Volley's flags); a powered weapon with neither that fires single shots has one shot always
 * ready (Twodsix spends nothing for it, so Volley counts nothing).
 * @param {Record<string, any>} system
 * @param {string} path
 * @param {string} name
 * @param {Map<string, Record<string, any>>} byId
 * @param {{rapid: boolean, burst: number | null, auto: boolean} | null} fire
 * @param {typeof TWODSIX_DEFAULTS} settings
 * @param {ProblemLog} log
 * @returns {{capacity: number, loaded: number | null} | null}
 */
function readMagazine(system, path, name, byId, fire, settings, log) {
  const link = typeof system.useConsumableForAttack === "string" ? system.useConsumableForAttack.trim() : "";
  if (link !== "") {
    const magazine = byId.get(link);
    if (magazine === undefined || magazine.type !== "consumable" || !isRecord(magazine.system)) {
      log.add(`${path}.useConsumableForAttack`, "twodsix.magazine.missing", { id: quoted(link) });
      return null;
    }
    const at = `items.${link}.system`;
    const capacity = readInteger(log, `${at}.max`, magazine.system.max, { what: "the magazine's size", min: 1, max: 100000 });
    const loaded = readInteger(log, `${at}.currentCount`, magazine.system.currentCount, { what: "rounds in the magazine", min: 0, max: 100000 });
    if (capacity === null || loaded === null) return null;
    if (loaded > capacity) {
      log.add(`${at}.currentCount`, "twodsix.magazine.over", { value: loaded, max: capacity });
      return null;
    }
    return { capacity, loaded };
  }
  for (const field of ["ammo", "magazineSize"]) {
    const size = integerOf(system[field]);
    if (size !== null && size >= 1) return { capacity: size, loaded: null };
  }
  const damageType = typeof system.damageType === "string" ? system.damageType.trim().toLowerCase() : "";
  const singleOnly = fire !== null && !fire.rapid && fire.burst === null && !fire.auto;
  if (singleOnly && settings.poweredDamageTypes.includes(damageType)) return { capacity: 1, loaded: 1 };
  log.add(`${path}.ammo`, "twodsix.magazine.none", { name: quoted(name) });
  return null;
}

/**
 * The level of the weapon's skill (or of the actor's untrained skill).
 * @param {Record<string, any>} system
 * @param {string} path
 * @param {string} name
 * @param {Record<string, any>} actorSystem
 * @param {Map<string, Record<string, any>>} byId
 * @param {ProblemLog} log
 */
function readSkill(system, path, name, actorSystem, byId, log) {
  const own = typeof system.skill === "string" ? system.skill.trim() : "";
  const untrained = typeof actorSystem.untrainedSkill === "string" ? actorSystem.untrainedSkill.trim() : "";
  const [id, field] = own !== "" ? [own, `${path}.skill`] : [untrained, "system.untrainedSkill"];
  if (id === "") {
    log.add(`${path}.skill`, "twodsix.skill.missing", { name: quoted(name) });
    return null;
  }
  const skill = byId.get(id);
  if (skill === undefined || skill.type !== "skills" || !isRecord(skill.system)) {
    log.add(field, "twodsix.skill.unknown", { id: quoted(id) });
    return null;
  }
  return readInteger(log, `items.${id}.system.value`, skill.system.value, { what: "the skill level", min: -10, max: 30 });
}

/**
 * The magazine's rounds after the action, as Twodsix's own `consume` writes them.
 * @param {Record<string, any>} actor
 * @param {VolleyWeapon} weapon
 * @param {WeaponState} state
 * @returns {DocumentWrite[]}
 */
function writeTwodsixState(actor, weapon, state) {
  const loaded = loadedOf(state);
  if (loaded === undefined || weapon.source?.kind !== "adapter" || !isRecord(actor)) return [];
  const ref = weapon.source.ref;
  const items = itemsOf(actor);
  const item = items.find((candidate) => candidate._id === ref);
  const link = typeof item?.system?.useConsumableForAttack === "string" ? item.system.useConsumableForAttack.trim() : "";
  const magazine = items.find((candidate) => candidate._id === link && candidate.type === "consumable");
  if (link === "" || magazine === undefined) return [];
  return [{ documentName: "Item", id: link, changes: { "system.currentCount": loaded } }];
}
