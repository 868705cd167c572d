// BridgeConnection against a scripted socket and a manual clock: handshake, requests by id,
// timeouts, the reconnect backoff and resending unanswered requests with the same id, also after a
// `journal_unreadable` answer.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { BACKOFF, BridgeConnection, BridgeError, RESEND_DELAYS_MS, backoffDelay } from "../../vtt_module/scripts/connection.js";
import { FakeClock, fakeSocketClass, flush } from "./fakes.mjs";

const WELCOME = {
  type: "welcome",
  server_version: "0.1.0",
  protocol_version: 1,
  rules_version: "0.1.0",
  systems: [{ name: "gurps", title: "GURPS", default_action: "attack" }],
  session: "s1",
  scripted_dice: false,
};

function setup(options = {}) {
  const clock = new FakeClock();
  const Socket = fakeSocketClass();
  const statuses = [];
  const conn = new BridgeConnection({
    url: "ws://127.0.0.1:8765/ws",
    token: "sekrit",
    WebSocket: Socket,
    timers: clock,
    requestTimeoutMs: 5000,
    helloTimeoutMs: 3000,
    client: "volley-test",
    ...options,
  });
  conn.onStatus((s) => statuses.push(s));
  const connect = () => {
    const socket = Socket.instances.at(-1);
    socket.open();
    socket.receive(WELCOME);
    return socket;
  };
  return { clock, Socket, conn, statuses, connect };
}

describe("handshake", () => {
  it("says hello with the token first and is ready only after welcome", () => {
    const { conn, Socket } = setup();
    conn.start();
    assert.equal(conn.state, "connecting");
    const socket = Socket.instances[0];
    assert.equal(socket.url, "ws://127.0.0.1:8765/ws");
    socket.open();
    assert.deepEqual(socket.messages(), [{ type: "hello", token: "sekrit", client: "volley-test" }]);
    assert.equal(conn.state, "connecting");
    socket.receive(WELCOME);
    assert.equal(conn.state, "ready");
    assert.equal(conn.welcome.session, "s1");
  });

  it("holds requests made before welcome and sends them after it", async () => {
    const { conn, Socket } = setup();
    conn.start();
    const socket = Socket.instances[0];
    const answer = conn.request({ type: "odds", id: "r1", request: { system: "gurps" } });
    socket.open();
    assert.equal(socket.messages().length, 1, "only the hello before welcome");
    socket.receive(WELCOME);
    assert.deepEqual(socket.messages()[1], { type: "odds", id: "r1", request: { system: "gurps" } });
    socket.receive({ type: "odds", id: "r1", odds: { targets: [], jam: 0 } });
    assert.equal((await answer).type, "odds");
  });

  it("stops and reports a refused token instead of reconnecting forever", async () => {
    const { conn, Socket, clock, statuses } = setup();
    conn.start();
    const waiting = conn.request({ type: "ping", id: "p1" });
    const socket = Socket.instances[0];
    socket.open();
    socket.receive({ type: "error", id: null, code: "unauthorized", message: "wrong access token" });
    assert.equal(conn.state, "refused");
    assert.equal(statuses.at(-1).error.code, "unauthorized");
    await assert.rejects(waiting, (e) => e instanceof BridgeError && e.code === "unauthorized");
    clock.advance(120_000);
    assert.equal(Socket.instances.length, 1, "no reconnect after a refusal");
    await assert.rejects(conn.request({ type: "ping", id: "p2" }), { code: "refused" });
    conn.start(); // the referee fixed the token in the settings
    assert.equal(Socket.instances.length, 2);
  });

  it("does not retry an address the browser refuses to open", async () => {
    const clock = new FakeClock();
    const statuses = [];
    class Refusing {
      constructor(url) {
        throw new SyntaxError(`The URL '${url}' is invalid.`);
      }
    }
    const conn = new BridgeConnection({ url: "http://nope", token: "t", WebSocket: Refusing, timers: clock });
    conn.onStatus((s) => statuses.push(s));
    const waiting = conn.request({ type: "ping", id: "p" });
    conn.start();
    assert.equal(conn.state, "refused");
    assert.equal(statuses.at(-1).error.code, "bad_url");
    assert.match(statuses.at(-1).error.message, /cannot open http:\/\/nope/);
    await assert.rejects(waiting, { code: "bad_url" });
    assert.deepEqual(clock.pendingDelays(), [], "no reconnect timer");
  });

  it("gives up on a bridge that never says welcome and tries again", () => {
    const { conn, Socket, clock } = setup();
    conn.start();
    Socket.instances[0].open();
    clock.advance(2999);
    assert.equal(Socket.instances[0].closed, null);
    clock.advance(1);
    assert.equal(Socket.instances[0].closed.code, 4000);
    assert.equal(conn.state, "waiting");
    clock.advance(BACKOFF.initialMs);
    assert.equal(Socket.instances.length, 2);
  });
});

