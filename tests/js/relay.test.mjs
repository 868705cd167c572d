// The player -> GM relay over the module socket: ownership checks, dice stripping, answers routed
// back to the user who asked, and a GM election every client agrees on.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { electGm, isElectedGm } from "../../vtt_module/scripts/gm-election.js";
import { actingTokenId, Relay, RELAY_KIND, SOCKET_NAME, vetRelayed } from "../../vtt_module/scripts/relay.js";
import { FakeClock, flush } from "./fakes.mjs";

const owners = { "tok-alice": ["alice"], "tok-bob": ["bob"] };
const ownsToken = (userId, tokenId) => (owners[tokenId] ?? []).includes(userId);

const attack = (tokenId, extra = {}) => ({
  type: "attack",
  id: `req-${tokenId}`,
  request: { system: "gurps", attacker: { id: tokenId, skill: 14 }, shots: 3, ...extra },
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

describe("GM election", () => {
  const users = [
    { id: "zeta", active: true, isGM: true },
    { id: "beta", active: false, isGM: true },
    { id: "gamma", active: true, isGM: true },
    { id: "alpha", active: true, isGM: false },
  ];

  it("picks the active GM with the lowest id", () => {
    assert.equal(electGm(users).id, "gamma");
    assert.ok(isElectedGm(users, "gamma"));
    assert.ok(!isElectedGm(users, "zeta"));
    assert.ok(!isElectedGm(users, "alpha"), "a player is never elected");
  });

  it("moves when that GM leaves or a lower one arrives, and is null with no GM", () => {
    const gammaLeft = users.map((u) => (u.id === "gamma" ? { ...u, active: false } : u));
    assert.equal(electGm(gammaLeft).id, "zeta");
    const betaBack = users.map((u) => (u.id === "beta" ? { ...u, active: true } : u));
    assert.equal(electGm(betaBack).id, "beta");
    assert.equal(electGm(users.filter((u) => !u.isGM)), null);
  });
});

describe("vetting a relayed request", () => {
  it("finds the acting token under attacker or shooter", () => {
    assert.equal(actingTokenId({ attacker: { id: "a" } }), "a");
    assert.equal(actingTokenId({ shooter: { id: "s" } }), "s");
    assert.equal(actingTokenId({ attacker: { name: "no id" } }), null);
    assert.equal(actingTokenId("nope"), null);
  });

  it("refuses a token the user does not own, naming the field", () => {
    const { refuse } = vetRelayed(attack("tok-bob"), "alice", ownsToken);
    assert.equal(refuse.type, "error");
    assert.equal(refuse.code, "forbidden");
    assert.equal(refuse.id, "req-tok-bob");
    assert.equal(refuse.path, "$.request.attacker.id");
    assert.match(refuse.message, /alice does not own token tok-bob/);
  });

  it("refuses non-request messages and requests without an acting token", () => {
    assert.equal(vetRelayed({ type: "allocate", id: "x" }, "alice", ownsToken).refuse.code, "forbidden");
    assert.equal(vetRelayed({ type: "hello", id: "x", token: "t" }, "alice", ownsToken).refuse.code, "forbidden");
    assert.equal(vetRelayed({ type: "attack", id: "x", request: {} }, "alice", ownsToken).refuse.code, "invalid");
    assert.equal(vetRelayed({ type: "attack", request: {} }, "alice", ownsToken).refuse.code, "invalid");
  });

  it("strips scripted dice from a player's request and leaves the original alone", () => {
    const message = attack("tok-alice", { dice: [1, 1, 1] });
    const { forward } = vetRelayed(message, "alice", ownsToken);
    assert.equal(forward.request.dice, undefined);
    assert.deepEqual(forward.request.attacker, { id: "tok-alice", skill: 14 });
    assert.deepEqual(message.request.dice, [1, 1, 1], "the caller's object is not mutated");
  });
});

describe("Relay between a player and the GM", () => {
  function world() {
    const bus = socketBus();
    const clock = new FakeClock();
    const forwarded = [];
    const gm = new Relay({
      socket: bus.client("gm"),
      userId: () => "gm",
      isGm: () => true,
      ownsToken,
      forward: async (message, userId) => {
        forwarded.push({ message, userId });
        return { type: "result", id: message.id, result: { hits: 2 }, card: {}, updates: [] };
      },
      timers: clock,
    });
    const player = (id) =>
      new Relay({
        socket: bus.client(id),
        userId: () => id,
        isGm: () => false,
        ownsToken: () => {
          throw new Error("players never check ownership");
        },
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

  it("forwards an owned token's attack and answers only the requester", async () => {
    const { alice, bob, forwarded } = world();
    const seenByBob = [];
    bob.socket.on(SOCKET_NAME, (d) => seenByBob.push(d));
    const reply = await alice.send(attack("tok-alice"));
    assert.deepEqual(reply, { type: "result", id: "req-tok-alice", result: { hits: 2 }, card: {}, updates: [] });
    assert.equal(forwarded.length, 1);
    assert.equal(forwarded[0].userId, "alice");
    // Bob saw the traffic go by but his relay resolved nothing for it.
    assert.ok(seenByBob.some((d) => d.kind === RELAY_KIND.REPLY && d.to === "alice"));
  });

  it("refuses an attack with someone else's token without asking the bridge", async () => {
    const { alice, forwarded } = world();
    const reply = await alice.send(attack("tok-bob"));
    assert.equal(reply.type, "error");
    assert.equal(reply.code, "forbidden");
    assert.equal(forwarded.length, 0);
  });

  it("drops a request whose claimed sender is not the socket's sender", async () => {
    const { gm, forwarded } = world();
    const replies = [];
    gm.socket.emit = (_name, data) => replies.push(data);
    await gm.receive({ kind: RELAY_KIND.REQUEST, from: "bob", message: attack("tok-bob") }, "alice");
    assert.equal(forwarded.length, 0);
    assert.equal(replies.length, 0);
  });

  it("tells the player when no GM answers in time", async () => {
    const { alice, clock } = world();
    // Nobody on the bus is a GM this time.
    const lonely = new Relay({
      socket: { emit() {}, on() {} },
      userId: () => "alice",
      isGm: () => false,
      ownsToken,
      forward: async () => ({}),
      timers: clock,
      timeoutMs: 1000,
    });
    const pending = lonely.send(attack("tok-alice"));
    clock.advance(1000);
    const reply = await pending;
    assert.equal(reply.code, "no_gm");
    assert.ok(alice);
  });

  it("turns a bridge failure into an error answer for the player", async () => {
    const bus = socketBus();
    const gm = new Relay({
      socket: bus.client("gm"),
      userId: () => "gm",
      isGm: () => true,
      ownsToken,
      forward: async () => {
        throw Object.assign(new Error("$.shots: shots 12 > RoF 10"), { code: "rule", reason: "shots 12 > RoF 10", path: "$.shots" });
      },
    });
    gm.attach();
    const reply = await gm.send(attack("tok-alice"));
    // The GM's own request for a token they do not own is refused too (GMs own everything in Foundry,
    // but the relay asks the same question of everyone).
    assert.equal(reply.code, "forbidden");
    const owned = await gm.serve(attack("tok-alice"), "alice");
    assert.deepEqual(owned, { type: "error", id: "req-tok-alice", code: "rule", message: "shots 12 > RoF 10", path: "$.shots" });
    await flush();
  });
});
