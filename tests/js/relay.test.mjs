// The player -> referee relay over the module socket: choices (never rules requests) checked where
// Foundry knows who owns what, answers routed back to the user who asked, Undo for GMs only, the
// bridge's state broadcast; and the election of the browser that holds the bridge.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { fromConnection, fromWire, isOnline, statusWords, toWire } from "../../vtt_module/scripts/bridge-status.js";
import { electBridgeHolder, electHolderBrowser, holderOrder, isBridgeHolder } from "../../vtt_module/scripts/gm-election.js";
import { AnswerThrottle, ANSWER_BURST, ANSWER_INTERVAL_MS, Presence, PRESENCE_KIND, PRESENCE_TIMING, presenceTimingFrom } from "../../vtt_module/scripts/presence.js";
import { BridgeConnection, errorFrom, RESEND_DELAYS_MS } from "../../vtt_module/scripts/connection.js";
import { MAX_ID, Relay, RELAY_KIND, relayTimeoutMs, requestKey, SOCKET_NAME, vetRelayed, wireReply } from "../../vtt_module/scripts/relay.js";
import { FormError } from "../../vtt_module/scripts/fields.js";
import { FakeClock, fakeSocketClass, flush } from "./fakes.mjs";

const owners = { "tok-alice": ["alice"], "tok-bob": ["bob"] };
const tests = {
  ownsToken: (userId, tokenId) => (owners[tokenId] ?? []).includes(userId),
  isGm: (userId) => userId === "gm",
};

const attack = (token, extra = {}) => ({
  type: "attack",
  id: `req-${token}`,
  choice: { system: "gurps", token, weapon: "w1", action: "attack", targets: [{ id: "t1", shots: 3 }], ...extra },
});

/**
 * A Foundry-like socket bus: emit reaches every other browser (other tabs of the same user too, as
 * Foundry's server broadcasts to every socket but the emitting one), with the sender's user id, which
 * the server sets and no client can choose; `{recipients}` routes it to those users' browsers only.
 */
function socketBus() {
  const clients = [];
  return {
    client(userId) {
      const handlers = [];
      const me = { userId, handlers };
      const socket = {
        emitted: [],
        routed: [],
        emit(name, data, routing) {
          socket.emitted.push(data);
          socket.routed.push(routing?.recipients ?? null);
          for (const other of clients) {
            if (other === me || (routing && !routing.recipients.includes(other.userId))) continue;
            for (const h of other.handlers) if (h.name === name) h.fn(structuredClone(data), userId);
          }
        },
        on(name, fn) {
          handlers.push({ name, fn });
        },
      };
      clients.push(me);
      return socket;
    },
  };
}

describe("who holds the bridge", () => {
  const users = [
    { id: "zeta", active: true, isGM: true, role: 4 },
    { id: "beta", active: false, isGM: true, role: 4 },
    { id: "gamma", active: true, isGM: true, role: 4 },
    { id: "delta", active: true, isGM: true, role: 3 },
    { id: "alpha", active: true, isGM: false, role: 1 },
  ];

  it("is Foundry's active GM, then full GMs before assistants, then by id", () => {
    assert.deepEqual(holderOrder(users, "zeta").map((u) => u.id), ["zeta", "gamma", "delta"]);
    assert.equal(electBridgeHolder(users, "zeta").id, "zeta");
    assert.ok(isBridgeHolder(users, "zeta", "zeta"));
    assert.ok(!isBridgeHolder(users, "zeta", "alpha"), "a player never holds it");
    assert.equal(electBridgeHolder(users.filter((u) => !u.isGM), null), null);
  });

  it("moves past a GM whose browser has no token to the next one that has", () => {
    const noToken = (id) => users.map((u) => (u.id === id ? { ...u, flags: { volley: { bridgeToken: false } } } : u));
    assert.equal(electBridgeHolder(noToken("zeta"), "zeta").id, "gamma");
    const nobody = users.map((u) => ({ ...u, flags: { volley: { bridgeToken: false } } }));
    assert.equal(electBridgeHolder(nobody, "zeta").id, "zeta", "with no token anywhere Foundry's GM holds it, and is told");
    const withToken = noToken("zeta").map((u) => (u.id === "zeta" ? { ...u, flags: { volley: { bridgeToken: true } } } : u));
    assert.equal(electBridgeHolder(withToken, "zeta").id, "zeta", "pasting the token takes it back");
  });
});

