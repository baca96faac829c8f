/* The class tournament on a student's phone (class-formats-student.js calls it): the next
 * opponent and the table, live; leaving the class forfeits the games left. */
import { drawStandings } from "./tournament-table.js";

export function tournamentPart({ api, $, me, base, q, socket }) {
  let current = null;
  async function refresh(id) {
    const got = await api("GET", `${base()}/tournaments/${encodeURIComponent(id)}?${q()}`);
    if (got.ok) draw(got.data);
  }
  function draw(t) {
    if (!t || !t.me) return;
    current = t;
    $("tournament-student").hidden = false;
    $("next-opponent").textContent = t.me.text;
    drawStandings($("student-standings"), t, { compact: true });
  }
  socket.on("tournament_state", (t) => refresh(t.id));
  // join.js's "Leave the class": the tournament hears of it first (a forfeit of the games left)
  $("leave").addEventListener("click", () => {
    if (!current || current.status !== "playing") return;
    fetch(`${base()}/tournaments/${encodeURIComponent(current.id)}/withdraw`, {
      method: "POST", keepalive: true, headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ token: me.token }) });
  }, { capture: true });
  return { show(data) { draw(data.tournament); } };
}
