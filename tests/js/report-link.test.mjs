// The "Session report" link: the bridge's report address, the token in a header (never the URL),
// errors the module can word, and the tab opened inside the click then pointed at a Blob URL.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import {
  REPORT_PATH,
  REVOKE_AFTER_MS,
  ReportError,
  fetchReport,
  openSessionReport,
  reportUrl,
} from "../../vtt_module/scripts/report-link.js";
import { FakeClock } from "./fakes.mjs";

const PAGE = "<!DOCTYPE html><title>Volley</title>";

/** A fetch that answers with `status` and records what it was asked. */
function fakeFetch(status = 200, body = PAGE, type = "text/html; charset=utf-8") {
  const calls = [];
  const fetch = async (url, init) => {
    calls.push({ url, init });
    return {
      ok: status >= 200 && status < 300,
      status,
      blob: async () => new Blob([body], { type }),
      text: async () => body,
    };
  };
  return { fetch, calls };
}

/** window.open: a tab whose address the test can read; `blocked` makes every open fail. */
function fakeOpen({ blocked = false } = {}) {
  const tabs = [];
  const open = (url = "", target = "") => {
    if (blocked) return null;
    const tab = { location: { href: url }, target, closed: false, close() { this.closed = true; } };
    tabs.push(tab);
    return tab;
  };
  return { open, tabs };
}

function fakeUrls() {
  const made = [];
  const revoked = [];
  return {
    made,
    revoked,
    createObjectURL(blob) {
      made.push(blob);
      return `blob:foundry/${made.length}`;
    },
    revokeObjectURL(url) {
      revoked.push(url);
    },
  };
}

describe("reportUrl", () => {
  it("takes the websocket's host and port", () => {
    assert.equal(reportUrl("ws://127.0.0.1:8765/ws"), `http://127.0.0.1:8765${REPORT_PATH}`);
    assert.equal(reportUrl("wss://table.example:9000/ws", "ru"), `https://table.example:9000${REPORT_PATH}?lang=ru`);
  });

  it("refuses an address that is not a bridge's", () => {
    assert.throws(() => reportUrl("not a url"), (e) => e instanceof ReportError && e.reason === "bad-address");
    assert.throws(() => reportUrl("ftp://host/ws"), (e) => e.reason === "bad-address");
  });
});

describe("fetchReport", () => {
  it("sends the token in the Authorization header, never in the URL", async () => {
    const { fetch, calls } = fakeFetch();
    const page = await fetchReport({ url: reportUrl("ws://127.0.0.1:8765/ws"), token: "sekrit", fetch });
    assert.equal(await page.text(), PAGE);
    assert.equal(calls.length, 1);
    assert.equal(calls[0].init.headers.Authorization, "Bearer sekrit");
    assert.equal(calls[0].init.credentials, "omit");
    assert.ok(!calls[0].url.includes("sekrit"));
  });

  it("asks for nothing without a token", async () => {
    const { fetch, calls } = fakeFetch();
    await assert.rejects(fetchReport({ url: "http://h/report/current", token: "", fetch }), { reason: "no-token" });
    assert.equal(calls.length, 0);
  });

  it("names a refused token, a missing extra, other statuses and a silent bridge", async () => {
    const url = "http://h/report/current";
    await assert.rejects(fetchReport({ url, token: "t", fetch: fakeFetch(401).fetch }), { reason: "unauthorized", status: 401 });
    await assert.rejects(fetchReport({ url, token: "t", fetch: fakeFetch(503, "install volley[report]\n").fetch }), {
      reason: "unavailable",
      message: "install volley[report]",
    });
    await assert.rejects(fetchReport({ url, token: "t", fetch: fakeFetch(500).fetch }), { reason: "http", status: 500 });
    const down = async () => {
      throw new TypeError("Failed to fetch");
    };
    await assert.rejects(fetchReport({ url, token: "t", fetch: down }), { reason: "network" });
  });

  it("labels the page as HTML whatever the response said", async () => {
    const page = await fetchReport({ url: "http://h/r", token: "t", fetch: fakeFetch(200, PAGE, "").fetch });
    assert.match(page.type, /^text\/html/);
  });
});

describe("openSessionReport", () => {
  function setup(options = {}) {
    const clock = new FakeClock();
    const { fetch, calls } = fakeFetch(options.status ?? 200);
    const { open, tabs } = fakeOpen(options);
    const urls = fakeUrls();
    const run = () =>
      openSessionReport({ bridgeUrl: "ws://127.0.0.1:8765/ws", token: "t", lang: "en", fetch, open, urls, timers: clock });
    return { clock, calls, tabs, urls, run };
  }

  it("opens the tab at once, then points it at the page's Blob URL", async () => {
    const { tabs, urls, calls, run } = setup();
    const shown = await run();
    assert.equal(tabs.length, 1);
    assert.equal(tabs[0].location.href, shown);
    assert.equal(shown, "blob:foundry/1");
    assert.equal(await urls.made[0].text(), PAGE);
    assert.equal(calls[0].url, `http://127.0.0.1:8765${REPORT_PATH}?lang=en`);
  });

  it("revokes the Blob URL once the tab has had time to load it", async () => {
    const { clock, urls, run } = setup();
    const shown = await run();
    clock.advance(REVOKE_AFTER_MS - 1);
    assert.deepEqual(urls.revoked, []);
    clock.advance(1);
    assert.deepEqual(urls.revoked, [shown]);
  });

  it("closes the empty tab when the bridge refuses", async () => {
    const { tabs, urls, run } = setup({ status: 401 });
    await assert.rejects(run(), { reason: "unauthorized" });
    assert.equal(tabs[0].closed, true);
    assert.equal(urls.made.length, 0);
  });

  it("says so when the browser blocks the tab", async () => {
    const { run } = setup({ blocked: true });
    await assert.rejects(run(), { reason: "popup-blocked" });
  });
});