describe("the bridge's state as every client sees it", () => {
  it("travels as 'retry in N ms' and is counted down on the receiver's own clock", () => {
    const status = fromConnection({ state: "waiting", attempt: 2, delayMs: 4000 }, 1_000);
    assert.deepEqual(status, { state: "waiting", retryAt: 5_000 });
    const wire = toWire(status, 2_000);
    assert.deepEqual(wire, { state: "waiting", retryInMs: 3_000 });
    const heard = fromWire(wire, 100_000);
    assert.deepEqual(statusWords(heard, 100_500), { key: "VOLLEY.Bridge.Reconnecting", values: { seconds: 3 } });
    assert.deepEqual(statusWords(heard, 103_100), { key: "VOLLEY.Bridge.Connecting", values: {} });
  });

  it("says why a refusal happened, and is only online when connected", () => {
    const refused = fromConnection({ state: "refused", attempt: 0, error: { reason: "wrong access token" } }, 0);
    assert.deepEqual(statusWords(refused, 0), { key: "VOLLEY.Bridge.Refused", values: { reason: "wrong access token" } });
    assert.ok(isOnline({ state: "ready" }) && !isOnline(refused) && !isOnline({ state: "no_gm" }));
    assert.deepEqual(fromWire({ state: "hacked" }, 0), { state: "unknown" });
    assert.deepEqual(fromWire("junk", 0), { state: "unknown" });
    assert.equal(fromWire({ state: "refused", reason: "x".repeat(500) }, 0).reason.length, 200);
  });
});

describe("vetting a relayed message", () => {
  it("forwards a choice for a token the user owns, and only its choice", () => {
    const { forward } = vetRelayed({ ...attack("tok-alice"), request: { dice: [6, 6, 6] } }, "alice", tests);
    assert.deepEqual(forward, { type: "attack", id: "req-tok-alice", choice: attack("tok-alice").choice });
  });

  it("refuses a token the user does not own, naming the field", () => {
    const { refuse } = vetRelayed(attack("tok-bob"), "alice", tests);
    assert.deepEqual(
      [refuse.type, refuse.code, refuse.id, refuse.path],
      ["error", "forbidden", "req-tok-bob", "$.choice.token"],
    );
    assert.match(refuse.message, /alice does not own token tok-bob/);
  });

  it("refuses other message types, missing choices, systems and ids", () => {
    assert.equal(vetRelayed({ type: "hello", id: "x", token: "t" }, "alice", tests).refuse.code, "forbidden");
    assert.equal(vetRelayed({ type: "attack", id: "x" }, "alice", tests).refuse.path, "$.choice");
    assert.equal(vetRelayed({ type: "attack", id: "x", choice: { token: "tok-alice" } }, "alice", tests).refuse.path, "$.choice.system");
    assert.equal(vetRelayed({ type: "attack", choice: {} }, "alice", tests).refuse.code, "invalid");
    assert.equal(vetRelayed({ type: "attack", id: "x".repeat(MAX_ID + 1), choice: {} }, "alice", tests).refuse.code, "invalid");
  });

  it("lets only a game master undo", () => {
    const undo = { type: "undo", id: "u1", message: "msg1" };
    assert.equal(vetRelayed(undo, "alice", tests).refuse.code, "forbidden");
    assert.deepEqual(vetRelayed(undo, "gm", tests).forward, undo);
    assert.equal(vetRelayed({ type: "undo", id: "u2" }, "gm", tests).refuse.path, "$.message");
  });
});

