// The player -> referee relay over the module socket: choices (never rules requests) checked where
// Foundry knows who owns what, answers routed back to the user who asked, Undo for GMs only, the
// bridge's state broadcast; and the election of the browser that holds the bridge.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { fromConnection, fromWire, isOnline, statusWords, toWire } from "../../vtt_module/scripts/bridge-status.js";
import { electBridgeHolder, holderOrder, isBridgeHolder } from "../../vtt_module/scripts/gm-election.js";
import { errorFrom } from "../../vtt_module/scripts/connection.js";
import { Relay, RELAY_KIND, SOCKET_NAME, vetRelayed } from "../../vtt_module/scripts/relay.js";
import { FormError } from "../../vtt_module/scripts/systems/common/fields.js";
import { FakeClock, flush } from "./fakes.mjs";

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

/** A Foundry-like socket bus: emit reaches every other client, with the sender's user id. */
function socketBus() {
  const clients = [];
  return {
    client(userId) {
      const handlers = [];
      const socket = {
        emitted: [],
        emit(name, data) {
          socket.emitted.push(data);
          for (const other of clients) {
            if (other.userId !== userId) for (const h of other.handlers) if (h.name === name) h.fn(structuredClone(data), userId);
          }
        },
        on(name, fn) {
          handlers.push({ name, fn });
        },
      };
      clients.push({ userId, handlers });
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
    assert.equal(vetRelayed({ type: "attack", id: "x".repeat(129), choice: {} }, "alice", tests).refuse.code, "invalid");
  });

  it("lets only a game master undo", () => {
    const undo = { type: "undo", id: "u1", message: "msg1" };
    assert.equal(vetRelayed(undo, "alice", tests).refuse.code, "forbidden");
    assert.deepEqual(vetRelayed(undo, "gm", tests).forward, undo);
    assert.equal(vetRelayed({ type: "undo", id: "u2" }, "gm", tests).refuse.path, "$.message");
  });
});

describe("Relay between a player and the referee", () => {
  function world({ forward } = {}) {
    const bus = socketBus();
    const clock = new FakeClock();
    const forwarded = [];
    const gm = new Relay({
      socket: bus.client("gm"),
      userId: () => "gm",
      isHolder: () => true,
      ...tests,
      forward:
        forward ??
        (async (message, userId) => {
          forwarded.push({ message, userId });
          return { type: "result", id: message.id, result: { hits: 2 }, card: {}, updates: [] };
        }),
      currentStatus: () => ({ state: "ready" }),
      timers: clock,
    });
    const player = (id) =>
      new Relay({
        socket: bus.client(id),
        userId: () => id,
        isHolder: () => false,
        ownsToken: () => {
          throw new Error("players never check ownership");
        },
        isGm: () => false,
        forward: async () => {
          throw new Error("players never forward");
        },
        timers: clock,
        timeoutMs: 1000,
      });
    const alice = player("alice");
    const bob = player("bob");
    for (const r of [gm, alice, bob]) r.attach();
    return { gm, alice, bob, forwarded, clock };
  }

  it("forwards an owned token's choice and answers only the requester", async () => {
    const { alice, bob, forwarded } = world();
    const seenByBob = [];
    bob.socket.on(SOCKET_NAME, (d) => seenByBob.push(d));
    const reply = await alice.send(attack("tok-alice"));
    assert.deepEqual(reply, { type: "result", id: "req-tok-alice", result: { hits: 2 }, card: {}, updates: [] });
    assert.deepEqual(forwarded, [{ message: attack("tok-alice"), userId: "alice" }]);
    assert.ok(seenByBob.some((d) => d.kind === RELAY_KIND.REPLY && d.to === "alice"));
  });

  it("refuses someone else's token without asking the bridge", async () => {
    const { alice, forwarded } = world();
    const reply = await alice.send(attack("tok-bob"));
    assert.equal(reply.code, "forbidden");
    assert.equal(forwarded.length, 0);
  });

  it("drops a request whose claimed sender is not the socket's sender", async () => {
    const { gm, forwarded } = world();
    const replies = [];
    gm.socket.emit = (_name, data) => replies.push(data);
    await gm.receive({ kind: RELAY_KIND.REQUEST, from: "bob", message: attack("tok-bob") }, "alice");
    assert.deepEqual([forwarded.length, replies.length], [0, 0]);
  });

  it("tells the player at once when no referee holds the bridge, and after a while when none answers", async () => {
    const clock = new FakeClock();
    const lonely = (holderOnline) =>
      new Relay({ socket: { emit() {}, on() {} }, userId: () => "alice", isHolder: () => false, holderOnline, ...tests, forward: async () => ({}), timers: clock, timeoutMs: 1000 });
    assert.equal((await lonely(() => false).send(attack("tok-alice"))).code, "no_gm");
    const pending = lonely(() => true).send(attack("tok-alice"));
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
