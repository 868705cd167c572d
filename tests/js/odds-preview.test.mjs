// The dialog's odds summary, its bar chart (with a text alternative), and its fetching: at once, paced,
// with at most one question in flight.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { ASKED_AGAIN_AFTER, chartView, formatHits, formatPercent, MAX_BARS, OddsPreview, PREVIEW_SPACING_MS, RATE_LIMIT_RETRIES, RATE_LIMIT_RETRY_MS, summariseOdds } from "../../vtt_module/scripts/odds-preview.js";
import { FakeClock, flush } from "./fakes.mjs";

describe("summariseOdds", () => {
  it("gives expected hits, the chance of at least one hit and the jam chance", () => {
    // 3 shots at Rcl 2: 0, 1, 2 or 3 hits with these probabilities.
    const summary = summariseOdds({ targets: [{ id: "raider", hits: [0.375, 0.125, 0.25, 0.25] }], jam: 0.0185 });
    const [raider] = summary.targets;
    assert.equal(raider.id, "raider");
    assert.ok(Math.abs(raider.expected - (0.125 + 0.5 + 0.75)) < 1e-12);
    assert.ok(Math.abs(raider.atLeastOne - 0.625) < 1e-12);
    assert.equal(raider.mostLikely, 0);
    assert.equal(summary.jam, 0.0185);
    assert.ok(Math.abs(summary.expectedTotal - 1.375) < 1e-12);
  });

  it("adds up several targets and tolerates junk", () => {
    const summary = summariseOdds({ targets: [{ id: "a", hits: [0.5, 0.5] }, { id: "b", hits: [0, 0, 1] }, "junk"], jam: "x" });
    assert.deepEqual(
      summary.targets.map((t) => [t.id, t.expected, t.atLeastOne, t.mostLikely]),
      [
        ["a", 0.5, 0.5, 0],
        ["b", 2, 1, 2],
        ["", 0, 0, 0],
      ],
    );
    assert.equal(summary.expectedTotal, 2.5);
    assert.equal(summary.jam, 0);
    assert.deepEqual(summariseOdds(null), { targets: [], expectedTotal: 0, jam: 0 });
  });
});

describe("formatPercent", () => {
  it("keeps small and near-certain chances honest", () => {
    assert.deepEqual(
      [0, 0.0004, 0.0186, 0.625, 0.9996, 1].map((p) => formatPercent(p)),
      ["0%", "<0.1%", "1.9%", "63%", ">99.9%", "100%"],
    );
    assert.deepEqual([0.0004, 0.0186].map((p) => formatPercent(p, ",")), ["<0,1%", "1,9%"]);
  });
});

describe("chartView", () => {
  const words = {
    name: "Raider",
    hitsLabel: (k) => `${k} ${k === 1 ? "hit" : "hits"}`,
    describe: ({ name, bars, expected, atLeastOne, mostLikely }) =>
      `${name}: ${bars}. Expected ${expected}; at least one ${atLeastOne}; most likely ${mostLikely}.`,
  };

  it("draws a bar per number of hits, the tallest full height, and says it all in words", () => {
    const [raider] = summariseOdds({ targets: [{ id: "r", hits: [0.375, 0.125, 0.25, 0.25, 0, 0] }] }).targets;
    const chart = chartView(raider, words);
    assert.deepEqual(chart.bars.map((b) => [b.hits, b.height, b.percent, b.mostLikely]), [
      ["0", 100, "38%", true],
      ["1", 33, "13%", false],
      ["2", 67, "25%", false],
      ["3", 67, "25%", false],
    ]);
    assert.equal(chart.description, "Raider: 0 hits 38%, 1 hit 13%, 2 hits 25%, 3 hits 25%. Expected 1.38; at least one 63%; most likely 0 hits.");
    assert.equal(chartView(raider, { ...words, decimal: "," }).expected, "1,38");
  });

  it("sums a long tail into one last bar", () => {
    const hits = Array.from({ length: 40 }, () => 1 / 40);
    const chart = chartView(summariseOdds({ targets: [{ id: "r", hits }] }).targets[0], words);
    assert.equal(chart.bars.length, MAX_BARS);
    assert.equal(chart.bars.at(-1).hits, `${MAX_BARS - 1}+`);
    // The tail bar is the likeliest only as a sum: the sentence names the likeliest single count.
    const tail = chartView(summariseOdds({ targets: [{ id: "r", hits: [0.1, 0, ...Array.from({ length: 30 }, (_, k) => (k === 20 ? 0.3 : 0.6 / 29))] }] }).targets[0], words);
    assert.match(tail.description, /most likely 22 hits\.$/);
    assert.ok(Math.abs(chart.bars.at(-1).p - (40 - (MAX_BARS - 1)) / 40) < 1e-12);
    assert.equal(formatHits(1.375, ","), "1,38");
  });
});

