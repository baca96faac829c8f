/* The play page's teaching panel: pick a position (click a move in the move list), open its
 * search tree, Compare the ladder of algorithms on it, overlay the game's theory, and follow the
 * AI's score through the game. Follows the game through play.js's "arcade:state" event. */
"use strict";
import { Teach } from "./teach-common.js";
(function () {
  const T = Teach;
  const { el, svg } = T;
  const playRoot = document.querySelector(".play");
  if (!playRoot) return;
  const gameId = playRoot.dataset.gameId;
  const $ = (id) => document.querySelector(`[data-testid="${id}"]`);

  let state = null;   // the newest game state
  let picked = null;  // the picked ply (position after it), or null: now
  let theoryOn = false;
  let theoryKey = null;
  let compareRun = 0;

  document.addEventListener("arcade:state", (e) => {
    state = e.detail.state;
    if (picked != null && picked > state.ply) picked = null; // restarted
    refresh();
  });
  // in case the first state was rendered before this script ran
  T.getJSON(`/api/games/${gameId}`).then((s) => { if (!state) { state = s; refresh(); } }).catch(() => {});

  function ply() { return picked != null ? picked : state ? state.ply : 0; }

  // ----- picking a position from the move list ---------------------------------------------
  // (each move is a button for the keyboard too: Enter or Space picks it)
  document.addEventListener("keydown", (e) => {
    if ((e.key === "Enter" || e.key === " ") && e.target.closest && e.target.closest('[data-testid="move-list"] li')) {
      e.preventDefault();
      e.target.click();
    }
  });
  document.addEventListener("click", (e) => {
    const li = e.target.closest('[data-testid="move-list"] li');
    if (!li) return;
    const m = /ply (\d+)/.exec(li.title || "");
    if (!m) return;
    pick(Number(m[1]) === picked ? null : Number(m[1]));
  });
  $("teach-now").addEventListener("click", () => pick(null));

  function pick(p) {
    picked = p != null && state && p >= state.ply ? null : p;
    document.dispatchEvent(new CustomEvent("arcade:pick", { detail: { ply: picked } }));  // (Perfect play follows)
    refresh();
  }

  function refresh() {
    if (!state) return;
    const p = ply();
    const label = $("teach-position");
    if (picked == null) {
      label.replaceChildren("Position: ", el("b", { text: "now" }), el("span", { class: "muted", text: ` (after ply ${state.ply})` }));
    } else {
      const h = state.history[picked - 1];
      label.replaceChildren("Position: ", el("b", { text: `after ply ${picked}` }),
        el("span", { class: "muted", text: ` — ${T.cap(state.sides[h.seat])} played ${h.move}` }));
    }
    $("teach-now").hidden = picked == null;
    document.querySelectorAll('[data-testid="move-list"] li').forEach((li, i) => li.classList.toggle("picked", i + 1 === picked));
    const over = picked == null && state.status === "over";
    $("compare").disabled = over;
    $("compare").title = over ? "The game is over: pick an earlier position in the move list" : "";
    const treePly = over ? Math.max(0, p - 1) : p; // a finished position has no tree: the one before it
    $("open-tree").href = `/play/${gameId}/tree?ply=${treePly}&depth=${depth()}&algo=alphabeta${theoryOn ? "&theory=1" : ""}`;
    drawScoreChart();
    if (theoryOn) loadTheory();
  }

  function depth() {
    const d = parseInt($("teach-depth").value || "0", 10);
    return Number.isFinite(d) && d >= 0 ? d : 0;
  }
  $("teach-depth").addEventListener("change", refresh);

  // ----- Compare ------------------------------------------------------------------------------
  $("compare").addEventListener("click", compare);

  async function compare() {
    const run = ++compareRun;
    const box = $("compare-result");
    const p = ply(), d = depth();
    box.hidden = false;
    box.replaceChildren(el("h3", { text: "Compare" }),
      el("p", { class: "muted", text: `Searching the position after ply ${p} with every algorithm of the ladder${d ? `, depth ${d}` : " to the end"}…` }));
    $("compare").disabled = true;
    try {
      const data = await T.getJSON(`/api/games/${gameId}/compare?ply=${p}&depth=${d}`);
      if (run === compareRun) renderCompare(box, data);
    } catch (err) {
      if (run === compareRun) box.replaceChildren(el("h3", { text: "Compare" }), el("p", { class: "bad", text: err.message }));
    } finally {
      $("compare").disabled = false;
    }
  }

  function renderCompare(box, data) {
    const rows = data.algorithms;
    const ref = rows[0];
    const head = el("h3", { text: `Compare · after ply ${data.ply} · ${data.depth ? `depth ${data.depth}` : "to the end"}` +
      ` · ${T.cap(data.to_move)} to move` });
    const table = el("table", { class: "compare-table", dataset: { testid: "compare-table" } },
      el("thead", {}, el("tr", {}, ...["Algorithm", "Nodes", "ms", "Value", "Best", "Cut-offs", "Table hits"]
        .map((h) => el("th", { text: h })))),
      el("tbody", {}, ...rows.map((r) => el("tr", { dataset: { algo: r.key } },
        el("td", { title: `${r.label}: ${r.adds || ""} (${r.agent})` }, r.label),
        el("td", { text: T.fmt(r.nodes) }),
        el("td", { text: T.ms(r.elapsed_ms) }),
        el("td", { class: "value", dataset: { value: r.value == null ? "" : String(r.value) },
          text: r.completed ? r.value_text : "did not finish" }),
        el("td", { text: r.best_move ?? "–" }),
        el("td", { text: T.fmt(r.cutoffs) }),
        el("td", { text: T.fmt(r.tt_hits) })))));
    const share = (v, base) => (base && ref.completed ? ` (${((100 * v) / base).toFixed(v / base < 0.1 ? 1 : 0)}%)` : "");
    const nodesChart = T.barChart(rows.map((r) => ({ label: r.label, bars: [{ value: r.nodes, cls: `b-${r.key}`,
      // a search stopped by the time budget searched at least this many: "≥ n" (short: phones)
      text: r.completed ? T.fmt(r.nodes) + (r.key === "minimax" ? "" : share(r.nodes, ref.nodes)) : `≥ ${T.fmt(r.nodes)}`,
      title: r.completed ? undefined : `stopped by the time budget after ${T.fmt(r.nodes)} nodes` }] })),
    { title: "Nodes searched", labelWidth: 200, barWidth: 260 });
    const timeChart = T.barChart(rows.map((r) => ({ label: r.label, bars: [{ value: r.elapsed_ms, cls: `b-${r.key}`,
      text: `${T.ms(r.elapsed_ms)} ms` }] })), { title: "Time", labelWidth: 200, barWidth: 260 });
    const cls = data.agree === true ? "ok" : data.agree === false ? "bad" : "unknown";
    const mark = data.agree === true ? "✓ " : data.agree === false ? "✗ " : "? ";
    const verdict = el("p", { class: `verdict compare-verdict ${cls}`, dataset: { testid: "compare-verdict", agree: String(data.agree) } },
      el("strong", { text: mark }), data.verdict);
    box.replaceChildren(head, verdict, el("div", { class: "compare-body" }, el("div", { class: "table-wrap", tabindex: 0, role: "region", "aria-label": "comparison table" }, table),
      el("div", { class: "compare-charts" }, nodesChart, timeChart)),
      el("p", { class: "small muted", text: "Counted by the engine (nodes = positions entered; hover an algorithm for its agent spec and what it adds). " +
        "Best moves may differ where several moves are equally good." }), mctsBlock(data));
  }

  /** Monte Carlo tree search beside the ladder: as many states as the full engine, then as much time. */
  function mctsBlock(data) {
    if (!data.mcts || !data.mcts.length) return null;
    const budget = { states: "as many states as the full engine", time: "as much time as the full engine" };
    return el("section", { class: "compare-mcts", dataset: { testid: "compare-mcts" } },
      el("h4", { text: "Monte Carlo tree search at an equal budget" }),
      el("div", { class: "table-wrap", tabindex: 0, role: "region", "aria-label": "Monte Carlo comparison" },
        el("table", { class: "compare-table" },
          el("thead", {}, el("tr", {}, ...["Budget", "Simulations", "States", "ms", "Value", "Best"]
            .map((h) => el("th", { text: h })))),
          el("tbody", {}, ...data.mcts.map((r) => el("tr", { dataset: { algo: r.key }, title: r.agent },
            el("td", { text: budget[r.budget] || r.budget }),
            el("td", { text: T.fmt(r.simulations) }),
            el("td", { text: T.fmt(r.nodes) }),
            el("td", { text: T.ms(r.elapsed_ms) }),
            el("td", { text: r.value_text }),
            el("td", { text: r.best_move ?? "–" })))))),
      el("p", { class: "small muted", text: "UCT with random playouts (seed 1): states = every position it generated, " +
        "its random games' included. Its value is a mean of random games, an estimate, not a minimax value." }));
  }

  // ----- theory -------------------------------------------------------------------------------
  $("theory-toggle").addEventListener("click", () => {
    theoryOn = !theoryOn;
    $("theory-toggle").setAttribute("aria-pressed", String(theoryOn));
    $("theory").hidden = !theoryOn;
    theoryKey = null;
    refresh();
  });

  async function loadTheory() {
    const p = ply();
    const key = `${p}:${state.history.slice(0, p).map((h) => h.move).join(",")}`;
    if (key === theoryKey) return;
    theoryKey = key;
    const box = $("theory");
    box.replaceChildren(el("h3", { text: "Theory" }), el("p", { class: "muted", text: "Checking the theory against a search…" }));
    try {
      const [th, pos] = await Promise.all([
        T.getJSON(`/api/games/${gameId}/theory?ply=${p}`),
        T.getJSON(`/api/games/${gameId}/position?ply=${p}`),
      ]);
      if (key === theoryKey) T.renderTheory(box, th, pos.board);
    } catch (err) {
      if (key === theoryKey) box.replaceChildren(el("h3", { text: "Theory" }), el("p", { class: "bad", text: err.message }));
    }
  }

  // ----- the score through the game -----------------------------------------------------------
  function drawScoreChart() {
    const box = $("score-chart");
    const side0 = T.cap(state.sides[0]), side1 = T.cap(state.sides[1]);
    const points = [];
    state.history.forEach((h, i) => {
      if (!h.nodes || h.score == null) return; // a search's move (random and rules moves have no score)
      const mover = T.num(h.score);
      points.push({ ply: i + 1, seat: h.seat, v: h.seat === 0 ? mover : -mover, h });
    });
    if (!points.length) {
      box.replaceChildren(el("p", { class: "muted", text:
        `No AI move yet. Each AI move's score will be plotted here, from ${side0}'s point of view (up is good for ${side0}).` }));
      return;
    }
    // as wide as its box (at most 640 units): on a phone the text is not scaled down
    const Wd = Math.round(Math.min(640, Math.max(280, box.clientWidth || 640))), Ht = 230, L = 64, R = 16, Tp = 16, B = 34;
    const plain = points.filter((p) => !T.isMate(p.v)).map((p) => Math.abs(p.v));
    const M = Math.max(1, ...plain);
    const mateY = 1.25 * M;
    const lastPly = Math.max(state.ply, points[points.length - 1].ply, 2);
    const x = (plyN) => L + ((plyN - 1) / Math.max(1, lastPly - 1)) * (Wd - L - R);
    const yv = (v) => {
      const c = T.isMate(v) ? Math.sign(v) * mateY : v;
      return Tp + ((mateY * 1.1 - c) / (2 * mateY * 1.1)) * (Ht - Tp - B);
    };
    const parts = [
      svg("rect", { class: "band", x: L, y: Tp, width: Wd - L - R, height: yv(M * 1.12) - Tp }),
      svg("rect", { class: "band", x: L, y: yv(-M * 1.12), width: Wd - L - R, height: Ht - B - yv(-M * 1.12) }),
      svg("line", { class: "axis", x1: L, y1: Tp, x2: L, y2: Ht - B }),
      svg("line", { class: "zero", x1: L, y1: yv(0), x2: Wd - R, y2: yv(0) }),
      svg("text", { x: L - 8, y: yv(0) + 4, "text-anchor": "end", text: "0" }),
      svg("text", { x: L - 8, y: yv(M) + 4, "text-anchor": "end", text: "+" + T.number(M) }),
      svg("text", { x: L - 8, y: yv(-M) + 4, "text-anchor": "end", text: "−" + T.number(M) }),
      // (at the right end, clear of the first moves' dots)
      svg("text", { x: Wd - R - 6, y: Tp + 14, "text-anchor": "end", text: `${side0} wins (proved)` }),
      svg("text", { x: Wd - R - 6, y: Ht - B - 6, "text-anchor": "end", text: `${side1} wins (proved)` }),
      svg("text", { x: (L + Wd - R) / 2, y: Ht - 6, "text-anchor": "middle", text: "ply" }),
    ];
    const step = Math.max(1, Math.ceil(lastPly / 12));
    for (let p = 1; p <= lastPly; p += step) {
      parts.push(svg("text", { x: x(p), y: Ht - B + 16, "text-anchor": "middle", text: String(p) }));
    }
    parts.push(svg("polyline", { class: "line", points: points.map((p) => `${x(p.ply)},${yv(p.v)}`).join(" ") }));
    for (const p of points) {
      const c = svg("circle", { cx: x(p.ply), cy: yv(p.v), r: 7, class: `pt seat-${p.seat}${T.isMate(p.v) ? " mate" : ""}${p.ply === picked ? " picked" : ""}`,
        dataset: { ply: String(p.ply) } });
      c.append(svg("title", { text: `ply ${p.ply}: ${T.cap(state.sides[p.seat])} played ${p.h.move} — ` +
        `${p.h.score_text} for the mover, depth ${p.h.depth}, ${T.fmt(p.h.nodes)} nodes` }));
      c.addEventListener("click", () => pick(p.ply));
      c.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); pick(p.ply); } });
      c.setAttribute("tabindex", "0");
      c.setAttribute("role", "button");
      c.setAttribute("aria-label", `pick the position after ply ${p.ply}`);
      c.style.cursor = "pointer";
      parts.push(c);
    }
    box.replaceChildren(
      svg("svg", { viewBox: `0 0 ${Wd} ${Ht}`, role: "group", "aria-label": "score over the game" }, ...parts),
      el("p", { class: "small muted", text: `Each dot is an AI move's score from ${side0}'s point of view (up is good for ` +
        `${side0}; red dots: ${side0}'s AI, blue: ${side1}'s). Click a dot to pick that position.` }));
  }
})();
