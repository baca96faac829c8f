/* One student's game for a projector, in its own tab: both players named, the board filling
 * the screen, whose turn, the moves and (against the computer) the last AI search, live (a
 * spectator of the game), the search tree one click away. */
"use strict";
import { ArcadeClass } from "./classroom-common.js";
import { TeacherLink } from "./teacher-link.js";
import { fmt } from "./views.js";
(function () {
  const { drawBoard, statusText, cap } = ArcadeClass;
  const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
  const root = document.querySelector(".projector");
  const gameId = root.dataset.gameId;
  const players = JSON.parse(root.dataset.players);
  /** Whose turn or who won, with the players' names ("Ada to move (First)"). */
  function status(state) {
    if (state.ai && state.ai.thinking != null) return "The computer is thinking…";
    if (!state.result) return `${cap(players[state.to_move])} to move (${cap(state.sides[state.to_move])})`;
    const w = state.result.winner;
    return w == null ? statusText(state, null) : `${cap(players[w])} won (${cap(state.sides[w])})`;
  }
  // The tree of a game still being played is the teacher's to search: the link carries the
  // teacher's token (kept by this browser for the class), which manages the class's games.
  const classId = (/^\/class\/([^/]+)\//.exec(window.location.pathname) || [])[1];
  let teacher = null;
  try { teacher = classId && localStorage.getItem(TeacherLink.key(decodeURIComponent(classId))); } catch (e) { teacher = null; }
  if (teacher && $("open-tree")) $("open-tree").href += `?token=${encodeURIComponent(teacher)}`;
  const socket = io({ transports: ["websocket", "polling"] });
  socket.on("connect", () => socket.emit("join", { game_id: gameId }));
  socket.on("state", (state) => {
    if (state.id !== gameId) return;
    $("status").textContent = status(state);
    drawBoard(document.getElementById("board"), state, {});
    const n = state.history.length;
    $("projector-moves").textContent = `${n} move${n === 1 ? "" : "s"}`;
    const stats = state.ai && state.ai.last_stats;
    if (!$("ai-stats")) return;  // two students: no AI search to show
    $("ai-stats").textContent = !stats ? "No AI search yet"
      : !stats.nodes ? `The AI's last move (${stats.move}) needed no search`
      : `Last AI search: ${stats.score_text} at depth ${stats.depth}, ${fmt(stats.nodes)} positions`;
  });
  socket.on("error", (msg) => { $("status").textContent = msg.message; });
})();
