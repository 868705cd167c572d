"""The report's charts, drawn by matplotlib as SVG and inlined in the page (no network, no scripts).

Four kinds, where people would rather look than read: rounds per shooter, hits against expected hits,
the calibration histogram of luck percentiles, and the faces each die size showed. Each function
returns one ``<svg>`` element as text, sized by the page's CSS.

Only matplotlib's object API is used (``Figure``, never ``pyplot``): no global figure state, so a
report can be drawn in a worker thread of the bridge. The SVG keeps its text as text (so the page's
font renders it, Cyrillic included) and is byte-for-byte reproducible (fixed hash salt, no date).
"""

from __future__ import annotations

import io
import math
import re
import threading
from collections.abc import Sequence
from html import escape
from typing import Any

import matplotlib
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

__all__ = ["COLOURS", "calibration_chart", "faces_chart", "hits_chart", "rounds_chart"]

#: The page's palette, shared with its CSS.
COLOURS = {
    "ink": "#1f2933",
    "muted": "#7b8794",
    "grid": "#e4e7eb",
    "bar": "#3e7cb1",
    "expected": "#1f2933",
    "fair": "#2f9e6e",
    "watch": "#d9a21b",
    "alert": "#d64545",
    "too_few": "#9aa5b1",
    "band": "#dbe7f3",
}

#: Typed loosely: matplotlib types ``rc_context`` against its list of literal keys.
_STYLE: Any = {
    "svg.fonttype": "none",
    "svg.hashsalt": "volley-report",
    "font.family": "sans-serif",
    "font.sans-serif": ["DejaVu Sans", "Liberation Sans", "Arial"],
    "font.size": 9.0,
    "axes.edgecolor": COLOURS["grid"],
    "axes.labelcolor": COLOURS["ink"],
    "axes.titlesize": 10.0,
    "axes.titleweight": "bold",
    "axes.titlecolor": COLOURS["ink"],
    "axes.spines.top": False,
    "axes.spines.right": False,
    "xtick.color": COLOURS["muted"],
    "ytick.color": COLOURS["ink"],
    "xtick.labelcolor": COLOURS["ink"],
}
#: rcParams are global: one chart at a time, so two reports drawn at once do not trade settings.
_LOCK = threading.Lock()
#: The most bars one chart shows (the rest are summed up in the table).
MAX_BARS = 16
_WIDTH = 6.4


def _svg(figure: Figure, label: str) -> str:
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None}, bbox_inches="tight", pad_inches=0.08)
    text = buffer.getvalue()
    text = text[text.index("<svg") :]
    # Let the page size the chart: keep the viewBox, drop the fixed size in points.
    text = re.sub(r'<svg([^>]*?) width="[^"]*" height="[^"]*"', r"<svg\1", text, count=1)
    return text.replace("<svg", f'<svg class="chart" role="img" aria-label="{escape(label)}"', 1).rstrip()


def _figure(height: float) -> Figure:
    return Figure(figsize=(_WIDTH, height))


def _bar_height(count: int) -> float:
    return 0.8 + 0.32 * max(count, 1)


def _grid(axes: Any, axis: str) -> None:
    axes.grid(axis=axis, color=COLOURS["grid"], linewidth=0.8)
    axes.set_axisbelow(True)


def rounds_chart(shooters: Sequence[tuple[str, int]], title: str, xlabel: str) -> str:
    """Rounds each shooter spent, most first."""
    rows = list(shooters)[:MAX_BARS][::-1]
    with _LOCK, matplotlib.rc_context(_STYLE):
        figure = _figure(_bar_height(len(rows)))
        axes = figure.add_subplot()
        names = [name for name, _ in rows]
        values = [value for _, value in rows]
        bars = axes.barh(names, values, color=COLOURS["bar"], height=0.62)
        axes.bar_label(bars, padding=3, color=COLOURS["ink"], fontsize=8)
        axes.set_title(title, loc="left")
        axes.set_xlabel(xlabel)
        axes.margins(x=0.12)
        _grid(axes, "x")
        return _svg(figure, title)


