// Foundry's Roll, as much of it as a chat message with rolls needs: dice terms with given results
// (`Roll.fromTerms([new Die({number, faces, results})...])`), a formula, a total, JSON both ways, and the
// chat log's rendering, private or not (v13 `Roll#render({isPrivate})`: formula "???", total "?", no
// tooltip). Types followed: foundry-vtt-types 13.345.1 client/dice/roll.d.mts, client/dice/terms/*.d.mts.
// TEST STAND-IN, NOT FOUNDRY: no parser beyond "NdF", "+", "-" and numbers; no modifiers.

const escape = (text) => String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

export class RollTerm {
  get isDeterministic() {
    return true;
  }
  get total() {
    return 0;
  }
  toJSON() {
    return { class: this.constructor.name, options: this.options ?? {}, evaluated: this._evaluated ?? true };
  }
}

export class Die extends RollTerm {
  constructor({ number = 1, faces = 6, modifiers = [], results = [], options = {} } = {}) {
    super();
    this.number = number;
    this.faces = faces;
    this.modifiers = [...modifiers];
    this.results = results.map((r) => ({ active: true, ...r }));
    this.options = { ...options };
    this._evaluated = this.results.length >= this.number;
  }

  static DENOMINATION = "d";

  get denomination() {
    return "d";
  }

  get expression() {
    return `${this.number}d${this.faces}`;
  }

  get formula() {
    return this.expression;
  }

  get isDeterministic() {
    return false;
  }

  get values() {
    return this.results.filter((r) => r.active).map((r) => r.result);
  }

  get total() {
    return this._evaluated ? this.values.reduce((a, b) => a + b, 0) : undefined;
  }

  evaluate() {
    while (this.results.length < this.number) this.results.push({ result: 1 + Math.floor(Math.random() * this.faces), active: true });
    this._evaluated = true;
    return this;
  }

  toJSON() {
    return { ...super.toJSON(), number: this.number, faces: this.faces, modifiers: this.modifiers, results: this.results.map((r) => ({ ...r })) };
  }
}

export class OperatorTerm extends RollTerm {
  constructor({ operator = "+", options = {} } = {}) {
    super();
    this.operator = operator;
    this.options = { ...options };
  }
  get expression() {
    return ` ${this.operator} `;
  }
  get formula() {
    return this.expression;
  }
  get total() {
    return this.operator;
  }
  toJSON() {
    return { ...super.toJSON(), operator: this.operator };
  }
}

export class NumericTerm extends RollTerm {
  constructor({ number = 0, options = {} } = {}) {
    super();
    this.number = Number(number);
    this.options = { ...options };
  }
  get expression() {
    return String(this.number);
  }
  get formula() {
    return this.expression;
  }
  get total() {
    return this.number;
  }
  toJSON() {
    return { ...super.toJSON(), number: this.number };
  }
}

const TERMS = { Die, OperatorTerm, NumericTerm };

function termFromData(data) {
  const Kind = TERMS[data?.class];
  if (!Kind) throw new Error(`the sandbox's Roll knows no term ${data?.class}`);
  return new Kind(data);
}

function parse(formula) {
  const terms = [];
  for (const token of String(formula).replace(/\s+/g, "").split(/([+-])/).filter(Boolean)) {
    const dice = /^(\d*)d(\d+)$/i.exec(token);
    if (token === "+" || token === "-") terms.push(new OperatorTerm({ operator: token }));
    else if (dice) terms.push(new Die({ number: Number(dice[1] || 1), faces: Number(dice[2]) }));
    else if (/^\d+(\.\d+)?$/.test(token)) terms.push(new NumericTerm({ number: Number(token) }));
    else throw new Error(`Unresolved StringTerm ${token} requested for evaluation`);
  }
  return terms;
}

export class Roll {
  constructor(formula = "", data = {}, options = {}) {
    this.data = data;
    this.options = { ...options };
    this.terms = parse(formula);
    this._formula = Roll.getFormula(this.terms);
    this._evaluated = false;
    this._total = undefined;
  }

  static getFormula(terms) {
    return terms.map((t) => t.formula).join("");
  }

  /** v13 Roll.fromTerms(terms, options): a Roll of these terms, evaluated if every term is. */
  static fromTerms(terms, options = {}) {
    const roll = new this("", {}, options);
    roll.terms = terms;
    roll._formula = Roll.getFormula(terms);
    if (terms.every((t) => !(t instanceof Die) || t._evaluated)) {
      roll._evaluated = true;
      roll._total = roll._evaluateTotal();
    }
    return roll;
  }

  static fromData(data) {
    const roll = new this("", data.data ?? {}, data.options ?? {});
    roll.terms = (data.terms ?? []).map(termFromData);
    roll._formula = data.formula ?? Roll.getFormula(roll.terms);
    roll._evaluated = Boolean(data.evaluated);
    roll._total = data.total;
    return roll;
  }

  static fromJSON(json) {
    return this.fromData(JSON.parse(json));
  }

  get formula() {
    return this._formula;
  }

  get evaluated() {
    return this._evaluated;
  }

  get total() {
    return this._total;
  }

  get result() {
    return this.terms.map((t) => t.total).join(" ");
  }

  get dice() {
    return this.terms.filter((t) => t instanceof Die);
  }

  _evaluateTotal() {
    let total = 0;
    let sign = 1;
    for (const term of this.terms) {
      if (term instanceof OperatorTerm) sign = term.operator === "-" ? -1 : 1;
      else total += sign * Number(term.total ?? 0);
    }
    return total;
  }

  async evaluate() {
    if (this._evaluated) throw new Error(`The ${this.constructor.name} has already been evaluated and is now immutable`);
    for (const term of this.terms) if (term instanceof Die) term.evaluate();
    this._evaluated = true;
    this._total = this._evaluateTotal();
    return this;
  }

  evaluateSync() {
    for (const term of this.terms) if (term instanceof Die) term.evaluate();
    this._evaluated = true;
    this._total = this._evaluateTotal();
    return this;
  }

  toJSON() {
    return {
      class: this.constructor.name,
      options: this.options,
      dice: [],
      formula: this._formula,
      terms: this.terms.map((t) => t.toJSON()),
      total: this._total,
      evaluated: this._evaluated,
    };
  }

  /** v13 Roll#render: the chat log's dice roll; private, the formula and total are hidden. */
  async render({ isPrivate = false, flavor } = {}) {
    if (!this._evaluated) await this.evaluate();
    return this._html({ isPrivate, flavor });
  }

  /** The rendering itself, synchronous (the sandbox's chat log draws in order). */
  _html({ isPrivate = false, flavor } = {}) {
    const formula = isPrivate ? "???" : escape(this._formula);
    const total = isPrivate ? "?" : escape(Math.round(this._total * 100) / 100);
    const dice = isPrivate ? "" : `<ol class="dice-rolls">${this.dice.flatMap((d) => d.results.map((r) => `<li class="roll die d${d.faces}">${r.result}</li>`)).join("")}</ol>`;
    return `<div class="dice-roll">${flavor ? `<div class="dice-flavor">${escape(flavor)}</div>` : ""}<div class="dice-result"><div class="dice-formula">${formula}</div>${dice}<h4 class="dice-total">${total}</h4></div></div>`;
  }
}
