/* Sim: six points, fifteen segments. Click an uncoloured segment to colour it in your colour;
 * whoever completes a triangle of their own colour loses. Segments that would complete the
 * mover's own triangle are dashed with a warning sign; the finished game fills the losing
 * triangle. */
"use strict";
import { ArcadeViews } from "../views.js";
(function () {
  const { cap } = ArcadeViews;
  const { el, svg, moveTarget, lineTargets, band } = ArcadeViews;

  const CX = 300, CY = 290, R = 225;   // the hexagon, in viewBox units
  const POINT_R = 29;
  const DRAW_MS = 550;                 // draw-in of the last segment at speed 1

  /** Point p (1..6): 1 at the top, then clockwise. */
  function pos(p) {
    const a = (-90 + 60 * (p - 1)) * Math.PI / 180;
    return [CX + R * Math.cos(a), CY + R * Math.sin(a)];
  }

  const SEGMENTS = [];
  for (let a = 1; a <= 6; a++) for (let b = a + 1; b <= 6; b++) SEGMENTS.push(`${a}-${b}`);

  const ends = (seg) => seg.split("-").map(Number);

  /** Where along a segment its warning sign goes: the middle, except for the three long
   * diagonals, which all cross at the centre (their signs would sit on each other). */
  function markAt(seg) {
    const [a, b] = ends(seg);
    const t = b - a === 3 ? 0.37 : 0.5;
    const [x1, y1] = pos(a), [x2, y2] = pos(b);
    return [x1 + t * (x2 - x1), y1 + t * (y2 - y1)];
  }

  // The draw-in survives re-renders of the same position (an "AI thinking" push arrives
  // right after a move): a new render resumes the animation where the old one was.
  let drawing = null;  // {key, started, duration}

  ArcadeViews.register("sim", {
    render(root, state, ctx) {
      const b = state.board;
      const playing = state.status === "playing";
      const mover = playing ? state.to_move : null;
      const colour = {};
      for (const s of b.red) colour[s] = 0;
      for (const s of b.blue) colour[s] = 1;
      const dangers = new Set(mover === 0 ? b.red_dangers : mover === 1 ? b.blue_dangers : []);
      const legal = new Set(state.legal_moves);
      const last = state.history.length ? state.history[state.history.length - 1].move : null;
      const tri = b.losing_triangle;
      const triSides = new Set(tri ? [`${tri[0]}-${tri[1]}`, `${tri[0]}-${tri[2]}`, `${tri[1]}-${tri[2]}`] : []);
      const loserSeat = b.loser == null ? null : state.sides.indexOf(b.loser);

      const free = [];  // the click targets: {move, a, b, node}
      const layers = { fill: svg("g", { class: "sim-fill" }), segs: svg("g", { class: "sim-segs" }),
                       marks: svg("g", { class: "sim-marks" }), points: svg("g", { class: "sim-points" }) };

      if (tri) {
        const corners = tri.map(pos);
        layers.fill.append(svg("polygon", { class: `sim-triangle seat-${loserSeat}`, "data-testid": "losing-triangle",
          "data-triangle": tri.join("-"), points: corners.map((c) => c.join(",")).join(" ") }));
      }

      for (const seg of SEGMENTS) {
        const [a, bb] = ends(seg);
        const [x1, y1] = pos(a), [x2, y2] = pos(bb);
        const owner = colour[seg];
        const cls = ["sim-seg", owner === 0 ? "seat-0" : owner === 1 ? "seat-1" : "free"];
        if (dangers.has(seg)) cls.push("danger");
        if (seg === last) cls.push("last");
        if (triSides.has(seg)) cls.push("in-triangle");
        const title = owner != null ? `${seg}: ${state.sides[owner]}`
          : dangers.has(seg) ? `${seg}: would complete a ${state.sides[mover].toLowerCase()} triangle — ${state.sides[mover]} loses`
          : `${seg}: uncoloured`;
        if (triSides.has(seg)) cls.push(`lost-${loserSeat}`);
        const g = svg("g", { class: cls.join(" "), dataset: { seg } },
          svg("title", { text: title }),
          svg("line", { class: "sim-halo", x1, y1, x2, y2 }),
          svg("line", { class: "sim-line", x1, y1, x2, y2 }),
          svg("polygon", { class: "sim-band", points: band([x1, y1], [x2, y2], 30) }));
        if (owner == null) {
          moveTarget(g, seg, ctx, legal.has(seg), { click: false, label: moveLabel(seg, dangers.has(seg), state, ctx) });
          if (g.classList.contains("move-target")) free.push({ move: seg, a: [x1, y1], b: [x2, y2], node: g });
        } else if (ctx.hint === seg) g.classList.add("hinted");
        layers.segs.append(g);
        if (dangers.has(seg)) layers.marks.append(warning(seg, mover));
      }

      for (let p = 1; p <= 6; p++) {
        const [x, y] = pos(p);
        layers.points.append(svg("g", { class: "sim-point", dataset: { point: String(p) } },
          svg("circle", { cx: x, cy: y, r: POINT_R }),
          svg("text", { x, y, dy: "0.36em", text: String(p) })));
      }

      const board = svg("svg", { class: "sim-svg", viewBox: "45 25 510 530", role: "group",
        "aria-label": "Sim board", dataset: { mover: mover == null ? "none" : String(mover) } },
        layers.fill, layers.segs, layers.marks, layers.points);

      lineTargets(board, free, ctx);
      root.replaceChildren(caption(state, b, mover, dangers, legal),
        el("div", { class: "sim-stage" }, board), legend(state));

      if (last && ctx.previous && ctx.speed > 0) drawIn(board, state, last, ctx.speed);
    },
  });

  /** A move in words: "draw 1-3 (would complete your triangle)". */
  function moveLabel(seg, danger, state, ctx) {
    if (!danger) return `draw ${seg}`;
    const whose = ctx.seat === state.to_move ? "your" : `${state.sides[state.to_move]}'s`;
    return `draw ${seg} (would complete ${whose} triangle: a loss)`;
  }

  /** The line above the board: whose turn and what is at stake, or who lost and why. */
  function caption(state, b, mover, dangers, legal) {
    if (state.status !== "playing") {
      const reason = state.result && state.result.reason ? state.result.reason : "the game is over";
      const seat = b.loser == null ? null : state.sides.indexOf(b.loser);
      return el("p", { class: "sim-caption over", "data-testid": "sim-caption" },
        el("span", { class: `sim-chip seat-${seat}`, text: b.loser ? `${b.loser} lost` : "Game over" }),
        `${cap(reason)}.`);
    }
    const name = state.sides[mover];
    const safe = [...legal].filter((m) => !dangers.has(m)).length;
    const colour = name.toLowerCase();
    const text = !dangers.size ? `${safe} segment${safe === 1 ? "" : "s"} left, none completes a ${colour} triangle yet.`
      : safe ? `${safe} safe; ${dangers.size} dashed ${dangers.size === 1 ? "one" : "ones"} would complete a ${colour} triangle.`
      : `no safe segment left: every one would complete a ${colour} triangle.`;
    return el("p", { class: "sim-caption", "data-testid": "sim-caption" },
      el("span", { class: `sim-chip seat-${mover}`, text: `${name} to move` }), text);
  }

  function legend(state) {
    const item = (sample, label) => el("span", { class: "sim-legend-item" }, sample, label);
    const line = (cls) => svg("svg", { class: "sim-legend-line", viewBox: "0 0 44 14", "aria-hidden": "true" },
      svg("line", { class: cls, x1: 3, y1: 7, x2: 41, y2: 7 }));
    return el("div", { class: "sim-legend", "data-testid": "sim-legend" },
      item(line("l-red"), `${state.sides[0]} = seat 0 (first)`),
      item(line("l-blue"), `${state.sides[1]} = seat 1`),
      item(line("l-danger"), "dashed ⚠ = closes the mover's own triangle: loses"),
      item(line("l-hint"), "hint"));
  }

  /** A small warning sign on a segment that would lose at once for the side to move. */
  function warning(seg, mover) {
    const [x, y] = markAt(seg);
    const h = 22;
    return svg("g", { class: `sim-warning seat-${mover}`, dataset: { warn: seg }, "aria-hidden": "true" },
      svg("polygon", { points: `${x},${y - h * 0.62} ${x + h * 0.6},${y + h * 0.42} ${x - h * 0.6},${y + h * 0.42}` }),
      svg("text", { x, y: y + h * 0.3, text: "!" }));
  }

  /** Draw the last segment in from its first point, resuming if this position was drawn before. */
  function drawIn(board, state, seg, speed) {
    const g = board.querySelector(`.sim-seg[data-seg="${seg}"]`);
    if (!g || typeof g.animate !== "function") return;
    const key = `${state.id}:${state.ply}`;
    const now = performance.now();
    if (!drawing || drawing.key !== key) drawing = { key, started: now, duration: DRAW_MS / speed };
    const elapsed = now - drawing.started;
    if (elapsed >= drawing.duration) return;
    const line = g.querySelector(".sim-line");
    const [a, b] = ends(seg);
    const [x1, y1] = pos(a), [x2, y2] = pos(b);
    const len = Math.ceil(Math.hypot(x2 - x1, y2 - y1));
    line.style.strokeDasharray = `${len} ${len}`;
    const anim = line.animate([{ strokeDashoffset: len }, { strokeDashoffset: 0 }],
      { duration: drawing.duration, easing: "ease-out", fill: "both" });
    anim.currentTime = elapsed;
    anim.onfinish = () => { line.style.strokeDasharray = ""; anim.cancel(); g.classList.remove("drawing"); };
    g.classList.add("drawing");
  }

})();