describe("requests", () => {
  it("matches answers to requests by id, whatever the order", async () => {
    const { conn, connect } = setup();
    conn.start();
    const socket = connect();
    const a = conn.request({ type: "odds", id: "a", request: {} });
    const b = conn.request({ type: "attack", id: "b", request: {} });
    socket.receive({ type: "result", id: "b", result: { hits: 2 }, card: {}, updates: [] });
    socket.receive({ type: "odds", id: "a", odds: { jam: 0.1 } });
    assert.deepEqual((await a).odds, { jam: 0.1 });
    assert.deepEqual((await b).result, { hits: 2 });
    assert.equal(conn.pendingCount, 0);
  });

  it("turns an error answer into a BridgeError with the code and JSON path", async () => {
    const { conn, connect } = setup();
    conn.start();
    const socket = connect();
    const r = conn.request({ type: "attack", id: "x", request: {} });
    socket.receive({ type: "error", id: "x", code: "rule", message: "shots 12 > RoF 10", path: "$.shots" });
    await assert.rejects(r, (e) => {
      assert.ok(e instanceof BridgeError);
      assert.equal(e.code, "rule");
      assert.equal(e.path, "$.shots");
      assert.equal(e.message, "$.shots: shots 12 > RoF 10");
      return true;
    });
  });

  it("times a request out, and drops an answer that comes too late", async () => {
    const logs = [];
    const { conn, connect, clock } = setup({ log: (...a) => logs.push(a.join(" ")) });
    conn.start();
    const socket = connect();
    const r = conn.request({ type: "attack", id: "slow", request: {} });
    clock.advance(4999);
    assert.equal(conn.pendingCount, 1);
    clock.advance(1);
    await assert.rejects(r, { code: "timeout" });
    assert.equal(conn.pendingCount, 0);
    socket.receive({ type: "result", id: "slow", result: {}, card: {}, updates: [] });
    assert.ok(logs.some((l) => l.includes("no handler for result slow")));
  });

  it("sends a request id only once while it waits", async () => {
    const { conn, connect } = setup();
    conn.start();
    const socket = connect();
    const first = conn.request({ type: "attack", id: "same", request: {} });
    const second = conn.request({ type: "attack", id: "same", request: {} });
    assert.equal(first, second);
    assert.equal(socket.messages().filter((m) => m.id === "same").length, 1);
  });

  it("refuses a request without an id", async () => {
    const { conn } = setup();
    await assert.rejects(conn.request({ type: "attack" }), { code: "invalid" });
  });

  it("passes messages that answer nothing to the handler for their type", () => {
    const { conn, connect } = setup();
    const seen = [];
    conn.on("pong", (m) => seen.push(m));
    conn.start();
    const socket = connect();
    socket.receive({ type: "pong", id: null });
    socket.receive("not json at all");
    socket.receive({ no: "type" });
    assert.deepEqual(seen, [{ type: "pong", id: null }]);
  });

  it("fails everything waiting on stop() and never reconnects", async () => {
    const { conn, connect, clock, Socket } = setup();
    conn.start();
    const socket = connect();
    const r = conn.request({ type: "attack", id: "z", request: {} });
    conn.stop("referee left");
    await assert.rejects(r, { code: "closed", message: "referee left" });
    assert.equal(socket.closed.code, 1000);
    clock.advance(60_000);
    assert.equal(Socket.instances.length, 1);
  });
});

