/* The projector's playback of a predict-the-prune puzzle, once revealed: the textbook
 * alpha-beta's run on the tree (the server's events, read from engine/textbook.py's visits),
 * node by node: entering a node with its window, each pruned node marked ✂ with its reason,
 * each node's value as it returns. Steps with tree/playback.js, as the tree page does. */
"use strict";
import { ArcadeClass } from "./classroom-common.js";
import { Teach } from "./teach-common.js";
import { Playback } from "./tree/playback.js";
import { drawPruneTree } from "./prune-tree.js";

const { api } = ArcadeClass;
const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
const root = $("prune-projector");
const classId = root.dataset.classId, pruneId = root.dataset.pruneId;
const token = localStorage.getItem(`arcade.class.${classId}`) || "";
let puzzle = null, counts = {};

function nodeEl(id) { return $("playback-tree").querySelector(`[data-node="${CSS.escape(id)}"]`); }
function setText(id, cls, text) { const t = nodeEl(id).querySelector(cls); t.textContent = text; }
function kindOf(id) { return puzzle.nodes.find((n) => n.id === id).kind; }

function reset() {
  const nodes = puzzle.nodes.map((n) => ({ ...n, value_text: n.kind === "leaf" || n.kind === "terminal" ? n.value_text : null }));
  drawPruneTree($("playback-tree"), nodes, {});
}

function apply(e) {
  const g = nodeEl(e.id);
  $("playback-tree").querySelectorAll(".pb-current").forEach((x) => x.classList.remove("pb-current"));
  g.classList.add("pb-current");
  if (e.type === "enter") {
    setText(e.id, ".pn-sub", Teach.windowText(e.alpha, e.beta));
  } else if (e.type === "leave") {
    g.classList.add("pb-done");
    if (kindOf(e.id) === "max" || kindOf(e.id) === "min") setText(e.id, ".pn-label", e.value_text);
    setText(e.id, ".pn-sub", `= ${e.value_text}`);
  } else {
    for (const id of e.ids) {
      const p = nodeEl(id);
      p.classList.add("pb-pruned");
      p.dataset.pruned = e.roots.includes(id) ? "cut" : "below";
      const n = counts[id] || 0;
      setText(id, ".pn-sub", `✂ ${n} said so`);
      p.querySelector("title").textContent = `never visited: ${e.reason}`;
    }
  }
}

function words(e) {
  if (!e) return "Press Play to watch the textbook alpha-beta search this tree.";
  const n = puzzle.nodes.find((x) => x.id === e.id);
  const name = e.id === "r" ? "the root" : `node ${e.id}`;
  const kind = n.kind === "max" ? "MAX" : n.kind === "min" ? "MIN" : "leaf";
  if (e.type === "enter") return `Enter ${name} (${kind}) with the window ${Teach.windowText(e.alpha, e.beta)}.`;
  if (e.type === "leave") return `${name[0].toUpperCase()}${name.slice(1)} returns ${e.value_text}.`;
  return `✂ ${e.roots.join(", ")} never visited. ${e.reason}.`;
}

const playback = new Playback({
  apply, reset, perSecond: () => 1.5,
  show: () => {
    const e = playback.current;
    const box = $("narration");
    box.textContent = words(e);
    box.classList.toggle("cut", !!e && e.type === "prune");
    $("pb-count").textContent = `step ${playback.step} of ${playback.length}`;
    if (playback.step === playback.length) {
      const pruned = puzzle.nodes.filter((n) => !n.visited).length;
      $("playback-summary").textContent = `Done: ${puzzle.visited} of ${puzzle.nodes.length} nodes visited, ${pruned} pruned; the root's value is ${puzzle.root_value_text}.`;
    }
  },
  onPlaying: (on) => { $("pb-play").textContent = on ? "Pause" : "Play"; },
});

async function load() {
  const got = await api("GET", `/api/classes/${encodeURIComponent(classId)}/prunes/${encodeURIComponent(pruneId)}?token=${encodeURIComponent(token)}`);
  const error = $("playback-error");
  if (!got.ok) { error.textContent = got.error; error.hidden = false; return; }
  if (!got.data.closed) { error.textContent = "Reveal the answers on the dashboard first: the playback gives them away."; error.hidden = false; return; }
  puzzle = got.data.puzzle;
  counts = got.data.question === "pruned" ? got.data.counts : {};
  $("playback-rule").textContent = puzzle.rule;
  reset();
  playback.load(puzzle.events);
  playback.goTo(0);
}

$("pb-play").addEventListener("click", () => playback.toggle());
$("pb-step").addEventListener("click", () => { playback.pause(); playback.goTo(playback.step + 1); });
$("pb-back").addEventListener("click", () => { playback.pause(); playback.goTo(playback.step - 1); });
$("pb-end").addEventListener("click", () => { playback.pause(); playback.goTo(playback.length); });
load();