describe("OddsPreview", () => {
  function setup({ offline = () => null } = {}) {
    const clock = new FakeClock();
    const asked = [];
    const answers = [];
    /** Each fetch waits until the test resolves it. */
    const resolvers = [];
    const preview = new OddsPreview({
      fetchOdds: (request) => {
        asked.push(request);
        return new Promise((resolve, reject) => resolvers.push({ resolve, reject }));
      },
      onSummary: (summary, error) => answers.push({ summary, error }),
      offline,
      spacingMs: 200,
      timers: clock,
      now: () => clock.now,
    });
    return { clock, asked, answers, resolvers, preview };
  }

  it("asks at once when the bridge has not been asked for the spacing", async () => {
    const { clock, asked, resolvers, preview } = setup();
    preview.update({ shots: 1 });
    assert.deepEqual(asked, [{ shots: 1 }], "the dialog opening, or the first key, waits for nothing");
    resolvers[0].resolve({ targets: [], jam: 0 });
    await flush();
    clock.advance(200);
    preview.update({ shots: 12 });
    assert.deepEqual(asked, [{ shots: 1 }, { shots: 12 }]);
  });

  it("paces changes closer together than the spacing, asking only the newest form", async () => {
    const { clock, asked, resolvers, preview } = setup();
    preview.update({ shots: 1 });
    resolvers[0].resolve({ targets: [], jam: 0 });
    await flush();
    clock.advance(50);
    preview.update({ shots: 12 });
    clock.advance(50);
    preview.update({ shots: 123 });
    clock.advance(99);
    assert.deepEqual(asked, [{ shots: 1 }], "within the spacing nothing more is asked");
    clock.advance(1);
    assert.deepEqual(asked, [{ shots: 1 }, { shots: 123 }], "12 was never asked: 123 replaced it");
  });

  it("keeps a player dragging through a field under the bridge's flood limit", async () => {
    // bridge/server/ratelimit.py: RATE = 20 messages a second per relayed user, sustained.
    assert.ok(1000 / PREVIEW_SPACING_MS < 20);
    const clock = new FakeClock();
    const asked = [];
    const preview = new OddsPreview({
      fetchOdds: async (request) => {
        asked.push(request);
        return { targets: [], jam: 0 };
      },
      onSummary: () => {},
      timers: clock,
      now: () => clock.now,
    });
    // A change every 16 ms (a frame) for ten seconds, each answered at once.
    for (let i = 0; i < 625; i += 1) {
      preview.update({ shots: i });
      await flush();
      clock.advance(16);
    }
    assert.ok(asked.length <= 10_000 / PREVIEW_SPACING_MS + 1, `${asked.length} questions in 10 s`);
    assert.ok(asked.length >= 10_000 / (PREVIEW_SPACING_MS + 16) - 1, `${asked.length} questions in 10 s`);
  });

  it("keeps one question in flight; only the newest waiting one is asked next, and only its answer shown", async () => {
    const { clock, asked, answers, resolvers, preview } = setup();
    preview.update({ shots: 3 });
    clock.advance(200);
    assert.ok(preview.inFlight);
    preview.update({ shots: 4 });
    clock.advance(200);
    preview.update({ shots: 5 });
    clock.advance(200);
    assert.deepEqual(asked, [{ shots: 3 }], "nothing more is asked while the bridge is answering");
    resolvers[0].resolve({ targets: [{ id: "t", hits: [1] }], jam: 0 });
    await flush();
    assert.deepEqual(answers, [], "the answer to a stale form is dropped");
    assert.deepEqual(asked, [{ shots: 3 }, { shots: 5 }], "4 was never asked: 5 replaced it");
    resolvers[1].resolve({ targets: [{ id: "t", hits: [0, 1] }], jam: 0 });
    await flush();
    assert.equal(answers.length, 1);
    assert.equal(answers[0].summary.targets[0].expected, 1);
    assert.ok(!preview.inFlight);
  });

  it("says at once that the bridge is offline instead of asking and timing out", () => {
    let down = { message: "bridge offline" };
    const { clock, asked, answers, preview } = setup({ offline: () => down });
    preview.update({ shots: 3 });
    assert.deepEqual(answers, [{ summary: null, error: { message: "bridge offline" } }]);
    clock.advance(1000);
    assert.deepEqual(asked, []);
    down = null;
    preview.update({ shots: 3 });
    clock.advance(200);
    assert.deepEqual(asked, [{ shots: 3 }]);
  });

  it("reports a failed fetch, clears on null and goes quiet after cancel", async () => {
    const { clock, answers, resolvers, preview, asked } = setup();
    preview.update({ shots: 99 });
    clock.advance(200);
    resolvers[0].reject(new Error("$.shots: shots 99 > RoF 10"));
    await flush();
    assert.equal(answers[0].summary, null);
    assert.match(answers[0].error.message, /RoF 10/);
    preview.update(null);
    assert.deepEqual(answers[1], { summary: null, error: undefined });
    preview.update({ shots: 2 });
    preview.update({ shots: 3 });
    preview.cancel();
    clock.advance(1000);
    assert.deepEqual(asked.slice(1), [{ shots: 2 }], "3, paced, was never asked");
    resolvers[1].resolve({ targets: [{ id: "t", hits: [1] }], jam: 0 });
    await flush();
    assert.equal(answers.length, 2, "the answer after cancel is not shown");
  });
});