describe("Relay between a player and the referee", () => {
  function world({ forward, holder } = {}) {
    const bus = socketBus();
    const clock = new FakeClock();
    const forwarded = [];
    let held = holder ?? { user: "gm", browser: "gm-tab-1" };
    const gmTab = (browser) =>
      new Relay({
        socket: bus.client("gm"),
        userId: () => "gm",
        browser,
        holder: () => held,
        ...tests,
        forward:
          forward ??
          (async (message, userId) => {
            forwarded.push({ message, userId, browser });
            return { type: "result", id: message.id, result: { hits: 2 }, card: {}, updates: [], visibility: "public" };
          }),
        currentStatus: () => ({ state: "ready" }),
        timers: clock,
      });
    const gm = gmTab("gm-tab-1");
    const gm2 = gmTab("gm-tab-2");
    const player = (id) =>
      new Relay({
        socket: bus.client(id),
        userId: () => id,
        browser: `${id}-tab`,
        holder: () => held,
        ownsToken: () => {
          throw new Error("players never check ownership");
        },
        isGm: tests.isGm,
        forward: async () => {
          throw new Error("players never forward");
        },
        timers: clock,
        timeoutMs: 1000,
      });
    const alice = player("alice");
    const bob = player("bob");
    for (const r of [gm, gm2, alice, bob]) r.attach();
    return { gm, gm2, alice, bob, forwarded, clock, handOver: (to) => (held = to) };
  }

  it("forwards an owned token's choice under the user's key and answers only the requester", async () => {
    const { alice, bob, forwarded } = world();
    const seenByBob = [];
    bob.socket.on(SOCKET_NAME, (d) => seenByBob.push(d));
    const reply = await alice.send(attack("tok-alice"));
    assert.deepEqual(reply, { type: "result", id: "req-tok-alice", result: { hits: 2 }, card: {} });
    assert.deepEqual(forwarded, [{ message: { ...attack("tok-alice"), id: requestKey("alice", "req-tok-alice") }, userId: "alice", browser: "gm-tab-1" }]);
    assert.ok(!seenByBob.some((d) => d.kind === RELAY_KIND.REPLY), "the answer is routed to Alice's browsers alone");
  });

  it("keys a request by its user: another player's id names their own request, not the first one's", async () => {
    const { alice, bob, forwarded } = world();
    owners["tok-alice"].push("bob");
    try {
      await alice.send(attack("tok-alice"));
      await bob.send(attack("tok-alice")); // the same id, from another user
    } finally {
      owners["tok-alice"].pop();
    }
    assert.deepEqual(
      forwarded.map((f) => f.message.id),
      [requestKey("alice", "req-tok-alice"), requestKey("bob", "req-tok-alice")],
    );
  });

  it("only the holder's browser answers: a second tab of the same GM stays quiet", async () => {
    const { alice, forwarded } = world();
    await alice.send(attack("tok-alice"));
    assert.deepEqual(forwarded.map((f) => f.browser), ["gm-tab-1"]);
  });

  it("sends a waiting request again, with its id, to the browser that takes over; answered once", async () => {
    const { gm, alice, forwarded, handOver } = world();
    gm.receive = async () => {}; // the holder's page went away with the request in flight
    const waiting = alice.send(attack("tok-alice"));
    await flush();
    assert.equal(alice.waitingCount, 1);
    handOver({ user: "gm", browser: "gm-tab-2" });
    alice.resend();
    const reply = await waiting;
    assert.equal(reply.type, "result");
    assert.deepEqual(forwarded.map((f) => [f.browser, f.message.id]), [["gm-tab-2", requestKey("alice", "req-tok-alice")]]);
    assert.equal(alice.waitingCount, 0);
  });

  it("a repeat of a key while the first is being served joins it instead of asking twice", async () => {
    let release;
    const gate = new Promise((resolve) => (release = resolve));
    let asked = 0;
    const { gm } = world({
      forward: async (message) => {
        asked += 1;
        await gate;
        return { type: "result", id: message.id };
      },
    });
    const first = gm.serve(attack("tok-alice"), "alice");
    const second = gm.serve(attack("tok-alice"), "alice");
    release();
    assert.deepEqual([(await first).id, (await second).id, asked], ["req-tok-alice", "req-tok-alice", 1]);
  });

  it("refuses someone else's token without asking the bridge", async () => {
    const { alice, forwarded } = world();
    const reply = await alice.send(attack("tok-bob"));
    assert.equal(reply.code, "forbidden");
    assert.equal(forwarded.length, 0);
  });

  it("drops a request whose claimed sender is not the socket's sender, or that has none", async () => {
    const { gm, forwarded } = world();
    const replies = [];
    gm.socket.emit = (_name, data) => replies.push(data);
    await gm.receive({ kind: RELAY_KIND.REQUEST, from: "bob", to: "gm-tab-1", message: attack("tok-bob") }, "alice");
    await gm.receive({ kind: RELAY_KIND.REQUEST, from: "bob", to: "gm-tab-1", message: attack("tok-bob") });
    assert.deepEqual([forwarded.length, replies.length], [0, 0]);
  });

  it("takes a reply or a status only from the holder's browser: a player's forgery changes nothing", async () => {
    const { alice, bob, clock } = world({ forward: () => new Promise(() => {}) });
    const heard = [];
    alice.onStatus((status) => heard.push(status));
    const waiting = alice.send(attack("tok-alice"));
    await flush();
    // Bob, from his console: a fake answer to Alice, a fake "bridge down", each naming the holder's browser.
    bob.emit({ kind: RELAY_KIND.REPLY, to: "alice", id: "req-tok-alice", browser: "gm-tab-1", reply: { type: "error", code: "no_gm" } });
    bob.emit({ kind: RELAY_KIND.STATUS, browser: "gm-tab-1", status: { state: "stopped" } });
    await flush();
    assert.deepEqual([alice.waitingCount, heard.length], [1, 0]);
    clock.advance(1000);
    assert.equal((await waiting).code, "no_gm", "only the timeout ended it");
  });

  it("strips a private or blind card's reply before it goes on the socket every client reads", () => {
    const reply = { type: "result", id: "r", card: { rows: [] }, result: { rolls: [] }, updates: [{}], pending: { pool: 3 }, visibility: "private" };
    assert.deepEqual(wireReply(reply, "private"), { type: "result", id: "r", pending: { pool: 3 } });
    assert.deepEqual(wireReply(reply, "blind"), { type: "result", id: "r" });
    assert.deepEqual(Object.keys(wireReply(reply, "public")).sort(), ["card", "id", "pending", "result", "type"]);
  });

  it("a relayed request's answer reaches the requester's browsers only", async () => {
    const { gm, alice, bob } = world();
    const heardByBob = [];
    bob.also((data) => (heardByBob.push(data), false));
    const reply = await alice.send(attack("tok-alice"));
    assert.equal(reply.type, "result");
    const replies = gm.socket.emitted.map((data, i) => [data, gm.socket.routed[i]]).filter(([data]) => data.kind === RELAY_KIND.REPLY);
    assert.deepEqual(replies.map(([, routed]) => routed), [["alice"]]);
    assert.deepEqual(heardByBob.filter((data) => data.kind === RELAY_KIND.REPLY), []);
  });

  it("volley.status? is answered to its asker, a few times a second at most, the last question answered", async () => {
    const { gm, alice, clock } = world();
    const statuses = () => gm.socket.emitted.map((data, i) => [data.kind, gm.socket.routed[i]]).filter(([kind]) => kind === RELAY_KIND.STATUS);
    for (let i = 0; i < 500; i++) alice.askStatus();
    await flush();
    assert.deepEqual(statuses(), Array(ANSWER_BURST).fill([RELAY_KIND.STATUS, ["alice"]]), "a few answers, to Alice alone");
    clock.advance(ANSWER_INTERVAL_MS);
    assert.equal(statuses().length, ANSWER_BURST + 1, "the questions asked meanwhile get one answer at the interval's end");
    clock.advance(10 * ANSWER_INTERVAL_MS);
    assert.equal(statuses().length, ANSWER_BURST + 1, "and nothing more");
  });

  it("waits long enough for the bridge's own timeout and a takeover", () => {
    assert.ok(relayTimeoutMs(15_000, { expiryMs: 20_000, settleMs: 1_000 }) > 15_000 + 20_000 + 1_000);
  });

  it("tells the player at once when no referee holds the bridge, and after a while when none answers", async () => {
    const clock = new FakeClock();
    const lonely = (holder) =>
      new Relay({ socket: { emit() {}, on() {} }, userId: () => "alice", browser: "a", holder: () => holder, ...tests, forward: async () => ({}), timers: clock, timeoutMs: 1000 });
    assert.equal((await lonely(null).send(attack("tok-alice"))).code, "no_gm");
    const pending = lonely({ user: "gm", browser: "g" }).send(attack("tok-alice"));
    clock.advance(1000);
    assert.equal((await pending).code, "no_gm");
  });

  it("turns a builder's refusal into the player's own words, and a bridge failure into an error", async () => {
    const refusing = world({
      forward: async () => {
        throw new FormError("targets.0.shots", "VOLLEY.Form.AtMost", { max: 13 });
      },
    });
    const reply = await refusing.alice.send(attack("tok-alice"));
    assert.deepEqual(
      [reply.code, reply.path, reply.key, reply.values],
      ["invalid", "$.choice.targets.0.shots", "VOLLEY.Form.AtMost", { max: 13 }],
    );
    const failing = world({
      forward: async () => {
        throw Object.assign(new Error("$.shots: shots 12 > RoF 10"), { code: "rule", reason: "shots 12 > RoF 10", path: "$.request.shots" });
      },
    });
    const failed = await failing.gm.serve(attack("tok-alice"), "alice");
    assert.deepEqual(failed, { type: "error", id: "req-tok-alice", code: "rule", message: "shots 12 > RoF 10", path: "$.request.shots" });
    await flush();
  });

  it("passes the bridge's refusal on with its rules message, for the player's language", async () => {
    const msg = { key: "gurps.error.shots_over_rof", values: { shots: 12, rof: 10 } };
    const frame = { type: "error", id: "req-tok-alice", code: "rule", message: "shots 12 > RoF 10", path: "$.request.shots", msg };
    const refusing = world({
      forward: async () => {
        throw errorFrom(frame);
      },
    });
    const reply = await refusing.alice.send(attack("tok-alice"));
    assert.deepEqual(reply, frame);
    await flush();
  });

  it("a player's request the bridge cannot look up just now is asked again by the holder, same key", async () => {
    const Socket = fakeSocketClass();
    let connection = null; // the holder's connection to the bridge, on the world's clock
    const { alice, clock } = world({ forward: (message) => connection.request(message) });
    connection = new BridgeConnection({ url: "ws://bridge", token: "t", WebSocket: Socket, timers: clock });
    connection.start();
    const bridge = Socket.instances[0];
    bridge.open();
    bridge.receive({ type: "welcome", session: "s1", systems: [] });
    const replied = alice.send(attack("tok-alice"));
    await flush();
    const key = requestKey("alice", "req-tok-alice");
    bridge.receive({ type: "error", id: key, code: "journal_unreadable", message: "cannot tell just now" });
    clock.advance(RESEND_DELAYS_MS[0]);
    const asked = bridge.messages().filter((m) => m.type === "attack");
    assert.equal(asked.length, 2);
    assert.deepEqual(asked[1], asked[0], "the same key and choice again");
    assert.equal(asked[0].id, key);
    bridge.receive({ type: "result", id: key, result: { hits: 1 }, card: {}, updates: [] });
    const reply = await replied;
    assert.equal(reply.type, "result");
    assert.equal(reply.id, "req-tok-alice");
    connection.stop();
  });

  it("broadcasts the holder's connection state, and answers a client that asks", async () => {
    const { gm, alice } = world();
    const heard = [];
    alice.onStatus((status) => heard.push(status));
    gm.publishStatus({ state: "waiting", retryInMs: 2000 });
    alice.askStatus();
    await flush();
    assert.deepEqual(heard, [{ state: "waiting", retryInMs: 2000 }, { state: "ready" }]);
  });
});

