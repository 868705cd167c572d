/**
 * Step two of a two-step MegaTraveller attack: the pool is rolled (rapid fire's bullets, or automatic
 * fire's rounds, lost rounds and clusters), and the player who fired (or the referee) splits it
 * between the targets before any to-hit die is rolled (RCS: "divides the pool of bullets amongst the
 * targets at will"; "division of the clusters is at the player's discretion").
 *
 * It opens on the pool and the default split, shows the exact odds of the split as it is edited (the
 * bridge's `odds` for that very pool), says at once when a split breaks a rule (the primary behind,
 * a cluster left over, a bystander with none while someone has two), and sends `allocate`. A pending
 * attack is split once: when its card says it is settled (split here or elsewhere, or gone from the
 * bridge) the step says so and offers nothing more.
 *
 * By keyboard it behaves as the attack dialogs do (foundry/focus.js): the focus goes in when it opens,
 * stays on its control while parts are redrawn (a cluster moved, Allocate pressed), Escape closes it,
 * and the focus goes back to what opened it (the card's Allocate, or the attack dialog's Fire), or to
 * the card's Allocate or its link to the result when that control was drawn again meanwhile. What it
 * has to say ("Sending…", "Done", a refusal) goes to Volley's live region for windows
 * (foundry/live-regions.js), not to its footer, which is redrawn.
 */

import { isShowing } from "../../foundry/app-state.js";
import { newRequestId } from "../../protocol.js";
import { statusWords } from "../../bridge-status.js";
import { announcer } from "../../foundry/live-regions.js";
import { bridgeOnline, bridgeStatus, onBridgeStatus, sendRelayed } from "../../foundry/bridge.js";
import { cardFlags, cardFor, pendingCardControl } from "../../foundry/chat.js";
import { findTokenDocument } from "../../foundry/documents.js";
import { WindowFocus } from "../../foundry/focus.js";
import { OddsPanel } from "../../foundry/odds-panel.js";
import { problemText, t } from "../../foundry/words.js";
import { MODE_RULES } from "./modes.js";
import { checkBulletSplit, checkClusterSplit, clusterBullets, defaultBulletSplit, defaultClusterSplit } from "./split.js";
import { fitToWindow } from "../../fit-window.js";
import { isInput } from "../../foundry/window-dom.js";

const { ApplicationV2, HandlebarsApplicationMixin } = foundry.applications.api;

const P = "VOLLEY.MegaTraveller.Allocation";

/**
 * @typedef {import("../../registry.js").PendingAttack} PendingAttack
 * @typedef {{id: string, name: string, bystander: boolean}} PoolTarget
 * @typedef {{bullets?: number, rounds?: number, lost?: number, clusters?: number[]}} Pool
 */

/** Bridge codes that mean the attack is no longer waiting on the bridge. */
const GONE = new Set(["unknown_pending", "expired", "pending_expired"]);

/**
 * The pool as the first step rolled it (only the numbers the step reads).
 * @param {unknown} raw
 * @returns {Pool}
 */
function readPool(raw) {
  const pool = typeof raw === "object" && raw !== null ? /** @type {Record<string, unknown>} */ (raw) : {};
  const int = (/** @type {unknown} */ n) => (typeof n === "number" && Number.isInteger(n) && n >= 0 ? n : undefined);
  /** @type {Pool} */
  const out = {};
  if (int(pool.bullets) !== undefined) out.bullets = int(pool.bullets);
  if (int(pool.rounds) !== undefined) out.rounds = int(pool.rounds);
  if (int(pool.lost) !== undefined) out.lost = int(pool.lost);
  if (Array.isArray(pool.clusters)) out.clusters = pool.clusters.slice(0, 60).map((n) => Math.max(1, Math.min(6, Number(n) || 1)));
  return out;
}

/**
 * The attack's tokens in request order, named as the table knows them.
 * @param {PendingAttack} pending
 * @returns {PoolTarget[]}
 */
function poolTargets(pending) {
  const result = /** @type {Record<string, any>} */ (typeof pending.result === "object" && pending.result !== null ? pending.result : {});
  const listed = Array.isArray(result.targets) ? result.targets : Array.isArray(pending.choice?.targets) ? pending.choice.targets : [];
  return listed.slice(0, 24).map((/** @type {any} */ target) => {
    const id = String(target?.id ?? "");
    return { id, name: String(target?.name || findTokenDocument(id)?.name || id), bystander: target?.bystander === true };
  });
}

export default class MegaTravellerAllocation extends HandlebarsApplicationMixin(ApplicationV2) {
  /** The open steps, by pending attack. @type {Map<string, MegaTravellerAllocation>} */
  static #open = new Map();

