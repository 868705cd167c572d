// The sandbox's demo scenes: one per rule system, each a shooter with a few weapons (owned by the
// player) and three targets (the referee's), the targets targeted from the start so Fire works at once.
// Profiles are in the module's own format (flags.volley.profile, scripts/profile/profile.js).

const PLAYER = "pl0000000000000b";

/**
 * Users of the sandbox world. Each is connected while a page is open as them (the referee's page, the
 * player's view, a page opened with ?as=coreferee or ?as=assistant): pages announce themselves to each
 * other. Roles are Foundry's (CONST.USER_ROLES): 4 a game master, 3 an assistant GM, 1 a player.
 */
export const USERS = [
  { id: "gm0000000000000a", name: "Referee", role: 4 },
  { id: PLAYER, name: "Player", role: 1 },
  { id: "gm0000000000000c", name: "Co-referee", role: 4 },
  { id: "as0000000000000d", name: "Assistant", role: 3 },
];

const owned = { [PLAYER]: 3 };

function profile(system, character, weapons, current = weapons[0]?.id) {
  return { volley: { profile: { character: { [system]: character }, weapons: weapons.map((w) => ({ ...w, system })), current: { [system]: current } } } };
}

/** A token's own Volley state (MegaTraveller's target lock...) beside its profile. */
function withState(flags, state) {
  return { volley: { ...flags.volley, state } };
}

export const SCENES = [
  {
    id: "sceneGurps000001",
    name: "GURPS",
    system: "gurps",
    tokens: [
      {
        id: "tokHale000000001",
        name: "Sgt. Hale",
        x: 20,
        y: 160,
        ownership: owned,
        actor: {
          flags: profile("gurps", { armoury: 12, iq_minus_dx: -1, dodge: 9 }, [
            { id: "wMp5000001", name: "MP5", skill: 14, stats: { rof: 13, rcl: 2, capacity: 30, malf: 17 }, state: { loaded: 30, jammed: false } },
            { id: "wShotgun01", name: "Remington 870", skill: 13, stats: { rof: "3x9", rcl: 1, capacity: 5, malf: 17 }, state: { loaded: 5, jammed: false } },
            { id: "wGlock0001", name: "Glock 17", skill: 13, stats: { rof: 3, rcl: 2, capacity: 17, malf: 17 }, state: { loaded: 17, jammed: false } },
          ]),
        },
      },
      { id: "tokRaider0000002", name: "Raider", x: 300, y: 30, target: true, actor: { flags: profile("gurps", { dodge: 8 }, []) } },
      { id: "tokLookout000003", name: "Lookout", x: 320, y: 170, target: true, actor: { flags: profile("gurps", { dodge: 9 }, []) } },
      { id: "tokSentry0000004", name: "Sentry", x: 290, y: 310, target: true, actor: { flags: profile("gurps", {}, []) } },
    ],
  },
  {
    // MegaTraveller: Kira Rhyne's autorifle is ready on automatic and locked on the raider; her
    // submachinegun is slung, her autopistol holstered (for fast draw). Corporal Dace, her ally, stands
    // just past the Vargr leader: in the danger space of automatic fire at the leader (tokens are 2 x 1
    // squares on the stand-in's 70 px grid, so his centre is 1.7 squares past the leader's).
    id: "sceneMegaTrav001",
    name: "MegaTraveller",
    system: "megatraveller",
    tokens: [
      {
        id: "tokKira000000001",
        name: "Kira Rhyne",
        x: 20,
        y: 160,
        ownership: owned,
        actor: {
          flags: withState(
            profile("megatraveller", { dex: 10 }, [
              {
                id: "wAutorifle",
                name: "Autorifle",
                skill: 2,
                stats: { kind: "rifle", rapid: false, burst: 4, auto: true, auto_targets: 2, capacity: 20 },
                state: { loaded: 20, readiness: "ready", selector: "auto" },
              },
              {
                id: "wSmg000001",
                name: "Submachinegun",
                skill: 1,
                stats: { kind: "rifle", rapid: true, burst: null, auto: true, auto_targets: 2, capacity: 30 },
                state: { loaded: 30, readiness: "slung", selector: "single" },
              },
              {
                id: "wAutopist1",
                name: "Autopistol",
                skill: 3,
                stats: { kind: "pistol", rapid: true, burst: null, auto: false, auto_targets: 1, capacity: 15 },
                state: { loaded: 15, readiness: "holstered", selector: "single" },
              },
            ]),
            { target: "tokVargr00000002" },
          ),
        },
      },
      { id: "tokVargr00000002", name: "Vargr raider", x: 300, y: 30, target: true, actor: { flags: profile("megatraveller", { dex: 8 }, []) } },
      { id: "tokVargr00000003", name: "Vargr leader", x: 320, y: 170, target: true, actor: { flags: profile("megatraveller", { dex: 9 }, []) } },
      { id: "tokVargr00000004", name: "Vargr scout", x: 290, y: 310, target: true, actor: { flags: profile("megatraveller", { dex: 7 }, []) } },
      { id: "tokDace000000005", name: "Cpl. Dace", x: 440, y: 200, actor: { flags: profile("megatraveller", { dex: 8 }, []) } },
    ],
  },
  {
    id: "sceneD100000001",
    name: "d100",
    system: "d100",
    // A grid square is 1.4 m: the Heretic and the Cultist stand 1.9 m apart (a burst's extra hits reach
    // 2 m), and a 45° sector pointed between them leaves the demagogue out.
    grid: { size: 70, distance: 1.4, units: "m" },
    tokens: [
      {
        id: "tokVex0000000001",
        name: "Vex",
        x: 20,
        y: 190,
        ownership: owned,
        actor: {
          flags: profile("d100", { bs: 45, wp: 35, tech_use: 40, weaponsmith: 35 }, [
            { id: "wAutogun01", name: "Autogun", stats: { class: "rifle", rof: "S/3/10", capacity: 30, reliability: 0, range: 90 }, state: { loaded: 30, jammed: false, spoiled: 0, braced: false } },
            {
              id: "wStubber01",
              name: "Heavy stubber",
              stats: { class: "heavy", rof: "-/-/10", capacity: 100, reliability: "Unreliable", range: 100 },
              state: { loaded: 100, jammed: false, spoiled: 0, braced: true },
            },
            {
              id: "wStubRev01",
              name: "Stub revolver",
              stats: { class: "pistol", rof: "S/-/-", capacity: 6, reliability: "Reliable", range: 30 },
              state: { loaded: 6, jammed: false, spoiled: 0, braced: false },
            },
          ]),
        },
      },
      { id: "tokHeretic0000002", name: "Heretic", x: 300, y: 100, target: true, actor: { flags: profile("d100", { bs: 30, wp: 35 }, []) } },
      { id: "tokCultist0000003", name: "Cultist", x: 300, y: 195, target: true, actor: { flags: profile("d100", { bs: 25, wp: 28 }, []) } },
      { id: "tokDemagogue00004", name: "Cult demagogue", x: 250, y: 340, target: true, actor: { flags: profile("d100", { bs: 30, wp: 40 }, []) } },
    ],
  },
];

/** The scene switch's options. */
export const SCENE_BY_SYSTEM = Object.fromEntries(SCENES.map((scene) => [scene.system, scene]));