describe("which browser holds the bridge", () => {
  const users = [
    { id: "gm", active: true, isGM: true, role: 4 },
    { id: "asst", active: true, isGM: true, role: 3 },
    { id: "alice", active: true, isGM: false, role: 1 },
  ];

  it("is the oldest tab of Foundry's GM with a token; a newer tab of the same GM follows", () => {
    const browsers = [
      { browser: "new", user: "gm", token: true, since: 200 },
      { browser: "old", user: "gm", token: true, since: 100 },
      { browser: "a1", user: "asst", token: true, since: 50 },
    ];
    assert.equal(electHolderBrowser(browsers, users, "gm").browser, "old");
    assert.equal(electHolderBrowser(browsers.filter((b) => b.browser !== "old"), users, "gm").browser, "new", "the old tab closed: the next takes over");
    assert.equal(electHolderBrowser([{ ...browsers[1], token: false }, browsers[2]], users, "gm").browser, "a1", "an assistant GM with the token");
    assert.equal(electHolderBrowser([{ browser: "p", user: "alice", token: true, since: 1 }], users, "gm"), null, "never a player");
  });

  it("lists GM browsers by the socket's sender, never by a claim, and forgets one that leaves or falls silent", () => {
    const clock = new FakeClock();
    let now = 0;
    const sent = [];
    const presence = new Presence({
      emit: (data) => sent.push(data),
      browser: "me",
      userId: () => "alice",
      isGm: (id) => id === "gm",
      hasToken: () => false,
      now: () => now,
      timers: { setInterval: () => 0, clearInterval() {}, setTimeout: (fn) => clock.setTimeout(fn, 1) },
    });
    presence.start();
    presence.receive({ kind: PRESENCE_KIND.HERE, browser: "fake", token: true, since: 0 }, "alice");
    presence.receive({ kind: PRESENCE_KIND.HERE, browser: "g1", token: true, since: 5 }, "gm");
    presence.receive({ kind: PRESENCE_KIND.HERE, browser: "g2", token: true, since: 9 }, "gm");
    presence.receive({ kind: PRESENCE_KIND.GONE, browser: "g2" }, "alice"); // not hers to end
    assert.deepEqual(presence.browsers().map((b) => [b.browser, b.user]), [["g1", "gm"], ["g2", "gm"]]);
    presence.receive({ kind: PRESENCE_KIND.GONE, browser: "g1" }, "gm");
    now = 60_000;
    presence.sweep();
    assert.deepEqual(presence.browsers(), []);
  });
});