describe("OddsPreview on a busy table", () => {
  it("asks again when the bridge's flood limit turns a preview away, then gives up and says why", async () => {
    const clock = new FakeClock();
    const asked = [];
    const answers = [];
    const limited = Object.assign(new Error("more than 20 messages/s"), { code: "rate_limited" });
    let refusals = 2;
    const preview = new OddsPreview({
      fetchOdds: async (request) => {
        asked.push(request);
        if (refusals-- > 0) throw limited;
        return { targets: [{ id: "t", hits: [0.5, 0.5] }], jam: 0 };
      },
      onSummary: (summary, error) => answers.push({ summary, error }),
      spacingMs: 200,
      timers: clock,
      now: () => clock.now,
    });
    preview.update({ shots: 1 });
    clock.advance(200);
    await flush();
    assert.deepEqual(answers, [], "a refusal for the flood limit is not shown");
    clock.advance(RATE_LIMIT_RETRY_MS);
    await flush();
    clock.advance(RATE_LIMIT_RETRY_MS);
    await flush();
    assert.equal(asked.length, 3);
    assert.equal(answers.length, 1);
    assert.equal(answers[0].summary.targets[0].expected, 0.5);

    refusals = 99;
    preview.update({ shots: 2 });
    clock.advance(200);
    for (let i = 0; i < RATE_LIMIT_RETRIES; i += 1) {
      await flush();
      clock.advance(RATE_LIMIT_RETRY_MS);
    }
    await flush();
    assert.equal(answers.at(-1).error, limited, "after its retries the preview says why it has no odds");
    assert.equal(asked.length, 3 + 1 + RATE_LIMIT_RETRIES);
  });

  it("asks again after a question the connection gave up on, instead of staying empty", async () => {
    // A cold bridge on a busy machine: the first answer comes after the connection's timeout, to a
    // request it no longer waits for. The preview asks again; the next answer is drawn.
    assert.ok(ASKED_AGAIN_AFTER.includes("timeout"));
    const clock = new FakeClock();
    const asked = [];
    const answers = [];
    const timedOut = Object.assign(new Error("no answer from the bridge in 15 s"), { code: "timeout" });
    let silences = 1;
    const preview = new OddsPreview({
      fetchOdds: async (request) => {
        asked.push(request);
        if (silences-- > 0) throw timedOut;
        return { targets: [{ id: "t", hits: [0.25, 0.75] }], jam: 0 };
      },
      onSummary: (summary, error) => answers.push({ summary, error }),
      spacingMs: 200,
      timers: clock,
      now: () => clock.now,
    });
    preview.update({ shots: 3 });
    await flush();
    assert.deepEqual(answers, [], "a timeout is not shown while the preview asks again");
    clock.advance(RATE_LIMIT_RETRY_MS);
    await flush();
    assert.deepEqual(asked, [{ shots: 3 }, { shots: 3 }]);
    assert.equal(answers.length, 1);
    assert.equal(answers[0].summary.targets[0].expected, 0.75);

    // Another refusal is shown at once: asking again cannot change it.
    const refused = Object.assign(new Error("shots 12 > RoF 10"), { code: "invalid" });
    preview.fetchOdds = async () => {
      throw refused;
    };
    preview.update({ shots: 12 });
    clock.advance(200);
    await flush();
    assert.equal(answers.at(-1).error, refused);
  });
});
