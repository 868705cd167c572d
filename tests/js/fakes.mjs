// Test doubles shared by the node:test files: a manual clock and a scripted WebSocket.

/** A clock that only moves when the test says so. */
export class FakeClock {
  now = 0;
  #next = 1;
  /** @type {Map<number, {at: number, fn: () => void}>} */
  timers = new Map();

  setTimeout = (fn, ms) => {
    const id = this.#next++;
    this.timers.set(id, { at: this.now + ms, fn });
    return id;
  };

  clearTimeout = (id) => {
    this.timers.delete(id);
  };

  /** Delays of the timers still waiting, soonest first. */
  pendingDelays() {
    return [...this.timers.values()].map((t) => t.at - this.now).sort((a, b) => a - b);
  }

  /** Move time forward, firing every timer that comes due, in order. */
  advance(ms) {
    const end = this.now + ms;
    for (;;) {
      let soonest = null;
      for (const [id, t] of this.timers) {
        if (t.at <= end && (soonest === null || t.at < soonest[1].at)) soonest = [id, t];
      }
      if (!soonest) break;
      this.timers.delete(soonest[0]);
      this.now = soonest[1].at;
      soonest[1].fn();
    }
    this.now = end;
  }
}

/** A WebSocket the test drives by hand; every instance is recorded on the class. */
export function fakeSocketClass() {
  class FakeSocket {
    static instances = [];
    readyState = 0;
    sent = [];
    closed = null;
    onopen = null;
    onmessage = null;
    onclose = null;
    onerror = null;

    constructor(url) {
      this.url = url;
      FakeSocket.instances.push(this);
    }

    get last() {
      return FakeSocket.instances.at(-1);
    }

    /** Messages sent so far, parsed. */
    messages() {
      return this.sent.map((s) => JSON.parse(s));
    }

    send(data) {
      if (this.readyState !== 1) throw new Error("send on a socket that is not open");
      this.sent.push(data);
    }

    close(code, reason) {
      this.closed = { code, reason };
      this.readyState = 3;
    }

    // --- driven by the test ---
    open() {
      this.readyState = 1;
      this.onopen?.({});
    }

    receive(message) {
      this.onmessage?.({ data: typeof message === "string" ? message : JSON.stringify(message) });
    }

    drop(code = 1006) {
      this.readyState = 3;
      this.onerror?.({});
      this.onclose?.({ code });
    }
  }
  return FakeSocket;
}

/** Let pending promise callbacks run. */
export const flush = () => new Promise((resolve) => setImmediate(resolve));
