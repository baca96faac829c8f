/* The lesson formats on a student's phone, beside join.js: predict the prune (tap the nodes,
 * the value or the order; after the reveal each node marked right or wrong), the class
 * tournament (next opponent, the table) and homework. It reads the student's token where
 * join.js keeps it (localStorage "arcade.student") and holds its own socket to the class. */
"use strict";
import { ArcadeClass } from "./classroom-common.js";
import { drawPruneTree, subtree, QUESTION_WORDS } from "./prune-tree.js";
import { tournamentPart } from "./class-tournament-student.js";
import { homeworkPart } from "./class-homework-student.js";

const { api, el } = ArcadeClass;
const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
let me = null, socket = null;

function stored() {
  try { return JSON.parse(localStorage.getItem("arcade.student") || "null"); } catch (e) { return null; }
}
const base = () => `/api/classes/${encodeURIComponent(me.class_id)}`;
const q = () => `token=${encodeURIComponent(me.token)}`;

// ----- predict the prune --------------------------------------------------------------------------
const prune = {
  view: null, picked: new Set(), order: [], value: null,

  async load(id) {
    const got = await api("GET", `${base()}/prunes/${encodeURIComponent(id)}/me?${q()}`);
    if (!got.ok) return;
    this.view = got.data;
    this.picked = new Set(got.data.question === "pruned" && got.data.answer ? got.data.answer : []);
    this.order = got.data.question === "order" && got.data.answer ? [...got.data.answer] : [];
    this.value = got.data.question === "value" ? got.data.answer : null;
    $("prune").hidden = false;
    this.draw();
  },

  tap(id) {
    const v = this.view;
    if (v.answer != null || v.closed) return;
    if (v.question === "pruned") {
      const below = subtree(v.tree.nodes, id);
      const on = !this.picked.has(id);
      for (const n of below) { if (on) this.picked.add(n); else this.picked.delete(n); }
    } else if (v.question === "order") {
      this.order = this.order.includes(id) ? this.order.filter((x) => x !== id) : [...this.order, id];
    }
    this.draw();
  },

  draw() {
    const v = this.view;
    const done = v.answer != null || v.closed;
    $("prune-title").textContent = `On ${v.title}.`;
    $("prune-question").textContent = QUESTION_WORDS[v.question];
    $("prune-rule").textContent = v.tree.rule;
    const roots = v.tree.nodes.filter((n) => n.parent === "r").map((n) => n.id);
    const marks = v.result && v.result.marks;
    drawPruneTree($("prune-tree"), v.tree.nodes, {
      onTap: done || v.question === "value" ? null : (id) => this.tap(id),
      only: v.question === "order" ? roots : null,
      selected: v.question === "pruned" ? this.picked : null,
      order: v.question === "order" ? this.order : null,
      marks,
    });
    this.drawValues(done);
    $("prune-send").hidden = done;
    $("prune-result").textContent = this.resultText();
    $("prune-result").className = `prune-result ${v.result ? (v.result.right ? "right" : "wrong") : ""}`;
  },

  drawValues(done) {
    const v = this.view, box = $("prune-values");
    box.hidden = v.question !== "value";
    if (box.hidden) return;
    const seen = new Map();
    for (const n of v.tree.nodes) if (n.value != null) seen.set(n.value, n.value_text);
    box.replaceChildren(...[...seen].sort((a, b) => a[0] - b[0]).map(([value, text]) => {
      const b = el("button", { type: "button", class: "secondary", text, dataset: { value: String(value) } });
      b.setAttribute("aria-pressed", String(this.value === value));
      b.disabled = done;
      b.addEventListener("click", () => { this.value = value; this.drawValues(false); });
      return b;
    }));
  },

  resultText() {
    const v = this.view, r = v.result;
    if (!v.closed) return v.answer != null ? "Answer sent: wait for the reveal." : "";
    if (!r) return "The answers are revealed (you did not answer).";
    if (v.question === "pruned") return `${r.score} of ${r.out_of} nodes right${r.right ? ": perfect!" : "."}`;
    if (v.question === "value") return `The root's value is ${v.truth.root_value_text}: ${r.right ? "right!" : "wrong."}`;
    return `Your order visits ${r.visited} nodes; the best visits ${r.best}: ${r.right ? "right!" : "wrong."}`;
  },

  async send() {
    const v = this.view;
    const body = { token: me.token };
    if (v.question === "pruned") body.nodes = [...this.picked];
    else if (v.question === "value") body.value = this.value;
    else body.order = this.order;
    const got = await api("POST", `${base()}/prunes/${encodeURIComponent(v.id)}/answers`, body);
    if (!got.ok) { $("prune-result").textContent = got.error; return; }
    v.answer = got.data.answer;
    this.draw();
  },
};
$("prune-send").addEventListener("click", () => prune.send());

// ----- start ------------------------------------------------------------------------------------------
async function start() {
  socket = io({ transports: ["websocket", "polling"] });
  socket.on("connect", () => socket.emit("class_join", { class_id: me.class_id, token: me.token }));
  socket.on("prune_challenge", (m) => prune.load(m.prune_id));
  socket.on("prune_reveal", (m) => { if (prune.view && prune.view.id === m.prune_id) prune.load(m.prune_id); });
  const parts = [tournamentPart, homeworkPart].map((make) => make({ api, el, $, me, base, q, socket }));
  const got = await api("GET", `${base()}/formats/me?${q()}`);
  if (!got.ok) return;
  if (got.data.prune) prune.load(got.data.prune);
  for (const part of parts) part.show(got.data);
}

// join.js keeps the token once the student joined (maybe on this very page, later)
const waiting = setInterval(() => {
  const found = stored();
  if (found && found.token && !$("student-home").hidden) {
    clearInterval(waiting);
    me = found;
    start();
  }
}, 300);
