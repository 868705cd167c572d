// The types of Volley's module API, `game.modules.get("volley").api`, and of its hooks. Shipped with the
// module (modules/volley/scripts/volley-api.d.ts) for macro and module authors; the README's
// "The module API" says the same in words. Foundry's own types (TokenDocument, ChatMessage...) are the
// globals of @league-of-foundry-developers/foundry-vtt-types (v13).
//
// With those types, register the hooks' signatures once in your own .d.ts:
//
//   import type { VolleyHooks } from "./volley-api";
//   declare module "@league-of-foundry-developers/foundry-vtt-types/configuration" {
//     namespace Hooks { interface HookConfig extends VolleyHooks {} }
//   }

/** A token, as every API call takes it. */
export type VolleyTokenRef =
  | TokenDocument
  | { document: TokenDocument }
  /** a token id (on any scene) */
  | string
  /** a hotbar macro's: the token, else a token of the actor on the scene being viewed */
  | { tokenId?: string | null; actorId?: string | null }
  /** nothing: the user's one controlled token */
  | null
  | undefined;

/** A target, with its own numbers where the system's dialog has them (GURPS: shots, modifier, dodges). */
export type VolleyTargetOption =
  | VolleyTokenRef
  | { token: VolleyTokenRef; shots?: number; modifier?: number; dodges?: boolean };

/** What `fire`, `odds` and `openAttackDialog` take. Every field may be left out. */
export interface VolleyAttackOptions {
  /** The weapon's id or name in the token's Volley profile (default: the token's current weapon). */
  weapon?: string;
  /** The dialog's action: `attack` (Fire, the default) or another of its buttons (`reload`, `unjam`...). */
  action?: string;
  /** Default: the user's targeted tokens. */
  targets?: VolleyTargetOption[];
  /** The dialog's Mode (d100: `single`, `semi`, `full`, `suppressing`...; MegaTraveller: `single`, `rapid`, `burst`, `auto`...). */
  mode?: string;
  /** Shots at each target in order; a number: at the first target (GURPS). */
  shots?: number | number[];
  /** The situational modifier (the dialog's Modifier field: GURPS and d100). */
  modifier?: number;
  /** Any named field of the system's dialog, as the dialog's form names it (`targets.1.modifier`, `moved`, `how`...). */
  fields?: Record<string, string | number | boolean>;
  /**
   * Who may read the card: Foundry v14's `public`, `gm`, `blind`, `self`, `ic` (in character: public) or
   * v13's `publicroll`, `gmroll`, `blindroll`, `selfroll`; `roll` or absent: the user's own mode.
   */
  rollMode?: string;
  /** The same as `rollMode` (v14's name for it); `rollMode` wins when both are given. */
  messageMode?: string;
}

/** What the player chose, as it travels to the referee's browser (never skills or rounds). */
export interface VolleyChoice {
  system: string;
  token: string;
  weapon: string;
  action: string;
  [field: string]: unknown;
}

/** What `fire` resolves to. */
export interface VolleyFireResult {
  /** The request's id (the card's `flags.volley.requestId`). */
  id: string;
  /** `result`, or `pending` for a two-step attack waiting for its split (MegaTraveller). */
  type: "result" | "pending" | string;
  /** The rules' result: `targets[].hits`, `weapon.loaded`, `rolls`... (docs/protocol.md). */
  result: Record<string, unknown> | null;
  pending: Record<string, unknown> | null;
  card: Record<string, unknown> | null;
  /** The state changes the bridge asked for (rounds, jams, statuses). */
  updates: unknown[];
  /** The chat card, once it reached this browser (null if it did not within 10 s). */
  message: ChatMessage | null;
  choice: VolleyChoice;
}

/** The bridge's exact odds: P(k hits) per target, and the chance of a jam. */
export interface VolleyOdds {
  targets: { id: string; hits: number[]; [key: string]: unknown }[];
  jam: number;
  [key: string]: unknown;
}

