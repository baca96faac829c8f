/* The class tournament on a projector: standings and rounds, live (tournament_state). The
 * teacher's token, kept by this browser, opens it. */
"use strict";
import { ArcadeClass } from "./classroom-common.js";
import { drawRounds, drawStandings, statusText } from "./tournament-table.js";

const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
const root = $("tournament-page");
const classId = root.dataset.classId, tid = root.dataset.tournamentId;
const token = localStorage.getItem(`arcade.class.${classId}`) || "";

function draw(t) {
  if (t.id !== tid) return;
  $("tournament-status").textContent = statusText(t);
  drawStandings($("standings"), t);
  drawRounds($("rounds"), t);
}

(async function () {
  const got = await ArcadeClass.api("GET", `/api/classes/${encodeURIComponent(classId)}/tournaments/${encodeURIComponent(tid)}?token=${encodeURIComponent(token)}`);
  if (!got.ok) { const e = $("tournament-error"); e.textContent = got.error; e.hidden = false; return; }
  draw(got.data);
  const socket = io({ transports: ["websocket", "polling"] });
  socket.on("connect", () => socket.emit("class_join", { class_id: classId, token }));
  socket.on("tournament_state", draw);
})();
