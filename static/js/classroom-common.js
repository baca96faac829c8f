/* Shared by the class pages (join, dashboard, projector): the JSON API, boards drawn by each
 * game's own view (ArcadeViews), status lines, moves in words and the challenge's verdict. */
"use strict";
import { ArcadeViews } from "./views.js";
export const ArcadeClass = (function () {
  const { cap } = ArcadeViews;
  const { el } = ArcadeViews;

  /** fetch JSON; resolves to {ok, status, data, error: "message for people"}. */
  async function api(method, url, body) {
    let res, data = null;
    try {
      res = await fetch(url, {
        method, headers: body ? { "Content-Type": "application/json" } : {},
        body: body ? JSON.stringify(body) : undefined,
      });
      if (res.status !== 204) data = await res.json();
    } catch (err) {
      return { ok: false, status: 0, data: null, error: `Could not reach the server: ${err.message || err}` };
    }
    const ok = res.status >= 200 && res.status < 300;
    return { ok, status: res.status, data, error: ok ? null : (data && data.error) || `The server refused (${res.status}).` };
  }

  /** Draw a game state with its own view. opts: {seat, canMove, play} (a thumbnail: none). */
  function drawBoard(root, state, opts = {}) {
    const ctx = {
      seat: opts.seat ?? null, canMove: !!opts.canMove, play: opts.play || (() => {}), hint: null,
      previous: null, speed: 0, settled() {},
    };
    ArcadeViews.get(state.game).render(root, state, ctx);
  }

  /** A challenge's position as a state the views draw. */
  function challengeState(c) {
    return { id: c.challenge_id || c.id, game: c.game, options: c.options, board: c.board,
             legal_moves: c.legal_moves, history: [], ply: c.moves.length, status: "playing",
             to_move: c.to_move ?? 0, sides: c.sides || ["first", "second"], result: null };
  }

  /** Each legal move in words, as the game's view labels it ("take 2 from pile 3"). */
  function moveWords(state) {
    const scratch = el("div", { hidden: true });
    document.body.append(scratch);
    drawBoard(scratch, state, { canMove: true });
    const words = {};
    for (const node of scratch.querySelectorAll("[data-move]")) {
      const label = node.getAttribute("aria-label");
      if (label && !label.startsWith("move ")) words[node.dataset.move] = label;
    }
    scratch.remove();
    return words;
  }

  /** A move in words and notation ("take 2 from pile 3 (3:2)"), the notation once where the
   * words hold it already ("colour r2c2-r2c3"). */
  function moveText(move, words) {
    const said = words && words[move];
    return !said ? move : said.includes(move) ? said : `${said} (${move})`;
  }

  /** Whose turn, the result, in plain words, for a state and the seat looking at it. */
  function statusText(state, seat) {
    if (state.result) {
      const w = state.result.winner;
      if (w == null) return state.result.reason && state.result.reason.includes("abandoned") ? "Game abandoned" : "Draw";
      if (seat == null) return `${cap(state.sides[w])} won`;
      return w === seat ? "You won!" : "You lost";
    }
    if (state.ai && state.ai.thinking != null) return "The computer is thinking…";
    if (seat != null && state.to_move === seat) return "Your move";
    if (seat != null) return "Waiting for the other player";
    return `${cap(state.sides[state.to_move] || "")} to move`;
  }

  /** The verdict on every move: a bar of answers per move (when counted), the engine's word,
   * the best moves marked; opts.mine: the student's own answer, its row marked. */
  function verdictTable(verdict, best, counts, words, opts = {}) {
    const total = Object.values(counts || {}).reduce((a, b) => a + b, 0);
    const moves = Object.keys(verdict || counts || {}).sort((a, b) => (counts[b] || 0) - (counts[a] || 0) || a.localeCompare(b));
    const rows = moves.map((m) => {
      const v = verdict ? verdict[m] : null;
      const n = counts[m] || 0;
      const isBest = best && best.includes(m);
      const isRight = !!(opts.right && opts.right.includes(m));
      const classes = [isBest ? "best" : "", isRight ? "right" : "", m === opts.mine ? "mine" : ""].join(" ").trim() || null;
      return el("tr", { dataset: { verdictMove: m }, class: classes },
        el("th", { scope: "row", text: moveText(m, words) }),
        el("td", { class: "bar-cell" },
          // (three quarters of the cell at most: the count beside the bar stays in the cell)
          el("span", { class: "answer-bar", style: `width:${total ? (75 * n / total).toFixed(1) : 0}%` }),
          el("span", { class: "answer-count", text: String(n), dataset: { count: m } })),
        v ? el("td", { class: `verdict-${v.outcome || "open"}`,
                       text: cap(v.text) + (isBest ? " ★ best" : isRight ? " ✓ right" : "") }) : null);
    });
    return el("table", { class: "verdict-table" },
      verdict ? el("caption", { class: "muted small", text: "“In 5 moves”: moves of both players, this one included." }) : null,
      el("thead", {}, el("tr", {}, el("th", { scope: "col", text: "Move" }), el("th", { scope: "col", text: "Answers" }),
        verdict ? el("th", { scope: "col", text: "Engine's verdict" }) : null)),
      el("tbody", {}, ...rows));
  }


  return { api, drawBoard, challengeState, moveWords, moveText, statusText, verdictTable, cap, el };
})();
