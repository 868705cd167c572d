// Foundry VTT v13 types for `tsc --noEmit` over the module's JavaScript (see jsconfig.json).
// The package comes from the npm registry tarball (tools/install-foundry-types.mjs), not from
// `npm install`, whose GitHub-hosted dependencies cannot be fetched here.
import "@league-of-foundry-developers/foundry-vtt-types";
import type { VolleyApi, VolleyHooks } from "../scripts/volley-api";

// Volley's own hooks (scripts/foundry/attack-hooks.js), typed from the shipped declaration.
declare module "@league-of-foundry-developers/foundry-vtt-types/configuration" {
  namespace Hooks {
    interface HookConfig extends VolleyHooks {}
  }
}

/** What the module keeps on an actor under `flags.volley` (scripts/profile/profile.js). */
interface VolleyActorFlags {
  profile?: {
    character?: Record<string, Record<string, unknown>>;
    weapons?: unknown[];
    current?: Record<string, string>;
  };
  /** The token's own Volley state: target lock, overwatch order, cover (scripts/updates.js). */
  state?: Record<string, unknown>;
  /** State of adapter weapons their game system has no field for (scripts/profile/weapons.js). */
  adapterState?: Record<string, Record<string, unknown>>;
  [flag: string]: unknown;
}

declare global {
  // The glue only touches `game` from `init` on and mostly after `ready`.
  interface AssumeHookRan {
    ready: never;
  }
  interface SettingConfig {
    /** The old world setting of the bridge's address: read once per browser, then unused. */
    "volley.bridgeUrl": string;
    /** This browser's bridge address (client scope; loopback when empty). */
    "volley.bridgeAddress": string;
    /** The address off this machine this browser's referee confirmed. */
    "volley.bridgeAddressConfirmed": string;
    "volley.bridgeAddressMigrated": boolean;
    "volley.token": string;
    "volley.timeout": number;
    "volley.ruleSystem": string;
    "volley.playersEditProfiles": boolean;
    "volley.overwatchEndsOnTurn": boolean;
    /** The table rules (scripts/foundry/table-rules.js): `{<system>: {<field>: value}}`. */
    "volley.tableRules": Record<string, Record<string, unknown>>;
  }
  interface FlagConfig {
    Actor: { volley: VolleyActorFlags };
    User: { volley: { bridgeToken?: boolean } };
    ChatMessage: { volley: Record<string, unknown> };
    /** A hotbar macro's weapon (scripts/foundry/hotbar.js). */
    Macro: { volley: { weapon?: { tokenId: string | null; actorId: string | null; weaponId: string } } };
    /** Whose turns have begun in the furthest round (scripts/standing-orders.js, `TurnsBegun`). */
    Combat: { volley: { turnsBegun?: { round: number; combatants: string[] } } };
  }
  interface ModuleConfig {
    volley: {
      /** The module API (scripts/foundry/api.js), typed by the declaration it ships (scripts/volley-api.d.ts). */
      api: VolleyApi;
    };
  }
}