  static DEFAULT_OPTIONS = {
    tag: "form",
    classes: ["volley", "volley-attack-dialog", "volley-mt-allocation"],
    window: { icon: "fa-solid fa-people-arrows", resizable: true },
    position: { width: 640, height: /** @type {const} */ ("auto") },
    form: { handler: MegaTravellerAllocation.#onSubmit, submitOnChange: false, closeOnSubmit: false },
    actions: { volleyAct: MegaTravellerAllocation.#onAct },
  };

  static PARTS = {
    body: { template: "modules/volley/templates/systems/megatraveller/allocation.hbs" },
    preview: { template: "modules/volley/templates/attack/preview.hbs" },
    footer: { template: "modules/volley/templates/attack/footer.hbs" },
  };

  /**
   * Open the step for a pending attack, or bring its open one to the front.
   * @param {PendingAttack} pending
   */
  static async open(pending) {
    const open = MegaTravellerAllocation.#open.get(pending.pendingId);
    if (open) {
      open.bringToFront();
      open.focusIn();
      return open;
    }
    const step = new MegaTravellerAllocation(pending);
    await step.render({ force: true });
    return step;
  }

  /** A pending card changed (settled here or elsewhere): its open step follows. @param {unknown} message */
  static cardChanged(message) {
    const flags = cardFlags(/** @type {{flags: unknown}} */ (message));
    const step = flags ? MegaTravellerAllocation.#open.get(flags.requestId) : null;
    if (step && isShowing(step)) void step.render({ parts: ["body", "footer"] });
  }

  /** @type {WindowFocus} */
  #focus;

  /** @param {PendingAttack} pending */
  constructor(pending) {
    super({ id: `volley-allocate-${pending.pendingId.replace(/[^A-Za-z0-9_-]/g, "")}` });
    this.pending = pending;
    // Made as the step opens: the focused element is what opened it (the card's Allocate, or Fire).
    this.#focus = new WindowFocus({ fallback: () => pendingCardControl(pending.pendingId) });
    this.pool = readPool(pending.pool);
    this.targets = poolTargets(pending);
    this.mode = /** @type {import("./modes.js").FireMode} */ (String(pending.choice?.mode ?? "single"));
    this.clustered = MODE_RULES[this.mode]?.clustered === true;
    /** Bullets per target (rapid fire). @type {number[]} */
    this.bullets = defaultBulletSplit(this.pool.bullets ?? 0, this.targets.length);
    /** Which target each cluster goes to (automatic fire). @type {number[]} */
    this.owners = this.#ownersOf(defaultClusterSplit(this.pool.clusters ?? [], this.targets.map((target) => target.bystander)));
    this.notice = { text: "", error: false };
    this.sending = false;
    /** Settled from this step (before its card says so). @type {string | null} */
    this.done = null;
    /** The odds of the split as it is (foundry/odds-panel.js): drawn in the preview part, said once they settle. */
    this.oddsPanel = new OddsPanel(() => this.#oddsChanged());
    /** @type {(() => void) | null} */
    this.unsubscribe = null;
  }

  get title() {
    const shooter = findTokenDocument(this.pending.token)?.name ?? "";
    return t(`${P}.Title`, { name: shooter });
  }

  /**
   * @param {number[][]} split cluster indices per target
   * @returns {number[]}
   */
  #ownersOf(split) {
    const owners = (this.pool.clusters ?? []).map(() => 0);
    split.forEach((indices, target) => {
      for (const index of indices) if (index < owners.length) owners[index] = target;
    });
    return owners;
  }

  /** The split as the rules take it: bullets per target, or cluster indices per target. */
  split() {
    if (!this.clustered) return [...this.bullets];
    /** @type {number[][]} */
    const split = this.targets.map(() => []);
    this.owners.forEach((target, index) => split[target]?.push(index));
    return split;
  }

  /**
   * Why the split cannot be sent as it is (a rule, in the player's words), or null; a rule about one
   * token's share is named by that token ("Cpl. Dace: none given while…"), not by a row number.
   */
  #splitProblem() {
    try {
      if (this.clustered) checkClusterSplit(/** @type {number[][]} */ (this.split()), this.pool.clusters ?? []);
      else checkBulletSplit(this.bullets, this.pool.bullets ?? 0);
      return null;
    } catch (error) {
      const e = /** @type {{field?: unknown, key?: unknown, values?: unknown}} */ (error);
      const row = typeof e.field === "string" ? /^allocation\.(\d+)$/.exec(e.field) : null;
      const target = row ? this.targets[Number(row[1])] : null;
      if (target && typeof e.key === "string") {
        return `${target.name}: ${t(e.key, /** @type {Record<string, unknown>} */ (e.values ?? {}))}`;
      }
      return problemText(error);
    }
  }

  /** What the card (or this step) says about how the attack ended, or null while it still waits. */
  #settled() {
    if (this.done) return this.done;
    const message = cardFor(this.pending.pendingId);
    const settled = message ? cardFlags(message)?.settled : null;
    if (!settled) return null;
    return settled.kind === "expired" ? t(`${P}.Expired`) : t(`${P}.AlreadyAllocated`);
  }