describe("a table's own settle time (CONFIG.volley.presence)", () => {
  it("takes a settle time of 0 to 60 s and nothing else", () => {
    assert.deepEqual(presenceTimingFrom({ settleMs: 0 }), { settleMs: 0 });
    assert.deepEqual(presenceTimingFrom({ settleMs: 2500 }), { settleMs: 2500 });
    for (const bad of [undefined, null, "fast", 7, { settleMs: -1 }, { settleMs: Number.NaN }, { settleMs: Infinity }, { settleMs: "0" }, { settleMs: 60_001 }]) {
      assert.deepEqual(presenceTimingFrom(bad), {}, `refused: ${String(bad?.settleMs ?? bad)}`);
    }
    assert.deepEqual(presenceTimingFrom({ settleMs: 10, heartbeatMs: 0, expiryMs: 0 }), { settleMs: 10 }, "the heartbeat and expiry are not the table's");
  });

  it("puts a GM browser forward after the table's settle time, not the module's", () => {
    const waits = [];
    const presence = new Presence({
      emit: () => {},
      browser: "me",
      userId: () => "gm",
      isGm: () => true,
      hasToken: () => true,
      timers: { setInterval: () => 0, clearInterval() {}, setTimeout: (fn, ms) => waits.push([fn, ms]) },
      timing: presenceTimingFrom({ settleMs: 0 }),
    });
    presence.start();
    assert.deepEqual(waits.map(([, ms]) => ms), [0]);
    assert.equal(presence.settled, false);
    waits[0][0]();
    assert.equal(presence.settled, true);
    assert.equal(PRESENCE_TIMING.settleMs, 1000, "the module's own settle time is unchanged");
  });
});

