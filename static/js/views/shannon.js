/* Shannon switching game: a graph with two terminals. Short (seat 0) colours a free edge,
 * Cut (seat 1) deletes one. Free edges are thick grey targets; coloured edges are solid in
 * Short's colour; cut edges are dashed and faded with a cross. Hovering a free edge says what
 * the move would do for the side to move; the hint glows; the finished game shows Short's
 * path or Cut's cut set. Bridg-It boards draw S and T as the grid's left and right sides. */
"use strict";
import { ArcadeViews } from "../views.js";
(function () {
  const { cap } = ArcadeViews;
  const { el, svg, moveTarget, lineTargets, band, distanceToSegment } = ArcadeViews;

  // The viewBox follows the board's width (400..960 units) while discs, labels and lines
  // keep their size in those units: on a narrow page they stay large enough to read, and no
  // text is drawn smaller than MIN_FS units (12.5 px on the screen).
  let W = 960, H = 560, MIN_FS = 12.5;
  const PAD_X = 78, PAD_Y = 58;    // room for the terminals' tags
  const BAR_W = 28;                // Bridg-It's side bars
  const SWEEP_MS = 650;            // the last move's animation at speed 1

  // The last move's animation survives re-renders of the same position (an "AI thinking"
  // push arrives right after a move): a new render resumes it where the old one was.
  let animating = null;  // {key, started, duration}

  const DOT_R = 8;  // a Bridg-It point's radius (SVG units)
  ArcadeViews.register("shannon", {
    moveWords(move, seat) {  // seat 0 is Short (colours), seat 1 Cut (deletes)
      return `${seat === 1 ? "cut" : "colour"} ${move}`;
    },
    render(root, state, ctx) {
      const b = state.board;
      const width = root.clientWidth || 960;
      W = Math.round(Math.max(400, Math.min(960, width)));
      // a grid wants room between its rows; a phone, a taller board so the vertices spread
      H = Math.round(W * (width < 560 ? 0.95 : b.style === "bridgit" ? 0.72 : 0.58));
      MIN_FS = 12.5 * W / Math.min(W, width);
      const geo = geometry(b);
      const playing = state.status === "playing";
      const mover = playing ? state.to_move : null;
      const legal = new Set(state.legal_moves);
      const coloured = new Set(b.coloured), cut = new Set(b.cut);
      const lastEntry = state.history.length ? state.history[state.history.length - 1] : null;
      const last = lastEntry ? lastEntry.move : null;
      const pathEdges = new Set(), pathVertices = new Set(b.winning_path || []);
      (b.winning_path || []).forEach((v, i, p) => { if (i) pathEdges.add(geo.edgeBetween(p[i - 1], v)); });
      const cutSet = new Set(b.winning_cut || []);
      const over = b.winning_path ? "path" : b.winning_cut ? "cut" : null;

      const free = [];  // the click targets: {move, a, b, node}
      const layers = { edges: svg("g", { class: "shn-edges" }),
                       marks: svg("g", { class: "shn-marks" }), vertices: svg("g", { class: "shn-vertices" }),
                       tags: svg("g", { class: "shn-tags" }) };
      const hover = svg("g", { class: "shn-tag shn-hover-tag", visibility: "hidden", "aria-hidden": "true" });

      for (const e of b.edges) {
        const { p, q } = geo.segment(e);
        const kind = coloured.has(e) ? "coloured" : cut.has(e) ? "cut" : "free";
        const cls = ["shn-edge", kind];
        if (e === last) cls.push("last");
        if (pathEdges.has(e)) cls.push("win-path");
        if (cutSet.has(e)) cls.push("win-cut");
        const line = { x1: p[0], y1: p[1], x2: q[0], y2: q[1] };
        const g = svg("g", { class: cls.join(" "), dataset: { edge: e, state: kind } },
          svg("title", { text: edgeTitle(e, kind, mover, state.sides) }),
          svg("line", { class: "shn-halo", ...line }),
          svg("line", { class: "shn-line", ...line }),
          svg("polygon", { class: "shn-band", points: band(p, q, 30) }));
        if (kind === "free") {
          moveTarget(g, e, ctx, legal.has(e), { click: false, label: `${mover === 0 ? "colour" : "cut"} ${e}` });
          if (g.classList.contains("move-target")) {
            free.push({ move: e, a: p, b: q, node: g });
            // (a tag for the keyboard's focus only: the page puts the focus back after a reply,
            // and a tag on the first free edge then would read as a hint)
            g.addEventListener("focus", () => { if (g.matches(":focus-visible")) showHover(hover, e, geo, mover); });
            g.addEventListener("blur", () => hover.setAttribute("visibility", "hidden"));
          }
        }
        if (kind === "cut") layers.marks.append(cross(p, q, cutSet.has(e)));
        if (ctx.hint === e) {
          g.classList.add("hinted");
          const [mx, my] = geo.labelAt(e);
          layers.tags.append(tag(mx, my - 26, "hint", "shn-hint-tag", { testid: "hint-tag" }));
        }
        layers.edges.append(g);
      }

      for (const v of b.vertices) {
        const node = vertex(v, b, geo, pathVertices);
        if (node) layers.vertices.append(node);
      }
      if (geo.bars) {
        for (const [v, x] of [[b.start, geo.bars.start], [b.goal, geo.bars.goal]]) {
          layers.vertices.append(bar(v, x, geo.bars.top, geo.bars.bottom, v === b.start ? "start" : "goal", pathVertices.has(v)));
        }
      }

      const board = svg("svg", { class: "shn-svg" + (over ? ` over-${over}` : "") + (geo.bars ? " bridgit" : ""), viewBox: `0 0 ${W} ${H}`,
        role: "group", "aria-label": "Shannon switching game board",
        dataset: { mover: mover == null ? "none" : String(mover), testid: "shannon-board" } },
        layers.edges, layers.marks, layers.vertices, layers.tags, hover);

      lineTargets(board, free, ctx, (target) => {
        if (target) showHover(hover, target.move, geo, mover);
        else hover.setAttribute("visibility", "hidden");
      });
      root.replaceChildren(caption(state, b, mover, legal), el("div", { class: "shn-stage" }, board), legend(state, b));

      if (last && ctx.previous && ctx.speed > 0 && lastEntry) animateLast(board, state, last, lastEntry.seat, ctx.speed);
    },
  });

  // ----- geometry ------------------------------------------------------------------------------
  /** Where everything goes: vertex points, radii, Bridg-It bars, and each edge's segment. */
  function geometry(b) {
    const n = b.vertices.length;
    const pos = {};
    for (const v of b.vertices) {
      const [x, y] = b.layout[v] || [0.5, 0.5];
      pos[v] = [PAD_X + x * (W - 2 * PAD_X), PAD_Y + y * (H - 2 * PAD_Y)];
    }
    const radius = n > 12 ? 23 : 26;
    const size = {};  // v -> {r (terminal-aware), w (half width of a pill), fs}
    for (const v of b.vertices) {
      const terminal = v === b.start || v === b.goal;
      if (b.style === "bridgit" && !terminal) {  // Bridg-It's points: small dots, the edges count
        size[v] = { r: DOT_R, w: DOT_R, fs: MIN_FS, terminal, dot: true };
        continue;
      }
      const r = terminal ? radius + 8 : radius;
      const fs = Math.max(MIN_FS, v.length <= 2 ? (terminal ? 24 : 20) : v.length <= 4 ? 15 : 14);
      const text = v.length * fs * 0.6;  // about the label's width
      const w = text + 8 <= 2 * r ? r : (text + 16) / 2;  // a disc, or a pill for a long name
      size[v] = { r, w, fs, terminal };
    }
    let bars = null;
    if (b.style === "bridgit") {
      const inner = b.vertices.filter((v) => v !== b.start && v !== b.goal).map((v) => pos[v][1]);
      bars = { start: pos[b.start][0], goal: pos[b.goal][0],
               top: Math.min(...inner) - 44, bottom: Math.max(...inner) + 44 };
    }
    const names = new Map();
    for (const e of b.edges) {
      const [u, v] = e.split("-");
      names.set(`${u}|${v}`, e);
      names.set(`${v}|${u}`, e);
    }
    const onBar = (v) => bars && (v === b.start || v === b.goal);
    /** The drawn segment of edge e: an edge to a Bridg-It side runs straight from the bar. */
    function segment(e) {
      const [u, v] = e.split("-");
      let p = pos[u], q = pos[v];
      if (onBar(u)) p = [pos[u][0] + (pos[u][0] < pos[v][0] ? 1 : -1) * BAR_W / 2, q[1]];
      if (onBar(v)) q = [pos[v][0] + (pos[v][0] < pos[u][0] ? 1 : -1) * BAR_W / 2, p[1]];
      return { p, q };
    }
    /** A point for labels on edge e: its middle (Bridg-It side edges: the middle of the drawn part). */
    function labelAt(e) {
      const { p, q } = segment(e);
      return [(p[0] + q[0]) / 2, (p[1] + q[1]) / 2];
    }
    return { pos, size, bars, segment, labelAt, edgeBetween: (u, v) => names.get(`${u}|${v}`) };
  }

  // ----- pieces ------------------------------------------------------------------------------
  function vertex(v, b, geo, pathVertices) {
    const s = geo.size[v];
    const [x, y] = geo.pos[v];
    const role = v === b.start ? "start" : v === b.goal ? "goal" : null;
    if (role && geo.bars) return null;  // drawn as a side bar
    const cls = ["shn-vertex"];
    if (role) cls.push("terminal", role);
    if (pathVertices.has(v)) cls.push("on-path");
    const shape = (grow, c) => s.w > s.r
      ? svg("rect", { class: c, x: x - s.w - grow, y: y - s.r - grow, width: 2 * (s.w + grow), height: 2 * (s.r + grow), rx: s.r + grow })
      : svg("circle", { class: c, cx: x, cy: y, r: s.r + grow });
    const g = svg("g", { class: cls.join(" "), dataset: { vertex: v } }, svg("title", { text: role ? `${v}: ${role}` : v }));
    if (s.dot) {
      g.classList.add("dot");
      g.append(svg("circle", { class: "shn-disc", cx: x, cy: y, r: s.r }));
      return g;
    }
    if (role) g.append(shape(7, "shn-ring"));
    g.append(shape(0, "shn-disc"), svg("text", { x, y, dy: "0.35em", "font-size": s.fs, text: v }));
    if (role) {
      const [tx, ty] = freeSpot(v, b, geo, s.r + 7 + 16);
      g.append(tag(tx, ty, role, `shn-role-tag ${role}`));
    }
    return g;
  }

  /** Where a terminal's tag collides least: below, above, or beside it, `off` from its centre
   * (the spot farthest from the other vertices and from the edges). */
  function freeSpot(v, b, geo, off) {
    const [x, y] = geo.pos[v];
    const spots = [[x, y + off], [x, y - off], [x - off - 22, y], [x + off + 22, y]]
      .filter(([sx, sy]) => sx > 40 && sx < W - 40 && sy > 14 && sy < H - 14);
    let best = null;
    for (const spot of spots) {
      let room = Infinity;
      for (const u of b.vertices) if (u !== v) room = Math.min(room, Math.hypot(geo.pos[u][0] - spot[0], geo.pos[u][1] - spot[1]) - geo.size[u].w);
      for (const e of b.edges) {
        const { p, q } = geo.segment(e);
        room = Math.min(room, distanceToSegment(spot, p, q) + 8);
      }
      if (!best || room > best[0] + 1) best = [room, spot];
    }
    return best ? best[1] : [x, y + off];
  }

  /** A Bridg-It terminal: the whole side of the grid, as a bar. */
  function bar(v, x, top, bottom, role, onPath) {
    return svg("g", { class: `shn-vertex terminal ${role} shn-bar` + (onPath ? " on-path" : ""), dataset: { vertex: v } },
      svg("title", { text: `${v}: ${role} (the whole ${role === "start" ? "left" : "right"} side)` }),
      svg("rect", { class: "shn-ring", x: x - BAR_W / 2 - 6, y: top - 6, width: BAR_W + 12, height: bottom - top + 12, rx: BAR_W / 2 + 6 }),
      svg("rect", { class: "shn-disc", x: x - BAR_W / 2, y: top, width: BAR_W, height: bottom - top, rx: BAR_W / 2 }),
      svg("text", { x, y: (top + bottom) / 2, dy: "0.35em", "font-size": Math.max(MIN_FS, 22), text: v }),
      tag(x + (role === "start" ? 6 : -6), bottom + 6 + 16 < H - 4 ? bottom + 6 + 18 : top - 24, role, `shn-role-tag ${role}`));
  }

  /** A pill with text, centred on (x, y). */
  function tag(x, y, text, cls, dataset) {
    const fs = Math.max(MIN_FS, 15);
    const w = text.length * fs * 0.6 + 18, h = fs + 11;
    return svg("g", { class: `shn-tag ${cls || ""}`, dataset },
      svg("rect", { x: x - w / 2, y: y - h / 2, width: w, height: h, rx: h / 2 }),
      svg("text", { x, y, dy: "0.35em", "font-size": fs, text }));
  }

  /** The cut mark: a cross over the middle of a deleted edge, slanted across it. */
  function cross(p, q, big) {
    const [mx, my] = [(p[0] + q[0]) / 2, (p[1] + q[1]) / 2];
    const a = Math.atan2(q[1] - p[1], q[0] - p[0]);
    const r = big ? 15 : 11;
    const arm = (t) => [mx + r * Math.cos(t), my + r * Math.sin(t), mx - r * Math.cos(t), my - r * Math.sin(t)];
    const [x1, y1, x2, y2] = arm(a + Math.PI / 4), [x3, y3, x4, y4] = arm(a - Math.PI / 4);
    return svg("g", { class: "shn-cross" + (big ? " big" : "") },
      svg("circle", { cx: mx, cy: my, r: r + 5 }),
      svg("line", { x1, y1, x2, y2 }), svg("line", { x1: x3, y1: y3, x2: x4, y2: y4 }));
  }

  function showHover(hover, e, geo, mover) {
    const [mx, my] = geo.labelAt(e);
    const text = mover === 0 ? `colour ${e}` : `cut ${e}`;
    hover.replaceChildren(...tag(mx, my + 28, text, "").childNodes);
    hover.setAttribute("class", `shn-tag shn-hover-tag seat-${mover}`);
    hover.setAttribute("visibility", "visible");
  }

  function edgeTitle(e, kind, mover, sides) {
    if (kind === "coloured") return `${e}: coloured by ${sides[0]}`;
    if (kind === "cut") return `${e}: deleted by ${sides[1]}`;
    if (mover === 0) return `${e}: free — ${sides[0]} colours it (it can never be cut)`;
    if (mover === 1) return `${e}: free — ${sides[1]} deletes it`;
    return `${e}: free`;
  }

  // ----- caption and legend --------------------------------------------------------------------
  function caption(state, b, mover, legal) {
    if (state.status !== "playing") {
      const r = state.result || {};
      const text = b.winning_path
        ? `the glowing coloured path joins ${b.start} and ${b.goal}.`
        : b.winning_cut
          ? `the ${b.winning_cut.length} glowing crossed-out edges cut every path from ${b.start} to ${b.goal}.`
          : `${r.reason || "the game is over"}.`;
      const seat = r.winner;
      return el("p", { class: "shn-caption over", "data-testid": "shannon-caption" },
        el("span", { class: `shn-chip seat-${seat}`, text: seat == null ? "Game over" : `${state.sides[seat]} won` }), text);
    }
    const name = state.sides[mover];
    const free = legal.size;
    const text = mover === 0
      ? `colour a grey edge; join ${b.start} to ${b.goal} with coloured edges. ${free} free.`
      : `delete a grey edge; separate ${b.start} from ${b.goal}. ${free} free.`;
    return el("p", { class: "shn-caption", "data-testid": "shannon-caption" },
      el("span", { class: `shn-chip seat-${mover}`, text: `${name} to move` }), text);
  }

  function legend(state, b) {
    const item = (sample, label) => el("span", { class: "shn-legend-item" }, sample, label);
    const sample = (...parts) => svg("svg", { class: "shn-legend-sample", viewBox: "0 0 48 20", "aria-hidden": "true" }, ...parts);
    const seg = (cls) => svg("line", { class: cls, x1: 4, y1: 10, x2: 44, y2: 10 });
    const x = svg("g", { class: "shn-cross" }, svg("circle", { cx: 24, cy: 10, r: 8 }),
      svg("line", { x1: 20, y1: 6, x2: 28, y2: 14 }), svg("line", { x1: 28, y1: 6, x2: 20, y2: 14 }));
    const terminals = b.style === "bridgit"
      ? `${b.start} and ${b.goal} = the left and right sides`
      : `${b.start} = start, ${b.goal} = goal`;
    return el("div", { class: "shn-legend", "data-testid": "shannon-legend" },
      item(sample(seg("l-free")), "free edge"),
      item(sample(seg("l-short")), `${state.sides[0]} = seat 0: colours an edge`),
      item(sample(seg("l-cut"), x), `${state.sides[1]} = seat 1: deletes an edge`),
      item(sample(seg("l-hint")), "hint"),
      item(el("span", { class: "shn-legend-terminal", text: "◎" }), terminals));
  }

  // ----- animation -----------------------------------------------------------------------------
  /** The last move: a colour sweep along a coloured edge, or a cut edge fading with its cross
   * popping in. Resumes where it was when the same position is drawn again. */
  function animateLast(board, state, e, seat, speed) {
    const g = board.querySelector(`.shn-edge[data-edge="${CSS.escape(e)}"]`);
    if (!g || typeof g.animate !== "function") return;
    const key = `${state.id}:${state.ply}`;
    const now = performance.now();
    if (!animating || animating.key !== key) animating = { key, started: now, duration: SWEEP_MS / speed };
    const elapsed = now - animating.started;
    if (elapsed >= animating.duration) return;
    const timing = { duration: animating.duration, easing: "ease-out", fill: "both" };
    const line = g.querySelector(".shn-line");
    const run = (node, frames) => {
      const anim = node.animate(frames, timing);
      anim.currentTime = elapsed;
      anim.onfinish = () => anim.cancel();
      return anim;
    };
    if (seat === 0) {
      const [x1, y1, x2, y2] = ["x1", "y1", "x2", "y2"].map((a) => Number(line.getAttribute(a)));
      const len = Math.ceil(Math.hypot(x2 - x1, y2 - y1));
      line.style.strokeDasharray = `${len} ${len}`;
      const anim = run(line, [{ strokeDashoffset: len }, { strokeDashoffset: 0 }]);
      anim.onfinish = () => { line.style.strokeDasharray = ""; anim.cancel(); };
    } else {
      // a grey ghost of the edge fades away over the cut edge
      const ghost = line.cloneNode();
      ghost.setAttribute("class", "shn-ghost");
      g.insertBefore(ghost, line.nextSibling);
      const anim = run(ghost, [{ opacity: 1 }, { opacity: 0 }]);
      anim.onfinish = () => ghost.remove();
      const marks = board.querySelectorAll(".shn-cross");
      const { p, q } = { p: [line.x1.baseVal.value, line.y1.baseVal.value], q: [line.x2.baseVal.value, line.y2.baseVal.value] };
      const [mx, my] = [(p[0] + q[0]) / 2, (p[1] + q[1]) / 2];
      for (const m of marks) {
        const c = m.querySelector("circle");
        if (Math.abs(c.cx.baseVal.value - mx) < 0.5 && Math.abs(c.cy.baseVal.value - my) < 0.5) {
          m.style.transformOrigin = `${mx}px ${my}px`;
          run(m, [{ transform: "scale(0.1)", opacity: 0 }, { transform: "scale(1.25)", opacity: 1, offset: 0.7 }, { transform: "scale(1)", opacity: 1 }]);
        }
      }
    }
  }

})();
