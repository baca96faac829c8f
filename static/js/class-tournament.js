/* The class tournament on the teacher's dashboard (class-formats.js calls it): start one among
 * the students, each round when the last ends (or at a tap), the standings live, exports. */
import { drawRounds, drawStandings, statusText } from "./tournament-table.js";

export function tournamentPanel({ api, el, $, base, q, token, classId, socket }) {
  const panel = $("tournament-panel");
  let current = null;
  const note = el("p", { class: "format-note", dataset: { testid: "tournament-note" }, "aria-live": "polite" });
  const auto = el("input", { type: "checkbox", checked: true, dataset: { testid: "tournament-auto" } });
  const start = el("button", { type: "button", class: "primary", text: "Start a tournament", dataset: { testid: "tournament-start" } });
  const next = el("button", { type: "button", class: "secondary", text: "Next round now", dataset: { testid: "tournament-next" }, hidden: true });
  const status = el("p", { dataset: { testid: "tournament-status" } });
  const table = el("table", { class: "standings", dataset: { testid: "tournament-standings" } });
  const rounds = el("div", { dataset: { testid: "tournament-rounds" } });
  const links = el("p", { class: "format-actions" });
  panel.replaceChildren(el("h3", { text: "Class tournament" }),
    el("p", { class: "format-note", text: "Every student plays every other (round robin) up to 10 players, Swiss rounds beyond; an odd one out plays the computer at the class's level. A student who leaves forfeits their remaining games." }),
    el("div", { class: "format-actions" }, el("label", { class: "check" }, auto, " Start each round when the last ends"), start, next),
    note, status, el("div", { class: "table-scroll", tabindex: "0", role: "region", "aria-label": "the standings" }, table), links, rounds);

  function draw(t) {
    current = t;
    status.textContent = statusText(t);
    drawStandings(table, t);
    drawRounds(rounds, t);
    next.hidden = t.status !== "playing";
    const path = `${base}/tournaments/${encodeURIComponent(t.id)}`;
    links.replaceChildren(
      el("a", { class: "button-link", href: `/class/${encodeURIComponent(classId)}/tournament/${encodeURIComponent(t.id)}`, target: "_blank", text: "Standings on the projector", dataset: { testid: "tournament-projector" } }),
      el("a", { class: "button-link", href: `${path}/standings.csv?${q}`, download: "", text: "Standings (CSV)" }),
      el("a", { class: "button-link", href: `${path}/export.json?${q}`, download: "", text: "Results (JSON)" }));
  }

  start.addEventListener("click", async () => {
    const got = await api("POST", `${base}/tournaments`, { token, auto: auto.checked });
    note.textContent = got.ok ? "" : got.error;
    if (got.ok) draw(got.data);
  });
  next.addEventListener("click", async () => {
    const got = await api("POST", `${base}/tournaments/${encodeURIComponent(current.id)}/next`, { token });
    note.textContent = got.ok ? "" : got.error;
    if (got.ok) draw(got.data);
  });
  socket.on("tournament_state", draw);
  return { classChanged() {} };
}