describe("players target only what they can see (issue #32)", () => {
  // tok-alice stands on scene A; t-seen is beside it, t-hidden is hidden there, t-far is on scene B.
  const tokens = { "tok-alice": { scene: "A" }, "t-seen": { scene: "A" }, "t-hidden": { scene: "A", hidden: true, name: "Assassin" }, "t-far": { scene: "B" } };
  const maySee = (userId, shooter, id) => userId === "gm" || (tokens[id]?.scene === tokens[shooter]?.scene && !tokens[id]?.hidden);
  const withTargets = (targets, tokensOf = []) => attack("tok-alice", { targets: targets.map((id) => ({ id, shots: 1 })), tokens: tokensOf });

  it("refuses a hidden target, a token on another scene, and a hidden token among a sector's, without naming it", () => {
    for (const [message, path] of [
      [withTargets(["t-seen", "t-hidden"]), "$.choice.targets[1].id"],
      [withTargets(["t-far"]), "$.choice.targets[0].id"],
      [withTargets(["t-seen"], ["t-seen", "t-hidden"]), "$.choice.tokens[1]"],
    ]) {
      const { refuse } = vetRelayed(message, "alice", { ...tests, maySee });
      assert.equal(refuse?.code, "forbidden", path);
      assert.equal(refuse.path, path);
      assert.equal(refuse.key, "VOLLEY.Form.TargetUnseen");
      assert.ok(!JSON.stringify(refuse).includes("Assassin"), "the hidden token's name never travels");
    }
  });

  it("forwards what the player can see, and anything a GM names", () => {
    assert.ok("forward" in vetRelayed(withTargets(["t-seen"], ["t-seen"]), "alice", { ...tests, maySee }));
    const gmOwns = { ...tests, ownsToken: () => true, maySee };
    assert.ok("forward" in vetRelayed(withTargets(["t-hidden", "t-far"]), "gm", gmOwns));
  });

  it("the holder refuses it before anything is built or asked", async () => {
    const forwarded = [];
    const relay = new Relay({ socket: { emit() {}, on() {} }, userId: () => "gm", browser: "g", holder: () => ({ user: "gm", browser: "g" }), ...tests, maySee, forward: async (m) => (forwarded.push(m), { type: "result" }) });
    const reply = await relay.serve(withTargets(["t-hidden"]), "alice");
    assert.equal(reply.code, "forbidden");
    assert.deepEqual(forwarded, []);
  });
});