/** A refusal: the form's, the bridge's or a `volley.preAttack` handler's, in the user's language. */
export declare class VolleyApiError extends Error {
  constructor(message: string, detail?: { code?: string; reply?: unknown });
  /** `cancelled` (a preAttack handler), `blocked` (the button is disabled: a jam, no targets, offline), `form`, `not_owner`, `no_token`, `no_weapon`, `bad_option`, `not_gm`, or the bridge's code. */
  code: string;
  /** The bridge's refusal or the form's problem, as it came. */
  reply: unknown;
}

export interface VolleyApi {
  /** The API's own version (semver), not the module's. */
  readonly version: string;
  /** Resolve an attack (or another of the dialog's actions) exactly as the dialog's button does. */
  fire(token?: VolleyTokenRef, options?: VolleyAttackOptions): Promise<VolleyFireResult>;
  /** The odds the dialog's preview shows for the same options. */
  odds(token?: VolleyTokenRef, options?: VolleyAttackOptions): Promise<VolleyOdds>;
  /** Open the attack dialog, pre-filled; null when it cannot open (a notification says why). */
  openAttackDialog(token?: VolleyTokenRef, options?: VolleyAttackOptions): Promise<unknown>;
  /** Take a card back (game masters only), as its Undo button does. */
  undo(messageId: string): Promise<Record<string, unknown>>;
  /** Put a weapon's macro on the hotbar (the first free slot unless `slot` is given). */
  weaponMacro(token: VolleyTokenRef, weapon: string, slot?: number): Promise<Macro | null>;
  /** The profile editor of an actor. */
  openProfileEditor(actor: Actor): Promise<unknown>;
  /** The bridge connection, in the browser that holds it (else null). */
  connection(): unknown;
  /** The hooks' names. */
  readonly hooks: { readonly preAttack: "volley.preAttack"; readonly attackResolved: "volley.attackResolved"; readonly undone: "volley.undone" };
  readonly VolleyApiError: typeof VolleyApiError;
}

/** What a `volley.preAttack` handler gets. Change `choice` (its modifiers), or `return attack.cancel("why")`. */
export interface VolleyPendingAttack {
  /** The id the request will travel under. */
  id: string;
  system: string;
  action: string;
  /** Mutable: the situational modifiers are `choice.modifier` (GURPS, d100), `choice.targets[i].modifier` (GURPS), `choice.targets[i].dm` (MegaTraveller). */
  choice: VolleyChoice;
  token: TokenDocument | null;
  /** The weapon's id in the token's Volley profile. */
  weapon: string;
  /** The dialog's Fire button, or the module API. */
  source: "dialog" | "api";
  userId: string;
  reason: string | null;
  /** Say why the attack is cancelled (shown to the user), and return false. */
  cancel(reason?: string): false;
}

/** What `volley.attackResolved` listeners get, in the browser that applied the result. */
export interface VolleyResolved {
  /** `attack`, or `action` (reload, unjam...), or `allocate` (MegaTraveller's second step). */
  type: string;
  system: string;
  /** The message sent to the bridge, with the rules request built from the actor's numbers. */
  request: Record<string, unknown>;
  choice: VolleyChoice;
  result: Record<string, unknown> | null;
  card: Record<string, unknown> | null;
  /** The state changes the bridge asked for, as they were applied. */
  updates: unknown[];
  /** The values they replaced (what Undo puts back). */
  before: unknown[];
  message: ChatMessage | null;
  token: TokenDocument | null;
  weapon: string;
  /** Who fired. */
  userId: string;
}

/** What `volley.undone` listeners get, in the browser that put the values back. */
export interface VolleyUndone {
  message: ChatMessage;
  /** The id of the request taken back. */
  requestId: string;
  system: string;
  token: string;
  /** The values put back. */
  restored: unknown;
  /** The game master who undid it. */
  userId: string;
}

/** The hooks' signatures, for `HookConfig` (see the top of this file). */
export interface VolleyHooks {
  "volley.preAttack": (attack: VolleyPendingAttack) => boolean | void;
  "volley.attackResolved": (resolved: VolleyResolved) => void;
  "volley.undone": (undone: VolleyUndone) => void;
  "volley.ready": (api: VolleyApi) => void;
}
