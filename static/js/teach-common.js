/* Shared by the teaching pages: how values and windows are written, numbers, bar charts and
 * downloads. Values in traces are seat 0's (MAX's); proved results are ±(1,000,000 − plies). */
"use strict";
import { ArcadeViews } from "./views.js";
export const Teach = (function () {
  const { cap, fmt } = ArcadeViews;
  const { el, svg } = ArcadeViews;
  // the engine's scale of proved results (engine/game.py), sent in every page
  const { win: WIN, mate_bound: MATE_BOUND, inf: INF } = JSON.parse(document.getElementById("score-scale").textContent);

  /** A trace value (number, "inf" or "-inf") as a number. */
  function num(v) {
    if (v === "inf") return Infinity;
    if (v === "-inf") return -Infinity;
    return Number(v);
  }

  /** A seat-0 value as a teacher writes it: +∞, −∞, W3 (MAX wins 3 plies from the root), L4,
   * −1,234, 2.5: the spelling of engine.search_result.value_text, which a browser test holds
   * this to (the pages write values they compute, a window's end or a mate a ply away). */
  function value(v) {
    if (v == null) return "?";
    const x = num(v);
    if (Math.abs(x) >= INF) return x > 0 ? "+∞" : "−∞";
    if (x >= MATE_BOUND) return "W" + Math.round(WIN - x);
    if (x <= -MATE_BOUND) return "L" + Math.round(WIN + x);
    return number(x);
  }

  function isMate(v) { const x = Math.abs(num(v)); return x >= MATE_BOUND && x < INF; }

  function number(x) {
    const sign = x < 0 ? "−" : "";
    const a = Math.abs(x);
    if (Number.isInteger(a)) return sign + a.toLocaleString("en");
    return sign + (a >= 100 ? a.toFixed(0) : a >= 10 ? a.toFixed(1) : a.toFixed(2));
  }

  function windowText(alpha, beta) { return `(${value(alpha)}, ${value(beta)})`; }


  function ms(x) {
    if (x == null) return "–";
    if (x < 1) return x.toFixed(3);
    if (x < 10) return x.toFixed(2);
    if (x < 100) return x.toFixed(1);
    return Math.round(x).toLocaleString("en");
  }

  /**
   * Horizontal bars, one row per item, each row one or more bars:
   *   barChart([{label: "Minimax", bars: [{value: 1234, text: "1,234", cls: "b0"}]}], {title, unit, log})
   * Returns an <svg>. Bars with value 0 get a hairline so they stay visible.
   */
  function barChart(rows, opts = {}) {
    const longest = Math.max(0, ...rows.flatMap((r) => r.bars.map((b) => String(b.text ?? "").length)));
    // On a phone each row's label goes above its bars, so the chart scales down little and
    // its text stays readable (>= 12 px).
    const stacked = window.innerWidth < 640;
    const labelW = stacked ? 0 : opts.labelWidth || 230, barMax = stacked ? 120 : opts.barWidth || 420;
    const textW = Math.max(stacked ? 60 : 120, 16 + longest * 8.6);
    const barH = opts.barHeight || 24, gap = 4, rowGap = 12, top = opts.title ? 34 : 8, labelH = stacked ? 22 : 0;
    const scale = (v) => (opts.log ? Math.log10(1 + Math.max(0, v)) : Math.max(0, v));
    const max = Math.max(1e-9, ...rows.flatMap((r) => r.bars.map((b) => scale(b.value || 0))));
    let y = top;
    const parts = [];
    if (opts.title) parts.push(svg("text", { x: 0, y: 22, class: "chart-title", text: opts.title }));
    for (const row of rows) {
      if (stacked) {
        parts.push(svg("text", { x: 0, y: y + 16, class: "chart-label", text: row.label }));
        y += labelH;
      }
      const h = row.bars.length * (barH + gap) - gap;
      if (!stacked) parts.push(svg("text", { x: labelW - 12, y: y + h / 2 + 6, class: "chart-label", "text-anchor": "end", text: row.label }));
      row.bars.forEach((b, i) => {
        const by = y + i * (barH + gap);
        const w = b.value == null ? 0 : Math.max(2, (scale(b.value) / max) * barMax);
        const bar = svg("rect", { x: labelW, y: by, width: w, height: barH, rx: 4, class: "chart-bar " + (b.cls || "") });
        if (b.title) bar.append(svg("title", { text: b.title }));
        parts.push(bar);
        parts.push(svg("text", { x: labelW + w + 8, y: by + barH / 2 + 6, class: "chart-value " + (b.cls || ""), text: b.text ?? "" }));
      });
      y += h + rowGap;
    }
    const height = y - rowGap + 8;
    const width = labelW + barMax + textW;
    const node = svg("svg", { viewBox: `0 0 ${width} ${height}`, width: "100%", class: "bar-chart", role: "img",
      "aria-label": opts.title || "bar chart", preserveAspectRatio: "xMinYMin meet" }, ...parts);
    node.style.maxWidth = width + "px";
    return node;
  }

  /** A link that downloads `text` as a file. */
  function downloadLink(text, filename, label, attrs = {}) {
    const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
    return el("a", { href: url, download: filename, class: "button-link", text: label, ...attrs });
  }

  /** The creator's manage token for the game a URL names, as a header: the one this browser
   * keeps (the lobby kept it), else the page's own `?token=`. A game still being played may be
   * searched by its creator only. */
  function creatorHeaders(url) {
    const m = /\/api\/games\/([^/?]+)/.exec(url);
    let token = null;
    try { token = m && localStorage.getItem(`arcade.manage.${decodeURIComponent(m[1])}`); } catch (e) { token = null; }
    token = token || PAGE_TOKEN;
    return token ? { "X-Seat-Token": token } : {};
  }
  const PAGE_TOKEN = new URLSearchParams(window.location.search).get("token");  // (read before a page rewrites its URL)

  async function getJSON(url, init) {
    const res = await fetch(url, { ...(init || {}), headers: { ...creatorHeaders(url), ...((init && init.headers) || {}) } });
    let body = null;
    try { body = await res.json(); } catch (e) { body = null; }
    if (!res.ok) throw new Error((body && (body.error || body.message)) || `${res.status} ${res.statusText}`);
    return body;
  }


  /**
   * The theory overlay: what the theorem says (GET /api/games/<id>/theory), whether a search to
   * the end agrees, and — where the theory names them (Shannon, Lehman) — the two edge-disjoint
   * spanning trees drawn on the board's graph.
   */
  function renderTheory(box, data, board) {
    const t = data.theory;
    const head = el("h3", { text: "Theory" });
    if (!t) {
      box.replaceChildren(head, el("p", { class: "muted", dataset: { testid: "theory-none" },
        text: `No known theory covers this position of ${data.game}: only the search can tell.` }));
      return;
    }
    const out = [head, el("p", { class: "theory-name", text: t.name })];
    if (t.value) {
      out.push(el("p", { class: "theory-value" }, "With perfect play: ",
        el("b", { class: `outcome-${t.value}`, text: t.value }), data.to_move ? ` for ${cap(data.to_move)} (to move).` : "."));
    }
    if (Array.isArray(t.winning_moves)) {
      out.push(el("p", {}, "Winning moves: ",
        ...(t.winning_moves.length ? t.winning_moves.map((m) => el("code", { class: "chip", text: m })) : [el("span", { class: "muted", text: "none" })])));
    }
    if (t.explanation) out.push(el("p", { class: "theory-why", text: t.explanation }));
    if (Array.isArray(t.trees) && board && board.layout) out.push(treesFigure(t.trees, board, t.virtual_edge));
    const check = data.check;
    if (check) {
      const cls = check.agree === true ? "ok" : check.agree === false ? "bad" : "unknown";
      const mark = check.agree === true ? "✓ " : check.agree === false ? "✗ " : "? ";
      out.push(el("p", { class: `verdict ${cls}`, dataset: { testid: "theory-verdict", agree: String(check.agree) } },
        el("strong", { text: mark }), check.text));
    } else if (data.to_move == null) {
      out.push(el("p", { class: "muted", text: "The game is over here: nothing to search." }));
    }
    box.replaceChildren(...out);
  }

  /** The board's graph with two edge-disjoint spanning trees in two colours (Lehman). */
  function treesFigure(trees, board, virtualEdge) {
    const size = 280, pad = 30;
    const pts = Object.values(board.layout);
    const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
    const x0 = Math.min(...xs), y0 = Math.min(...ys);
    const span = Math.max(1e-6, Math.max(...xs) - x0, Math.max(...ys) - y0);
    const P = (v) => {
      const [x, y] = board.layout[v] || [x0, y0];
      return [pad + ((x - x0) / span) * (size - 2 * pad), pad + ((y - y0) / span) * (size - 2 * pad)];
    };
    const parts = [];
    const inTree = new Map();
    trees.forEach((edges, i) => edges.forEach((e) => inTree.set(e, i)));
    const coloured = new Set(board.coloured || []), cut = new Set(board.cut || []);
    for (const e of board.edges || []) {
      const [a, b] = e.split("-");
      const [x1, y1] = P(a), [x2, y2] = P(b);
      const i = inTree.get(e);
      const cls = i != null ? `g-edge g-tree${i}` : coloured.has(e) ? "g-edge g-coloured" : cut.has(e) ? "g-edge g-cut" : "g-edge";
      const what = i != null ? `tree ${i + 1}` : coloured.has(e) ? "coloured (its ends are merged)" : cut.has(e) ? "cut" : "in neither tree";
      parts.push(svg("line", { x1, y1, x2, y2, class: cls }, svg("title", { text: `${e}: ${what}` })));
    }
    if (virtualEdge) {
      const [a, b] = virtualEdge.split("-");
      const [x1, y1] = P(a), [x2, y2] = P(b);
      const mx = (x1 + x2) / 2 + (y2 - y1) * 0.35, my = (y1 + y2) / 2 - (x2 - x1) * 0.35;
      parts.push(svg("path", { d: `M${x1},${y1} Q${mx},${my} ${x2},${y2}`, class: "g-edge g-tree1 g-virtual" },
        svg("title", { text: `${virtualEdge}: the imagined edge (Short moves first), in tree 2` })));
    }
    for (const v of board.vertices || Object.keys(board.layout)) {
      const [x, y] = P(v);
      const term = v === board.start || v === board.goal;
      parts.push(svg("circle", { cx: x, cy: y, r: Math.max(term ? 12 : 10, 4 + 3.6 * v.length),
        class: term ? "g-vertex g-terminal" : "g-vertex" }));
      parts.push(svg("text", { x, y: y + 4.5, "text-anchor": "middle", class: "g-label", text: v }));
    }
    const height = Math.round(2 * pad + ((Math.max(...ys) - y0) / span) * (size - 2 * pad));
    return el("figure", { class: "theory-trees" },
      svg("svg", { viewBox: `0 0 ${size} ${height}`, width: "100%", style: `max-width: ${size}px`, role: "img",
        "aria-label": "two edge-disjoint spanning trees" }, ...parts),
      el("figcaption", {}, el("span", { class: "g-key g-key0", text: "tree 1" }), " ",
        el("span", { class: "g-key g-key1", text: "tree 2" }), " — edge-disjoint spanning trees",
        virtualEdge ? ` (dashed: the imagined ${virtualEdge})` : ""));
  }

  return { WIN, MATE_BOUND, num, value, isMate, number, windowText, fmt, ms, barChart, downloadLink,
    getJSON, creatorHeaders, cap, renderTheory, el, svg };
})();
