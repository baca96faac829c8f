/* One student's game for a projector: the board large, whose turn, the moves and the last
 * AI search, live (a spectator of the game); the search tree one click away. */
"use strict";
import { ArcadeClass } from "./classroom-common.js";
import { fmt } from "./views.js";
(function () {
  const { drawBoard, statusText } = ArcadeClass;
  const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
  const gameId = document.querySelector(".projector").dataset.gameId;
  // The tree of a game still being played is the teacher's to search: the link carries the
  // teacher's token (kept by this browser for the class), which manages the class's games.
  const classId = (/^\/class\/([^/]+)\//.exec(window.location.pathname) || [])[1];
  let teacher = null;
  try { teacher = classId && localStorage.getItem(`arcade.class.${decodeURIComponent(classId)}`); } catch (e) { teacher = null; }
  if (teacher) $("open-tree").href += `?token=${encodeURIComponent(teacher)}`;
  const socket = io({ transports: ["websocket", "polling"] });
  socket.on("connect", () => socket.emit("join", { game_id: gameId }));
  socket.on("state", (state) => {
    if (state.id !== gameId) return;
    $("status").textContent = statusText(state, null);
    drawBoard(document.getElementById("board"), state, {});
    const n = state.history.length;
    $("projector-moves").textContent = `${n} move${n === 1 ? "" : "s"}`;
    const stats = state.ai && state.ai.last_stats;
    $("ai-stats").textContent = !stats ? "No AI search yet"
      : !stats.nodes ? `The AI's last move (${stats.move}) needed no search`
      : `Last AI search: ${stats.score_text} at depth ${stats.depth}, ${fmt(stats.nodes)} positions`;
  });
  socket.on("error", (msg) => { $("status").textContent = msg.message; });
})();