  /** @param {any} options */
  async _prepareContext(options) {
    const base = await super._prepareContext(options);
    const clusters = this.pool.clusters ?? [];
    const sizes = this.clustered ? clusterBullets(clusters, /** @type {number[][]} */ (this.split())) : this.bullets;
    const settled = this.#settled();
    const problem = settled ? null : this.#splitProblem();
    const status = bridgeStatus();
    const words = statusWords(status, Date.now());
    const offline = !bridgeOnline();
    const reason = settled ?? (offline ? t("VOLLEY.Dialog.Offline") : problem);
    return {
      ...base,
      appId: this.id,
      pool: this.clustered
        ? t(`${P}.PoolClusters`, { rounds: this.pool.rounds ?? 0, lost: this.pool.lost ?? 0, bullets: clusters.reduce((a, b) => a + b, 0), n: clusters.length })
        : t(`${P}.PoolBullets`, { n: this.pool.bullets ?? 0 }),
      rule: t(this.clustered ? `${P}.RuleClusters` : `${P}.RuleBullets`),
      clustered: this.clustered,
      targets: this.targets.map((target, index) => ({
        index,
        name: target.name,
        role: t(index === 0 ? "VOLLEY.MegaTraveller.Roles.primary" : target.bystander ? "VOLLEY.MegaTraveller.Roles.bystander" : "VOLLEY.MegaTraveller.Roles.target"),
        bullets: this.bullets[index] ?? 0,
        bulletsLabel: t("VOLLEY.MegaTraveller.BulletsFor", { name: target.name }),
        total: t(`${P}.Total`, { n: sizes[index] ?? 0 }),
      })),
      clusters: clusters.map((size, index) => ({
        index,
        label: t(`${P}.Cluster`, { k: index + 1, n: size }),
        options: this.targets.map((target, t2) => ({ value: t2, name: target.name, selected: this.owners[index] === t2 })),
      })),
      settled,
      problem,
      noTargets: "",
      // The RCS has no jams: no jam chance under the split's odds.
      preview: ((view) => ({ ...view, summaryShown: view.rows.some((row) => row.bars.length > 0) }))(this.oddsPanel.view(this.targets)),
      bridge: { text: `${t("VOLLEY.Bridge.Label")}: ${t(words.key, words.values)}`, online: status.state === "ready" },
      notice: this.notice,
      actions: [
        {
          action: "allocate",
          label: t(`${P}.Allocate`),
          icon: "fa-solid fa-people-arrows",
          primary: true,
          disabled: Boolean(reason) || this.sending,
          reason: reason ?? "",
          hint: reason ? "" : t(`${P}.AllocateHint`),
        },
        { action: "default", label: t(`${P}.Default`), icon: "fa-solid fa-arrow-rotate-left", primary: false, disabled: Boolean(settled) || this.sending, reason: "", hint: t(`${P}.DefaultHint`) },
      ],
    };
  }

