/**
 * Every reading a table may change, per rule system: written by scripts/write_table_rules.py
 * from the rules engine's declaration (rules/<system>/table_rules.py). Do not edit by hand;
 * tests/test_table_rules.py fails when the two disagree.
 *
 * @typedef {{field: string, owner: "rules" | "module",
 *   kind: "choice" | "integer" | "boolean" | "bands", default: any, reading: string,
 *   actions: string[], choices?: (string | number)[], minimum?: number, maximum?: number,
 *   members?: string[]}} Reading
 */

/** @type {Readonly<Record<string, Reading[]>>} */
export const READINGS = Object.freeze({
  "d100": [
    {
      "field": "range_modifiers",
      "owner": "rules",
      "kind": "bands",
      "default": {
        "point_blank": 30,
        "short": 10,
        "combat": 0,
        "long": -10,
        "extreme": -30
      },
      "reading": "docs/rules/d100.md#range-дистанция",
      "actions": [
        "attack",
        "overwatch_fire"
      ],
      "minimum": -200,
      "maximum": 200,
      "members": [
        "point_blank",
        "short",
        "combat",
        "long",
        "extreme"
      ]
    },
    {
      "field": "overwatch_ends_on_turn",
      "owner": "module",
      "kind": "boolean",
      "default": true,
      "reading": "docs/rules/d100.md#overwatch-караул",
      "actions": [
        "overwatch"
      ]
    }
  ],
  "gurps": [
    {
      "field": "dodge_step",
      "owner": "rules",
      "kind": "choice",
      "default": 1,
      "reading": "docs/rules/gurps.md#dodge-dodging-b374-375",
      "actions": [
        "attack"
      ],
      "choices": [
        1,
        2,
        3,
        4,
        5,
        "rcl"
      ],
      "minimum": 1,
      "maximum": 100
    }
  ],
  "megatraveller": [
    {
      "field": "split_dm_counts",
      "owner": "rules",
      "kind": "choice",
      "default": "designated",
      "reading": "docs/rules/megatraveller.md#readings-where-the-seed-is-silent-or-ambiguous (5)",
      "actions": [
        "fire",
        "fast_draw",
        "retarget_and_fire"
      ],
      "choices": [
        "designated",
        "receiving"
      ]
    },
    {
      "field": "exceptional_margin",
      "owner": "rules",
      "kind": "integer",
      "default": 4,
      "reading": "docs/rules/megatraveller.md#readings-where-the-seed-is-silent-or-ambiguous (2)",
      "actions": [
        "fire",
        "fast_draw",
        "retarget_and_fire"
      ],
      "minimum": 0,
      "maximum": 30
    },
    {
      "field": "fast_draw_weapons",
      "owner": "rules",
      "kind": "choice",
      "default": "small",
      "reading": "docs/rules/megatraveller.md#readings-where-the-seed-is-silent-or-ambiguous (10)",
      "actions": [
        "fast_draw",
        "draw"
      ],
      "choices": [
        "small",
        "any"
      ]
    },
    {
      "field": "danger_space_half_width",
      "owner": "module",
      "kind": "integer",
      "default": 1,
      "reading": "docs/rules/megatraveller.md#the-vtt-modules-readings (14)",
      "actions": [
        "fire",
        "fast_draw",
        "retarget_and_fire"
      ],
      "minimum": 0,
      "maximum": 10
    },
    {
      "field": "danger_space_beyond",
      "owner": "module",
      "kind": "integer",
      "default": 2,
      "reading": "docs/rules/megatraveller.md#the-vtt-modules-readings (14)",
      "actions": [
        "fire",
        "fast_draw",
        "retarget_and_fire"
      ],
      "minimum": 0,
      "maximum": 20
    }
  ]
});

/** The action a request that names none is (``RuleSystem.default_action``). */
export const DEFAULT_ACTIONS = Object.freeze({
  "d100": "attack",
  "gurps": "attack",
  "megatraveller": "fire"
});
