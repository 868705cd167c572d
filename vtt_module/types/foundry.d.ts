// Foundry VTT v13 types for `tsc --noEmit` over the module's JavaScript (see jsconfig.json).
// The package comes from the npm registry tarball (scripts/install-foundry-types.mjs), not from
// `npm install`, whose GitHub-hosted dependencies cannot be fetched here.
import "@league-of-foundry-developers/foundry-vtt-types";

/** What the module keeps on a token under `flags.volley` (written by the bridge's updates). */
interface VolleyTokenFlags {
  skill?: number;
  weapon?: {
    name?: string;
    rof?: number | string;
    rcl?: number;
    loaded?: number;
    capacity?: number;
    malf?: number;
    jammed?: boolean;
    malfunction?: string | null;
  };
  [flag: string]: unknown;
}

declare global {
  // The glue only touches `game` from `init` on and mostly after `ready`.
  interface AssumeHookRan {
    ready: never;
  }
  interface SettingConfig {
    "volley.bridgeUrl": string;
    "volley.token": string;
    "volley.timeout": number;
  }
  interface FlagConfig {
    Token: { volley: VolleyTokenFlags };
    ChatMessage: { volley: { requestId: string; result: unknown } };
  }
  interface ModuleConfig {
    volley: {
      api: {
        openAttackDialog: (token: unknown) => Promise<unknown>;
        connection: () => unknown;
      };
    };
  }
}