  /** @param {any} context @param {any} options */
  async _onFirstRender(context, options) {
    await super._onFirstRender(context, options);
    MegaTravellerAllocation.#open.set(this.pending.pendingId, this);
    const root = this.element;
    root.setAttribute("role", "dialog");
    root.setAttribute("aria-label", this.title);
    root.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && isInput(event.target)) event.preventDefault();
    });
    root.addEventListener("change", () => void this.#onEdit(true));
    root.addEventListener("input", (event) => {
      if (isInput(event.target)) void this.#onEdit(false);
    });
    this.unsubscribe = onBridgeStatus(() => {
      if (isShowing(this)) void this.render({ parts: ["footer"] });
    });
    this.#focus.opened(root, () => this.close());
    this.#ask();
  }

  /** @param {any} context @param {any} options */
  async _preRender(context, options) {
    await super._preRender(context, options);
    this.#focus.remember(this.element);
  }

  /** @param {any} context @param {any} options */
  async _onRender(context, options) {
    await super._onRender(context, options);
    // While Allocate is out both buttons are disabled: the focus waits on the window, then goes back.
    this.#focus.restore(this.element, { fallback: ".volley-attack__buttons button" });
    fitToWindow(this.element);
  }

  /** Put the focus in the step (it was asked for again while open). */
  focusIn() {
    if (this.element) this.#focus.focusIn(this.element);
  }

  /**
   * Out of the open steps the moment a close is asked for (v13 closes after the renders already asked,
   * then animates the window away): the card's Allocate pressed meanwhile opens a fresh step.
   * @param {any} [options]
   */
  close(options) {
    this.#forget();
    this.#focus.leaving(this.element);
    return super.close(options);
  }

  /** No longer the open step of its pending attack (unless a fresh one has taken its place). */
  #forget() {
    if (MegaTravellerAllocation.#open.get(this.pending.pendingId) === this) MegaTravellerAllocation.#open.delete(this.pending.pendingId);
  }

  /** @param {any} options */
  _onClose(options) {
    super._onClose(options);
    this.#forget();
    this.oddsPanel.cancel();
    this.unsubscribe?.();
    this.#focus.closed();
  }

  /**
   * The footer's notice, shown and said.
   * @param {{text: string, error: boolean}} notice
   */
  #setNotice(notice) {
    this.notice = notice;
    announcer("dialog").say(notice.text);
  }

  /**
   * The player moved a cluster or typed a bullet count.
   * @param {boolean} redraw show the new totals (a cluster moved); typing keeps the field as it is
   */
  async #onEdit(redraw) {
    const form = /** @type {HTMLFormElement} */ (this.element);
    const data = new FormData(form);
    if (this.clustered) {
      this.owners = this.owners.map((owner, index) => {
        const value = Number(data.get(`cluster.${index}`));
        return Number.isInteger(value) && value >= 0 && value < this.targets.length ? value : owner;
      });
    } else {
      this.bullets = this.bullets.map((n, index) => {
        const raw = String(data.get(`bullets.${index}`) ?? "").trim();
        return /^\d+$/.test(raw) ? Number(raw) : n;
      });
    }
    if (redraw) await this.render({ parts: ["body", "footer"] });
    else await this.render({ parts: ["footer"] });
    this.#ask();
  }

  /** Ask the bridge for the odds of the split as it is (nothing while it breaks a rule). */
  #ask() {
    if (this.#settled()) {
      this.oddsPanel.clear();
      return;
    }
    // A split the rules refuse is shown once, in the line above the table (no odds, no second copy),
    // and said where the odds would have been.
    const problem = this.#splitProblem();
    if (problem) {
      this.oddsPanel.clear();
      announcer("odds").say(problem);
      return;
    }
    this.oddsPanel.ask({ ...this.pending.choice, allocation: this.split(), pool: this.pending.pool }, this.element);
  }

  /** The odds of the split, or why there are none, changed: draw them and say them. */
  #oddsChanged() {
    if (!isShowing(this)) return;
    void this.render({ parts: ["preview"] });
    this.oddsPanel.say(this.targets);
  }

  /**
   * @this {MegaTravellerAllocation}
   * @param {Event} _event
   * @param {HTMLFormElement} _form
   * @param {unknown} _data
   */
  static async #onSubmit(_event, _form, _data) {
    // Enter does nothing: Allocate is a button.
  }

  /**
   * @this {MegaTravellerAllocation}
   * @param {PointerEvent} _event
   * @param {HTMLElement} target
   */
  static async #onAct(_event, target) {
    const action = target.dataset.volley ?? "";
    if (this.sending) return;
    if (action === "default") {
      this.bullets = defaultBulletSplit(this.pool.bullets ?? 0, this.targets.length);
      this.owners = this.#ownersOf(defaultClusterSplit(this.pool.clusters ?? [], this.targets.map((t2) => t2.bystander)));
      await this.render({ parts: ["body", "footer"] });
      this.#ask();
      return;
    }
    if (action !== "allocate" || this.#settled() || this.#splitProblem()) return;
    this.sending = true;
    this.#setNotice({ text: t("VOLLEY.Dialog.Sending"), error: false });
    await this.render({ parts: ["footer"] });
    const choice = { ...this.pending.choice, action: "allocate", pending_id: this.pending.pendingId, allocation: this.split(), pool: this.pending.pool };
    const reply = await sendRelayed({ type: "allocate", id: newRequestId(), choice });
    this.sending = false;
    if (reply.type === "result") {
      this.done = t(`${P}.Done`);
      this.#setNotice({ text: t("VOLLEY.Dialog.Done"), error: false });
    } else if (reply.type === "error" && reply.code === "already_allocated") {
      this.done = t(`${P}.AlreadyAllocated`);
      this.#setNotice({ text: this.done, error: true });
    } else if (reply.type === "error" && GONE.has(String(reply.code))) {
      this.done = t(`${P}.Expired`);
      this.#setNotice({ text: this.done, error: true });
    } else {
      this.#setNotice({ text: problemText(reply), error: true });
    }
    if (this.done) this.oddsPanel.cancel();
    await this.render({ parts: ["body", "preview", "footer"] });
  }
}

Hooks.on("updateChatMessage", (message) => MegaTravellerAllocation.cardChanged(message));
