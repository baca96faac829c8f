/* A class tournament's standings (points, tie-break, head-to-head) and its rounds, drawn the same
 * on the dashboard, the projector page and a student's phone. */
import { ArcadeViews } from "./views.js";

const { el } = ArcadeViews;
const pts = (x) => (x === 0.5 ? "½" : Number.isInteger(x) ? String(x) : `${Math.floor(x)}½`);

/** The standings as a table; ``compact`` (a phone) leaves out the head-to-head columns. */
export function drawStandings(table, t, { compact = false } = {}) {
  const rows = t.standings;
  const head = ["#", "Student", "Points", "Tie-break", "W", "D", "L"];
  const cells = (r) => [String(r.place), r.name + (r.withdrawn ? " (left)" : ""), pts(r.points), pts(r.tiebreak),
    String(r.wins), String(r.draws), String(r.losses)];
  const h2h = compact ? [] : rows.map((r) => r.id);
  table.replaceChildren(
    el("caption", { class: "visually-hidden", text: "Standings: points, tie-break (Sonneborn-Berger), wins, draws, losses and head to head" }),
    el("thead", {}, el("tr", {}, ...head.map((h) => el("th", { scope: "col", text: h })),
      ...h2h.map((id, i) => el("th", { scope: "col", text: `vs ${i + 1}`, title: `against ${rows[i].name}` })))),
    el("tbody", {}, ...rows.map((r) => el("tr", { dataset: { standing: r.name } },
      ...cells(r).map((c, i) => (i === 1 ? el("th", { scope: "row", text: c }) : el("td", { class: "num", text: c }))),
      ...h2h.map((id) => el("td", { class: "num", text: id === r.id ? "—" : r.head_to_head[id] != null ? pts(r.head_to_head[id]) : "" }))))));
}

/** Every round's games: who played whom and how it ended. */
export function drawRounds(box, t) {
  box.replaceChildren(...t.rounds.slice().reverse().map((r) => el("div", { class: "round", dataset: { round: String(r.number) } },
    el("h3", { text: `Round ${r.number}` }),
    el("ul", {}, ...r.games.map((g) => el("li", { text: gameText(g) }))))));
}

function gameText(g) {
  const [a, b] = g.players;
  if (!g.result) return `${a} – ${b}: playing`;
  const [pa, pb] = g.result.points;
  return `${a} ${pts(pa)} – ${pts(pb)} ${b}${g.result.how === "forfeit" ? " (forfeit)" : ""}`;
}

export function statusText(t) {
  if (t.status === "over") return `${t.format === "swiss" ? "Swiss" : "Round robin"}: over after ${t.round} rounds.`;
  return `${t.format === "swiss" ? "Swiss" : "Round robin"}: round ${t.round} of ${t.rounds_total}.`;
}
