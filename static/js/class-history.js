/* The dashboard's "Challenges so far": every challenge the class kept (GET .../challenges), how
 * many answered and were right, each one opened again: its position, the verdict on every move
 * with the answers, and who was right. */
"use strict";
import { ArcadeClass } from "./classroom-common.js";
export function classHistory(base, token) {
  const { api, drawBoard, challengeState, moveWords, verdictTable, el } = ArcadeClass;
  const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
  let shown = null, seen = "";

  /** Read the history again if the challenge under way changed (a new one, or closed). */
  async function refresh(current) {
    const key = current ? `${current.id}:${current.open}` : "none";
    if (key === seen) return;
    seen = key;
    const got = await api("GET", `${base}/challenges?token=${encodeURIComponent(token)}`);
    if (got.ok) render(got.data);
  }

  function render(history) {
    $("history").hidden = !history.length;
    $("history-table").querySelector("tbody").replaceChildren(...history.map((c, i) => {
      const right = Object.values(c.right).filter(Boolean).length;
      const open = el("button", { type: "button", class: "linklike", text: "Open", "aria-label": `Open challenge ${i + 1}` });
      open.addEventListener("click", () => show(c, i + 1));
      return el("tr", { dataset: { challenge: c.id } },
        el("th", { scope: "row", text: `${i + 1}${c.revealed ? "" : " (under way)"}` }),
        el("td", { text: c.moves.length ? `after ${c.moves.length} move${c.moves.length === 1 ? "" : "s"}` : "the start" }),
        el("td", { text: String(c.answered) }),
        el("td", { text: String(right) }),
        el("td", {}, open));
    }));
    if (shown) { const again = history.find((c) => c.id === shown); if (again) show(again, history.indexOf(again) + 1); }
  }

  function show(c, n) {
    shown = c.id;
    $("history-detail").hidden = false;
    $("history-detail-title").textContent = `Challenge ${n}: ${c.side} to move, ${c.seconds} s`;
    const state = challengeState(c);
    drawBoard($("history-board"), state, {});
    const counts = {};
    for (const move of Object.values(c.answers)) counts[move] = (counts[move] || 0) + 1;
    const words = moveWords(state);
    const said = (sid) => `${c.names[sid]} (${c.right[sid] ? "right" : "wrong"})`;
    $("history-who").textContent = Object.keys(c.answers).length
      ? `Answers: ${Object.keys(c.answers).sort((a, b) => c.names[a].localeCompare(c.names[b])).map(said).join(", ")}.`
      : "Nobody answered.";
    $("history-verdict").replaceChildren(verdictTable(c.verdict, c.best, counts, words, { right: c.right_moves }));
    $("history-detail-title").focus();
  }

  return { refresh };
}
