/* The lesson formats on the teacher's dashboard, beside class.js: predict the prune (pick a
 * tree and a question, watch how many predicted each node, reveal, open the playback), the
 * class tournament and homework. The teacher's token is the one class.js reads
 * (localStorage "arcade.class.<id>"); this module holds its own socket to the class. */
"use strict";
import { ArcadeClass } from "./classroom-common.js";
import { drawPruneTree, QUESTION_WORDS } from "./prune-tree.js";
import { tournamentPanel } from "./class-tournament.js";
import { homeworkPanel } from "./class-homework.js";

const { api, el } = ArcadeClass;
const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
const classId = document.querySelector(".dashboard").dataset.classId;
const token = localStorage.getItem(`arcade.class.${classId}`);
const base = `/api/classes/${encodeURIComponent(classId)}`;
const q = `token=${encodeURIComponent(token || "")}`;
let classState = null;

function fail(box, text) { box.textContent = text || ""; box.hidden = !text; }

// ----- predict the prune ---------------------------------------------------------------------------
const prune = {
  current: null, // the teacher's summary of the puzzle under way

  sources() {
    const select = $("prune-source");
    const keep = select.value;
    const options = [el("option", { value: "tree", text: "A hand-made tree" })];
    for (const s of (classState && classState.students) || []) {
      const game = s.games[s.games.length - 1];
      if (game) options.push(el("option", { value: game.id, text: `${s.name}'s game (move ${game.moves})` }));
    }
    select.replaceChildren(...options);
    if ([...select.options].some((o) => o.value === keep)) select.value = keep;
    this.formShape();
  },

  formShape() {
    const hand = $("prune-source").value === "tree";
    $("prune-leaves").closest("label").hidden = !hand;
    $("prune-depth").closest("label").hidden = hand;
  },

  async start(e) {
    e.preventDefault();
    fail($("prune-error"), "");
    const body = { token, question: $("prune-question").value };
    if ($("prune-source").value === "tree") {
      try { body.tree = JSON.parse($("prune-leaves").value); } catch (err) {
        fail($("prune-error"), "The leaves must be nested lists of numbers, e.g. [[[3, 12], [8, 2]], [[4, 6], [14, 5]]]");
        return;
      }
    } else {
      body.game_id = $("prune-source").value;
      body.depth = Number($("prune-depth").value);
    }
    const got = await api("POST", `${base}/prunes`, body);
    if (!got.ok) { fail($("prune-error"), got.error); return; }
    await this.refresh(got.data.id);
  },

  async refresh(id) {
    const got = await api("GET", `${base}/prunes/${encodeURIComponent(id)}?${q}`);
    if (!got.ok) { fail($("prune-error"), got.error); return; }
    this.current = got.data;
    this.draw();
  },

  live(m) {
    if (!this.current || m.prune_id !== this.current.id) return;
    Object.assign(this.current, { answered: m.answered, counts: m.counts });
    this.draw();
  },

  draw() {
    const c = this.current;
    $("prune-live").hidden = false;
    $("prune-live-title").textContent = `On ${c.title}: ${QUESTION_WORDS[c.question]}`;
    $("prune-live-rule").textContent = c.puzzle.rule;
    $("prune-answered").textContent = `${c.answered} of ${c.students} answered${c.closed ? " · revealed" : ""}.`;
    const nodes = c.puzzle.nodes.map((n) => ({ ...n, value_text: n.kind === "leaf" || n.kind === "terminal" ? n.value_text : null }));
    const marks = c.closed ? Object.fromEntries(c.puzzle.nodes.filter((n) => !n.visited).map((n) => [n.id, "pruned"])) : null;
    drawPruneTree($("prune-counts"), nodes, { counts: c.question === "pruned" ? c.counts : null, marks });
    $("prune-count-list").textContent = c.question === "pruned" ? ""
      : Object.entries(c.counts).map(([k, n]) => `${k}: ${n}`).join(" · ") || "No answer yet.";
    $("prune-reveal").hidden = c.closed;
    const link = $("prune-projector");
    link.href = `/class/${encodeURIComponent(classId)}/prune/${encodeURIComponent(c.id)}`;
    link.hidden = !c.closed;
    this.results();
  },

  results() {
    const c = this.current, table = $("prune-results");
    table.hidden = !c.closed;
    if (!c.closed) return;
    table.replaceChildren(
      el("caption", { class: "visually-hidden", text: "Each student's score" }),
      el("thead", {}, el("tr", {}, el("th", { scope: "col", text: "Student" }), el("th", { scope: "col", text: "Score" }))),
      el("tbody", {}, ...c.results.map((r) => el("tr", { dataset: { result: r.name } },
        el("th", { scope: "row", text: r.name }),
        el("td", { class: "num", text: r.result ? `${r.result.score} / ${r.result.out_of}${r.result.right ? " ✓" : ""}` : "no answer" })))));
  },

  async reveal() {
    const got = await api("POST", `${base}/prunes/${encodeURIComponent(this.current.id)}/reveal`, { token });
    if (!got.ok) { fail($("prune-error"), got.error); return; }
    this.current = got.data;
    this.draw();
  },
};

function toggle(panel) {
  for (const name of ["prune-panel", "tournament-panel", "homework-panel"]) {
    $(name).hidden = name !== panel ? true : !$(name).hidden;
  }
}

if (token) {
  const socket = io({ transports: ["websocket", "polling"] });
  const ctx = { api, el, $, base, q, token, classId, socket, state: () => classState };
  const panels = [tournamentPanel(ctx), homeworkPanel(ctx)];
  // "cards": after a student's move only the students whose games changed (class_students)
  socket.on("connect", () => socket.emit("class_join", { class_id: classId, token, updates: "cards" }));
  const changed = (state) => {
    classState = state;
    prune.sources();
    for (const p of panels) p.classChanged(state);
  };
  socket.on("class_state", changed);
  socket.on("class_students", (patch) => {
    if (!classState || patch.class_id !== classState.id) return;
    const cards = new Map(patch.students.map((s) => [s.id, s]));
    changed({ ...classState, students: classState.students.map((s) => cards.get(s.id) || s) });
  });
  socket.on("prune_answers", (m) => prune.live(m));
  // the class is gone (deleted here or on another device): the panels' reads would only find it
  // gone, and the page that held them is replaced
  socket.on("class_deleted", () => socket.close());
  document.addEventListener("arcade:class-deleted", () => socket.close());
  $("open-prune").addEventListener("click", () => toggle("prune-panel"));
  $("open-tournament").addEventListener("click", () => toggle("tournament-panel"));
  $("open-homework").addEventListener("click", () => toggle("homework-panel"));
  $("prune-source").addEventListener("change", () => prune.formShape());
  $("prune-form").addEventListener("submit", (e) => prune.start(e));
  $("prune-reveal").addEventListener("click", () => prune.reveal());
  prune.formShape();
}