describe("reconnect", () => {
  it("backs off 1, 2, 4, 8, 16 s, then stays at the 30 s cap", () => {
    assert.deepEqual(
      Array.from({ length: 8 }, (_, k) => backoffDelay(k)),
      [1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000],
    );
  });

  it("waits the backoff between failed attempts and starts over after a welcome", () => {
    const { conn, Socket, clock, statuses } = setup();
    conn.start();
    const delays = [];
    for (let k = 0; k < 7; k++) {
      Socket.instances.at(-1).drop();
      delays.push(statuses.at(-1).delayMs);
      assert.equal(conn.state, "waiting");
      const before = Socket.instances.length;
      clock.advance(statuses.at(-1).delayMs - 1);
      assert.equal(Socket.instances.length, before, "not before the delay is up");
      clock.advance(1);
      assert.equal(Socket.instances.length, before + 1);
    }
    assert.deepEqual(delays, [1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);
    connect(Socket);
    Socket.instances.at(-1).drop();
    assert.equal(statuses.at(-1).delayMs, 1000, "a welcome resets the backoff");

    function connect(S) {
      const s = S.instances.at(-1);
      s.open();
      s.receive(WELCOME);
    }
  });

  it("resends unanswered requests with the same id after reconnecting", async () => {
    const { conn, connect, Socket, clock } = setup({ requestTimeoutMs: 60_000 });
    conn.start();
    const first = connect();
    const answered = conn.request({ type: "odds", id: "done", request: {} });
    first.receive({ type: "odds", id: "done", odds: {} });
    await answered;
    const attack = conn.request({ type: "attack", id: "volley-1", request: { shots: 3 } });
    assert.equal(first.messages().at(-1).id, "volley-1");
    first.drop();
    clock.advance(1000);
    const second = connect();
    const resent = second.messages().slice(1); // after the hello
    assert.deepEqual(resent, [{ type: "attack", id: "volley-1", request: { shots: 3 } }]);
    second.receive({ type: "result", id: "volley-1", result: { ok: 1 }, card: {}, updates: [] });
    assert.deepEqual((await attack).result, { ok: 1 });
    assert.equal(Socket.instances.length, 2);
    await flush();
  });

  it("ignores events from a socket it has already replaced", () => {
    const { conn, Socket, clock } = setup();
    conn.start();
    const old = Socket.instances[0];
    old.open();
    clock.advance(3000); // no welcome: closed, waiting to reconnect
    const onclose = old.onclose;
    assert.equal(onclose, null, "handlers are detached from a socket given up on");
    clock.advance(1000);
    assert.equal(Socket.instances.length, 2);
  });
});

describe("journal_unreadable: the same id again", () => {
  const unreadable = (id) => ({
    type: "error",
    id,
    code: "journal_unreadable",
    message: "whether this id was already answered cannot be read just now; send the same request again",
  });
  const ATTACK = { type: "attack", id: "volley-7", request: { system: "gurps", shots: 3 } };
  const sentOf = (socket, id) => socket.messages().filter((m) => m.id === id);

  it("waits 250 ms, 500 ms, 1 s, 2 s: four resends inside the request's own timeout", () => {
    assert.deepEqual([...RESEND_DELAYS_MS], [250, 500, 1000, 2000]);
    assert.ok(Object.isFrozen(RESEND_DELAYS_MS));
    const total = RESEND_DELAYS_MS.reduce((a, b) => a + b, 0);
    assert.ok(total < 15_000 / 2, "room left for the answers themselves");
  });

  it("sends the same message, same id and payload, after each delay and not before", async () => {
    const { conn, connect, clock } = setup({ requestTimeoutMs: 15_000 });
    conn.start();
    const socket = connect();
    const answer = conn.request(structuredClone(ATTACK));
    let settled = false;
    answer.then(
      () => (settled = true),
      () => (settled = true),
    );
    for (const [k, delay] of RESEND_DELAYS_MS.entries()) {
      assert.equal(sentOf(socket, ATTACK.id).length, k + 1);
      socket.receive(unreadable(ATTACK.id));
      clock.advance(delay - 1);
      assert.equal(sentOf(socket, ATTACK.id).length, k + 1, `resend ${k + 1} not before ${delay} ms`);
      clock.advance(1);
      assert.equal(sentOf(socket, ATTACK.id).length, k + 2, `resend ${k + 1} after ${delay} ms`);
    }
    for (const sent of sentOf(socket, ATTACK.id)) assert.deepEqual(sent, ATTACK);
    await flush();
    assert.equal(settled, false, "still waiting for the last resend's answer");
    assert.equal(conn.pendingCount, 1);
    socket.receive({ type: "result", id: ATTACK.id, result: { hits: 1 }, card: {}, updates: [] });
    assert.deepEqual((await answer).result, { hits: 1 });
  });

  it("gives up after the last resend and surfaces the bridge's journal_unreadable", async () => {
    const { conn, connect, clock } = setup({ requestTimeoutMs: 15_000 });
    conn.start();
    const socket = connect();
    const answer = conn.request(ATTACK);
    for (const delay of RESEND_DELAYS_MS) {
      socket.receive(unreadable(ATTACK.id));
      clock.advance(delay);
    }
    socket.receive(unreadable(ATTACK.id));
    await assert.rejects(answer, (e) => e instanceof BridgeError && e.code === "journal_unreadable");
    assert.equal(sentOf(socket, ATTACK.id).length, 1 + RESEND_DELAYS_MS.length);
    assert.equal(conn.pendingCount, 0);
    assert.deepEqual(clock.pendingDelays(), [], "no timer left behind");
    clock.advance(60_000);
    assert.equal(sentOf(socket, ATTACK.id).length, 1 + RESEND_DELAYS_MS.length, "nothing sent after giving up");
  });

  it("resolves the original promise once when the second try succeeds", async () => {
    const { conn, connect, clock } = setup();
    conn.start();
    const socket = connect();
    const answer = conn.request(ATTACK);
    const again = conn.request(ATTACK); // the same id asked again while it waits joins it
    assert.equal(again, answer);
    let resolved = 0;
    answer.then(() => (resolved += 1));
    socket.receive(unreadable(ATTACK.id));
    clock.advance(RESEND_DELAYS_MS[0]);
    socket.receive({ type: "result", id: ATTACK.id, result: { hits: 2 }, card: {}, updates: [] });
    assert.deepEqual((await answer).result, { hits: 2 });
    await flush();
    assert.equal(resolved, 1);
    assert.equal(sentOf(socket, ATTACK.id).length, 2);
    assert.equal(conn.pendingCount, 0);
    assert.deepEqual(clock.pendingDelays(), [], "neither the timeout nor a resend still waits");
  });

  it("does not resend journal_failed, internal or any other refusal", async () => {
    for (const code of ["journal_failed", "internal", "rule", "shutting_down"]) {
      const { conn, connect, clock } = setup();
      conn.start();
      const socket = connect();
      const answer = conn.request(ATTACK);
      socket.receive({ type: "error", id: ATTACK.id, code, message: code });
      await assert.rejects(answer, { code });
      clock.advance(10_000);
      assert.equal(sentOf(socket, ATTACK.id).length, 1, `${code} is final`);
    }
  });

  it("after a drop during the wait, sends it once on welcome with the same id, and not again", async () => {
    const { conn, connect, clock, Socket } = setup({ requestTimeoutMs: 15_000 });
    conn.start();
    const first = connect();
    const answer = conn.request(ATTACK);
    first.receive(unreadable(ATTACK.id));
    first.drop(); // while the 250 ms wait runs
    clock.advance(BACKOFF.initialMs); // the resend's time passes with no socket; the reconnect opens one
    assert.equal(Socket.instances.length, 2);
    const second = connect();
    assert.deepEqual(second.messages().slice(1), [ATTACK], "sent once, on welcome");
    clock.advance(10_000);
    assert.equal(sentOf(second, ATTACK.id).length, 1, "no second copy from the resend timer");
    second.receive({ type: "result", id: ATTACK.id, result: { ok: 1 }, card: {}, updates: [] });
    assert.deepEqual((await answer).result, { ok: 1 });
    assert.equal(sentOf(first, ATTACK.id).length, 1);
  });

  it("a welcome that comes before the resend's delay is up sends it at once, and the timer no more", async () => {
    const { conn, connect, clock } = setup({ requestTimeoutMs: 15_000, resendDelaysMs: [250, 5000] });
    conn.start();
    const first = connect();
    const answer = conn.request(ATTACK);
    first.receive(unreadable(ATTACK.id));
    clock.advance(250);
    first.receive(unreadable(ATTACK.id)); // second wait: 5 s
    first.drop();
    clock.advance(BACKOFF.initialMs);
    const second = connect();
    assert.equal(sentOf(second, ATTACK.id).length, 1, "sent on welcome");
    clock.advance(5000);
    assert.equal(sentOf(second, ATTACK.id).length, 1, "the cancelled timer sends nothing");
    second.receive(unreadable(ATTACK.id)); // both delays were spent before the drop: this one is final
    await assert.rejects(answer, { code: "journal_unreadable" });
  });

  it("out of time while waiting to resend, fails with the bridge's journal_unreadable", async () => {
    const { conn, connect, clock } = setup({ requestTimeoutMs: 1000 });
    conn.start();
    const socket = connect();
    const answer = conn.request(ATTACK);
    clock.advance(200);
    socket.receive(unreadable(ATTACK.id));
    clock.advance(250); // resent at 450 ms
    clock.advance(300);
    socket.receive(unreadable(ATTACK.id)); // at 750 ms: the 500 ms wait would end at 1250 ms
    clock.advance(249);
    assert.equal(conn.pendingCount, 1);
    clock.advance(1); // the request's own timeout, at 1000 ms, comes first
    await assert.rejects(answer, { code: "journal_unreadable" });
    assert.equal(sentOf(socket, ATTACK.id).length, 2);
    assert.deepEqual(clock.pendingDelays(), []);
  });

  it("stop() during the wait fails the request and sends nothing more", async () => {
    const { conn, connect, clock } = setup();
    conn.start();
    const socket = connect();
    const answer = conn.request(ATTACK);
    socket.receive(unreadable(ATTACK.id));
    conn.stop("referee left");
    await assert.rejects(answer, { code: "closed" });
    assert.deepEqual(clock.pendingDelays(), []);
    assert.equal(sentOf(socket, ATTACK.id).length, 1);
  });
});
