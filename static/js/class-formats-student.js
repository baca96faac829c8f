/* The lesson formats on a student's phone, beside join.js: predict the prune (tap the nodes,
 * the value or the order; after the reveal each node marked right or wrong), the class
 * tournament (next opponent, the table) and homework. It reads the student's token where
 * join.js keeps it (localStorage "arcade.student") and holds its own socket to the class. */
"use strict";
import { ArcadeClass } from "./classroom-common.js";
import { pruneAnswer } from "./prune-answer.js";
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
const formatsNow = () => api("GET", `${base()}/formats/me?${q()}`);  // the live puzzle, tournament, homework

// ----- predict the prune --------------------------------------------------------------------------
let puzzle = null; // the live puzzle's id
const live = pruneAnswer($("prune-answer"), {
  send: async (body) => {
    const got = await api("POST", `${base()}/prunes/${encodeURIComponent(puzzle)}/answers`, { token: me.token, ...body });
    return { ok: got.ok, error: got.error, answer: got.ok ? got.data.answer : null };
  },
});

async function loadPuzzle(id) {
  const got = await api("GET", `${base()}/prunes/${encodeURIComponent(id)}/me?${q()}`);
  if (!got.ok) return;
  puzzle = id;
  $("prune").hidden = false;
  live.show(got.data);
}

// ----- start ------------------------------------------------------------------------------------------
async function start() {
  socket = io({ transports: ["websocket", "polling"] });
  socket.on("connect", () => socket.emit("class_join", { class_id: me.class_id, token: me.token }));
  socket.on("prune_challenge", (m) => loadPuzzle(m.prune_id));
  // a puzzle started after the look below but before this socket joined the class reached no one
  // here: look again once joined (and after a reconnection), for a puzzle this page has not shown
  socket.on("class_joined", async (m) => {
    if (m.role !== "student") return;
    const got = await formatsNow();
    if (got.ok && got.data.prune && got.data.prune !== puzzle) loadPuzzle(got.data.prune);
  });
  socket.on("prune_reveal", (m) => { if (puzzle === m.prune_id) loadPuzzle(m.prune_id); });
  const parts = [tournamentPart, homeworkPart].map((make) => make({ api, el, $, me, base, q, socket, pruneAnswer }));
  const got = await formatsNow();
  if (!got.ok) return;
  if (got.data.prune) loadPuzzle(got.data.prune);
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