describe("answers go to the one who asked, and a loop of questions cannot make the table broadcast", () => {
  it("volley.here? is answered to its asker, a few times a second each", () => {
    const clock = new FakeClock();
    const sent = [];
    const presence = new Presence({
      emit: (data, routing) => sent.push([data.kind, routing?.recipients ?? null]),
      browser: "gm-tab",
      userId: () => "gm",
      isGm: (id) => id === "gm",
      hasToken: () => true,
      now: () => clock.now,
      timers: { setInterval: () => 0, clearInterval() {}, setTimeout: clock.setTimeout },
    });
    for (let i = 0; i < 300; i++) presence.receive({ kind: PRESENCE_KIND.ASK }, "alice");
    presence.receive({ kind: PRESENCE_KIND.ASK }, "bob");
    assert.deepEqual(sent, [...Array(ANSWER_BURST).fill([PRESENCE_KIND.HERE, ["alice"]]), [PRESENCE_KIND.HERE, ["bob"]]]);
    clock.advance(ANSWER_INTERVAL_MS);
    assert.deepEqual(sent.slice(ANSWER_BURST + 1), [[PRESENCE_KIND.HERE, ["alice"]]]);
  });

  it("AnswerThrottle: at once up to its burst, then once more as the interval ends, per sender", () => {
    const clock = new FakeClock();
    const throttle = new AnswerThrottle({ intervalMs: 100, burst: 2, now: () => clock.now, timers: clock });
    const answered = [];
    assert.equal(throttle.ask("a", () => answered.push(["a1", clock.now])), true);
    assert.equal(throttle.ask("a", () => answered.push(["a2", clock.now])), true);
    assert.equal(throttle.ask("a", () => answered.push(["a3", clock.now])), false);
    assert.equal(throttle.ask("a", () => answered.push(["a4", clock.now])), false, "one trailing answer is already waiting");
    assert.equal(throttle.ask("b", () => answered.push(["b", clock.now])), true);
    clock.advance(250);
    assert.deepEqual(answered, [["a1", 0], ["a2", 0], ["b", 0], ["a3", 100]]);
  });
});
