"""``volley report``: after the session, who was lucky, who burned the ammunition, and were the dice fair.

Every resolution is journalled with its request (the state at the table when it was made) and its
result (hits, rounds, every die face). From those alone the report can say exactly what was expected,
because ``rules.odds`` gives the full outcome distribution of each attack as it was made:

* ``record`` reads each journal, skipping (and counting) anything it cannot use;
* ``luck`` turns each attack into a luck percentile and sums a shooter's into one figure;
* ``tally`` adds up rounds, reloads, jams, hits and expectations per shooter, weapon and target;
* ``fairness`` tests the faces the dice showed, and the luck percentiles, against fair dice;
* ``build`` ties them together into ``findings`` (what the page shows);
* ``page`` writes one self-contained HTML page: its tables from ``tables``, its sentences from
  ``wording``, its charts from ``charts`` (matplotlib, the optional ``report`` extra).

Words come from the CLI catalogue (``bridge/locale/report.<lang>.json``), never from log text.
"""
