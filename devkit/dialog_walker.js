// The generated dialog-vs-rules walk (issue #31), run inside the referee's sandbox page by
// tests/browser/test_dialog_walk.py and scripts/bookkeeping_soak.py.
//
// It opens the shooter's real attack dialog and walks it through seeded random states: the weapon, its
// magazine (full, short, empty, jammed; MegaTraveller's readiness, selector and lock), 0 to 4 targets,
// every select, box and field of the form (modes, orders, ranges, shares, DMs, roles, sectors...) set to
// ordinary and odd values (empty, negative, huge, not a number), and a click on a random button. What it
// holds the dialog to:
// - a disabled button says why (its title);
// - a click the dialog refuses is refused before anything reaches the referee's browser, and the refusal
//   names the field by the label the form shows ("Facing (°, 0 = east, clockwise): required");
// - whatever the dialog sends, the referee's browser and the bridge accept: no refusal comes back (a
//   rules refusal there means the dialog offered what the rules forbid).
// It returns what it saw: the counts, and each failure with the step that led to it.
//
// Test code, not the module's: it drives the module through the page as a user would, and reads what the
// referee's browser answered through the module's own relay (Relay.prototype.serve, wrapped here).

async ({ seed, steps, shooter, others, system }) => {
  // mulberry32: a small seeded generator, so a walk is the same every run.
  let state = seed >>> 0;
  const rand = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
  const until = async (test, what, tries = 600) => {
    for (let i = 0; i < tries; i += 1) {
      if (test()) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`waited too long for ${what}`);
  };

  const { Relay } = await import("/modules/volley/scripts/relay.js");
  if (!window.__volleyServed) {
    window.__volleyServed = [];
    const serve = Relay.prototype.serve;
    Relay.prototype.serve = async function (message, userId) {
      const reply = await serve.call(this, message, userId);
      window.__volleyServed.push({ message, reply });
      return reply;
    };
  }
  const served = window.__volleyServed;
  const { openAttackDialog } = await import("/modules/volley/scripts/foundry/open.js");
  const token = canvas.scene.tokens.get(shooter);
  const actor = token.actor;

  /** Codes that say the table, not the dialog, could not answer now. */
  const NOT_THE_DIALOGS = new Set(["offline", "no_gm", "timeout", "not_connected", "closed", "rate_limited", "journal_failed", "journal_unreadable", "connecting"]);
  const NUMBERS = ["", "0", "1", "2", "3", "5", "-2", "-7", "13", "30", "45", "90", "180", "359", "400", "-400", "999999", "abc", "2.5", " ", "1e3"];
  const TEXTS = ["", "anyone crosses the bridge", "x", "y".repeat(130), "  "];
  const seen = { steps: 0, clicks: 0, disabled: 0, sent: 0, accepted: 0, refusedByDialog: 0, local: 0, states: 0, fields: 0 };
  const failures = [];
  const trail = [];

  let dialog = await openAttackDialog(token);
  const settle = async () => {
    await dialog.whenSettled();
    await frame();
  };
  await settle();

  const weaponsNow = () => actor.flags.volley.profile.weapons;

  /** A random magazine and readiness for the weapon shown, written as the referee would (a GM's edit). */
  async function randomState() {
    const weapons = structuredClone(weaponsNow());
    const w = weapons.find((x) => x.id === dialog.weaponId) ?? weapons[0];
    const cap = Number(w.stats.capacity) || 1;
    w.state.loaded = pick([0, 0, 1, 2, 3, Math.floor(cap / 2), cap, cap]);
    if (system === "megatraveller") {
      w.state.readiness = pick(["holstered", "slung", "carried", "ready", "ready", "ready"]);
      w.state.selector = pick(["single", "burst", "auto", "single"]);
    } else {
      w.state.jammed = rand() < 0.25;
      // A GM's console may tick a jam without its cause: the dialog must then refuse Unjam, saying why.
      if (system === "gurps") w.state.malfunction = w.state.jammed ? pick([null, "misfire", "stoppage", "mechanical", "destroyed"]) : null;
      if (system === "d100") {
        w.state.spoiled = pick([0, 0, 1, 3]);
        if (w.stats.class === "heavy") w.state.braced = rand() < 0.6;
      }
    }
    /** @type {Record<string, unknown>} */
    const update = { "flags.volley.profile.weapons": weapons };
    if (system === "megatraveller") update["flags.volley.state.target"] = pick([null, ...others, others[0]]);
    await actor.update(update);
    trail.push(`state ${w.name}: ${JSON.stringify(w.state)}`);
    seen.states += 1;
  }

  async function randomTargets() {
    const count = pick([0, 1, 1, 2, 2, 3, 4]);
    const chosen = [...others].sort(() => rand() - 0.5).slice(0, count);
    sandbox.table.setTargets(chosen);
    trail.push(`targets ${chosen.join(",") || "none"}`);
  }

  async function randomWeapon() {
    const select = dialog.element.querySelector('select[name="weapon"]');
    if (!select || select.options.length < 2) return;
    select.value = pick([...select.options].map((o) => o.value));
    select.dispatchEvent(new Event("change", { bubbles: true }));
    trail.push(`weapon ${select.value}`);
  }

  async function randomField() {
    const fields = [...dialog.element.querySelectorAll("input[name], select[name], textarea[name]")].filter(
      (f) => f.name !== "weapon" && f.type !== "hidden" && !f.disabled,
    );
    if (fields.length === 0) return;
    const field = pick(fields);
    let value;
    if (field instanceof HTMLSelectElement) {
      value = pick([...field.options].map((o) => o.value));
      field.value = value;
    } else if (field.type === "checkbox") {
      field.checked = !field.checked;
      value = field.checked;
    } else if (field.type === "number") {
      value = pick(NUMBERS);
      field.value = value; // the browser empties what a number field cannot hold, as a user's typing would
    } else {
      value = pick(TEXTS);
      field.value = value;
    }
    field.dispatchEvent(new Event("input", { bubbles: true }));
    field.dispatchEvent(new Event("change", { bubbles: true }));
    trail.push(`field ${field.name} = ${JSON.stringify(value)}`);
    seen.fields += 1;
  }

  /** Every label the form shows a user: what a refusal may name its field by. */
  function labels() {
    const out = new Set();
    for (const el of dialog.element.querySelectorAll("label, legend, th")) {
      const text = (el.textContent ?? "").replace(/\s+/g, " ").trim();
      if (text) out.add(text);
    }
    for (const el of dialog.element.querySelectorAll("[aria-label]")) out.add(String(el.getAttribute("aria-label")).trim());
    return [...out];
  }

  async function randomClick() {
    const buttons = [...dialog.element.querySelectorAll("button[data-action='volleyAct'][data-volley]")];
    if (buttons.length === 0) return;
    const button = pick(buttons);
    const action = button.dataset.volley;
    seen.clicks += 1;
    if (button.disabled) {
      seen.disabled += 1;
      if (!(button.title || button.dataset.tooltip)) failures.push({ why: `${action} is disabled and does not say why`, trail: trail.slice(-12) });
      return;
    }
    const before = served.length;
    const noticeBefore = dialog.notice;
    button.click();
    await frame();
    await until(() => !dialog.sending, `${action} to be answered`);
    await settle();
    const mine = served.slice(before);
    for (const { message, reply } of mine) {
      if (message?.type === "odds") continue;
      seen.sent += 1;
      if (reply?.type === "error") {
        if (NOT_THE_DIALOGS.has(String(reply.code))) continue;
        failures.push({
          why: `the dialog sent ${action} and the referee's browser or the bridge refused it`,
          refusal: { code: reply.code, message: reply.message, path: reply.path, key: reply.key ?? reply.msg?.key ?? null },
          choice: message.choice ?? null,
          trail: trail.slice(-12),
        });
      } else {
        seen.accepted += 1;
      }
    }
    const sentAny = mine.some(({ message }) => message?.type !== "odds");
    if (!sentAny) {
      const notice = dialog.notice;
      if (notice.error && notice !== noticeBefore) {
        seen.refusedByDialog += 1;
        const named = labels().some((label) => notice.text.startsWith(`${label}: `));
        if (!named) failures.push({ why: `${action} was refused without naming a field by its label`, notice: notice.text, labels: labels().slice(0, 40), trail: trail.slice(-12) });
      } else {
        seen.local += 1;
      }
    }
    trail.push(`click ${action} -> ${sentAny ? mine.map(({ reply }) => reply?.type).join(",") : dialog.notice.error ? "refused: " + dialog.notice.text : "local"}`);
    // A two-step attack's allocation step opens by itself: the walk goes on in the attack dialog.
    for (const step of document.querySelectorAll(".volley-mt-allocation .sandbox-close")) step.click();
  }

  const moves = [randomState, randomTargets, randomWeapon, randomField, randomField, randomField, randomClick, randomClick, randomClick];
  for (let i = 0; i < steps; i += 1) {
    seen.steps += 1;
    try {
      if (!dialog.rendered && dialog.state !== 2) {
        dialog = await openAttackDialog(token);
      }
      await pick(moves)();
      await settle();
    } catch (error) {
      failures.push({ why: `the walk broke: ${error?.message ?? error}`, trail: trail.slice(-12) });
      break;
    }
  }
  await dialog.close({ animate: false });
  return { seen, failures: failures.slice(0, 20), failed: failures.length };
};