def hits_chart(
    shooters: Sequence[tuple[str, int, float]], title: str, hits_label: str, expected_label: str
) -> str:
    """Hits each shooter scored (bars) against the hits their attacks' odds promised (diamonds)."""
    rows = list(shooters)[:MAX_BARS][::-1]
    with _LOCK, matplotlib.rc_context(_STYLE):
        figure = _figure(_bar_height(len(rows)) + 0.3)
        axes = figure.add_subplot()
        positions = list(range(len(rows)))
        hits = [row[1] for row in rows]
        expected = [row[2] for row in rows]
        axes.barh(positions, hits, color=COLOURS["bar"], height=0.62, label=hits_label)
        axes.scatter(
            expected,
            positions,
            marker="D",
            s=30,
            color=COLOURS["expected"],
            zorder=3,
            label=expected_label,
        )
        axes.set_yticks(positions, [row[0] for row in rows])
        axes.set_title(title, loc="left")
        axes.margins(x=0.08)
        _grid(axes, "x")
        axes.legend(loc="lower right", frameon=False, fontsize=8)
        return _svg(figure, title)


def calibration_chart(
    histogram: Sequence[int],
    title: str,
    xlabel: str,
    ylabel: str,
    verdict: str,
    *,
    band: tuple[float, float],
) -> str:
    """The luck percentiles in ten bars, with the flat line fair dice give (dashed) and ``band``
    shaded: where all the bars of a fair session stay together (``Calibration.band``)."""
    count = sum(histogram)
    bins = len(histogram)
    share = count / bins if bins else 0.0
    with _LOCK, matplotlib.rc_context(_STYLE):
        figure = _figure(2.6)
        axes = figure.add_subplot()
        edges = [100 * i / bins for i in range(bins)]
        axes.axhspan(band[0], band[1], color=COLOURS["band"], zorder=0)
        axes.bar(
            edges,
            histogram,
            width=100 / bins * 0.9,
            align="edge",
            color=COLOURS.get(verdict, COLOURS["bar"]),
            zorder=2,
        )
        axes.axhline(share, color=COLOURS["expected"], linestyle="--", linewidth=1, zorder=3)
        axes.set_xlim(0, 100)
        axes.set_xticks([0, 20, 40, 60, 80, 100])
        axes.set_title(title, loc="left")
        axes.set_xlabel(xlabel)
        axes.set_ylabel(ylabel)
        axes.yaxis.set_major_locator(MaxNLocator(integer=True))
        _grid(axes, "y")
        return _svg(figure, title)


def faces_chart(dice: Sequence[tuple[str, Sequence[str], Sequence[int], str]], title: str) -> str:
    """One panel per die size: rolls per face (or per band of faces), with the fair share dashed.

    ``dice`` holds (panel title, bar labels, counts, verdict); the bars take the verdict's colour.
    """
    panels = list(dice)
    columns = 2 if len(panels) > 1 else 1
    rows = math.ceil(len(panels) / columns) if panels else 1
    with _LOCK, matplotlib.rc_context(_STYLE):
        figure = _figure(0.6 + 2.1 * rows)
        grid = figure.subplots(rows, columns, squeeze=False)
        for index, axes in enumerate(grid.flat):
            if index >= len(panels):
                axes.set_visible(False)
                continue
            name, labels, counts, verdict = panels[index]
            share = sum(counts) / len(counts) if counts else 0.0
            positions = list(range(len(counts)))
            axes.bar(positions, counts, color=COLOURS.get(verdict, COLOURS["bar"]), width=0.8)
            axes.axhline(share, color=COLOURS["expected"], linestyle="--", linewidth=1)
            axes.yaxis.set_major_locator(MaxNLocator(integer=True))
            step = max(1, math.ceil(len(labels) / 10))
            axes.set_xticks(positions[::step], list(labels)[::step])
            axes.set_title(name, loc="left", fontsize=9)
            _grid(axes, "y")
        figure.suptitle(title, x=0.01, ha="left", fontsize=10, fontweight="bold", color=COLOURS["ink"])
        figure.tight_layout()
        return _svg(figure, title)
