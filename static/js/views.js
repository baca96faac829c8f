/* The view registry. Each game's view file (static/js/views/<game>.js) registers itself:
 *
 *   ArcadeViews.register("nim", {
 *     render(el, state, ctx) { ... },   // draw state.board into el (called on every change)
 *   });
 *
 * ctx = {
 *   seat,        // this page's seat (0/1) or null for a spectator
 *   canMove,     // true when this page may move now (its seat is to move, game playing)
 *   play(move),  // send a move in notation
 *   hint,        // the last hint's move (notation) or null: show it on the board
 *   previous,    // the state before this one (for animations) or null
 *   speed,       // animation speed factor (1 = normal, 0 = no animation)
 *   settled(),   // call when an animation that blocked clicks ends (see below)
 *   verdicts,    // Perfect play: {move: {outcome, distance}} for the position shown, or null
 * }
 * A view whose animation takes no clicks yet marks an element data-animating="true" meanwhile
 * (the page's status waits with "Your move" until then).
 * Every clickable move must carry data-move="<notation>" and call ctx.play(move) on click.
 */
"use strict";
export const ArcadeViews = (function () {
  const views = {};
  const SVG = "http://www.w3.org/2000/svg";

  /** el("div", {class: "x", dataset: {move: "1:2"}, onclick: fn}, child, "text") */
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    setAttrs(node, attrs);
    for (const c of children) if (c != null) node.append(c);
    return node;
  }

  /** Same for SVG elements. */
  function svg(tag, attrs, ...children) {
    const node = document.createElementNS(SVG, tag);
    setAttrs(node, attrs);
    for (const c of children) if (c != null) node.append(c);
    return node;
  }

  function setAttrs(node, attrs) {
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v == null || v === false) continue;
      if (k === "dataset") Object.assign(node.dataset, v);
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else if (k === "text") node.textContent = v;
      else node.setAttribute(k, v === true ? "" : v);
    }
  }

  /** Make `node` a move target: data-move, keyboard access, click -> ctx.play.
   * opts.label: what the move does, in words ("take 3 from pile 1"), for screen readers (a
   * <button> keeps its visible text as its name unless given one); opts.click = false: the
   * pointer is handled elsewhere (lineTargets), only keys play the move here. */
  function moveTarget(node, move, ctx, legal, opts = {}) {
    node.dataset.move = move;
    if (legal && ctx.canMove) {
      node.classList.add("move-target");
      if (node.tagName !== "BUTTON") {
        node.setAttribute("role", "button");
        node.setAttribute("tabindex", "0");
      }
      if (opts.label || node.tagName !== "BUTTON") node.setAttribute("aria-label", opts.label || "move " + move);
      if (opts.click !== false) node.addEventListener("click", () => ctx.play(move));
      node.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); ctx.play(move); }
      });
    } else {
      node.classList.add("move-disabled");
    }
    if (ctx.hint === move) node.classList.add("hinted");
    const verdict = ctx.verdicts && ctx.verdicts[move];
    if (verdict) {  // Perfect play: a class for the colour and pattern, the words for the tooltip and name
      node.classList.add("verdict", `verdict-${verdict.outcome || "unknown"}`);
      node.dataset.verdict = verdict.outcome || "unknown";
      const words = verdictWords(verdict);
      node.setAttribute("title", `${opts.label || node.getAttribute("title") || move}: ${words}`);
      if (node.getAttribute("role") === "button" || node.tagName === "BUTTON") {  // (a name on a plain span is not allowed)
        node.setAttribute("aria-label", `${opts.label || node.getAttribute("aria-label") || "move " + move}, perfect play: ${words}`);
      }
    }
    return node;
  }

  /** A move's exact verdict for the side to move in words: "wins in 3", "draws", "loses in 2",
   * "not solved in time". */
  function verdictWords(v) {
    if (v.outcome === "draw") return "draws";
    if (v.outcome === "win" || v.outcome === "loss") {
      const verb = v.outcome === "win" ? "wins" : "loses";
      return v.distance ? `${verb} in ${v.distance}` : verb;
    }
    return "not solved in time";
  }

  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

  /** Lines drawn in an SVG (Sim's segments, Shannon's edges) as click targets by distance
   * (CONTRACT.md): a click or a hover goes to the nearest free line within a tolerance (larger
   * for touch); lines equally near (an exact crossing, within a pixel and a half) go to the one
   * whose middle is nearer, as people aim at the middle of a line. Only the free lines given
   * here take clicks, so a coloured line never takes one meant for a free line.
   *   lines: [{move, a: [x, y], b: [x, y], node}] in the SVG's user units.
   *   onAim(line or null): called when the line a click would play changes (hover preview).
   * The aimed line's node gets the class "aimed"; the SVG gets data-aim="<move>". */
  function lineTargets(board, lines, ctx, onAim) {
    let aimed = null;
    const coarse = window.matchMedia && window.matchMedia("(pointer: coarse)").matches;

    function pick(ev) {
      const ctm = board.getScreenCTM();
      if (!ctm || !lines.length) return null;
      const p = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(ctm.inverse());
      const px = Math.hypot(ctm.a, ctm.b) || 1;  // screen pixels per user unit
      const touch = coarse || ev.pointerType === "touch" || ev.pointerType === "pen";
      const tolerance = (touch ? 30 : 16) / px, tie = 1.5 / px;
      const near = [];
      for (const line of lines) {
        const d = distanceToSegment([p.x, p.y], line.a, line.b);
        if (d <= tolerance) {
          const mid = Math.hypot(p.x - (line.a[0] + line.b[0]) / 2, p.y - (line.a[1] + line.b[1]) / 2);
          near.push({ line, d, mid });
        }
      }
      if (!near.length) return null;
      const best = Math.min(...near.map((n) => n.d));
      return near.filter((n) => n.d <= best + tie).sort((m, n) => m.mid - n.mid)[0].line;
    }

    function aim(line) {
      if (line === aimed) return;
      if (aimed) aimed.node.classList.remove("aimed");
      aimed = line;
      if (line) { line.node.classList.add("aimed"); board.dataset.aim = line.move; } else delete board.dataset.aim;
      if (onAim) onAim(line);
    }

    // A touch has no hover to preview with: the first tap aims (the line shows as it would be
    // played), a second tap on that line plays it, a tap elsewhere aims again. So where lines
    // share a point (Sim's centre, on its three long diagonals) the player sees which one a tap
    // takes, and taps further along the one they meant.
    let touching = false;
    board.addEventListener("pointerdown", (ev) => { touching = ev.pointerType === "touch" || ev.pointerType === "pen"; });
    board.addEventListener("pointermove", (ev) => { if (!touching) aim(pick(ev)); });
    board.addEventListener("pointerleave", () => { if (!touching) aim(null); });
    board.addEventListener("click", (ev) => {
      if (touching && ctx.canMove) {
        const onAimed = aimed && distanceToAimed(ev) <= tapTolerance(ev);
        if (onAimed) {
          const move = aimed.move;
          aim(null);
          ctx.play(move);
        } else {
          aim(pick(ev));
        }
        return;
      }
      const line = pick(ev);
      aim(null);
      if (line && ctx.canMove) ctx.play(line.move);
    });

    function toUser(ev) {
      const ctm = board.getScreenCTM();
      return { p: new DOMPoint(ev.clientX, ev.clientY).matrixTransform(ctm.inverse()), px: Math.hypot(ctm.a, ctm.b) || 1 };
    }
    function distanceToAimed(ev) {
      const { p } = toUser(ev);
      return distanceToSegment([p.x, p.y], aimed.a, aimed.b);
    }
    function tapTolerance(ev) { return 30 / toUser(ev).px; }
  }

  /** The points of a band `w` wide around the segment a-b (an SVG polygon's `points`): gives a
   * drawn line an area, for the focus box screen readers draw and for "is it visible". */
  function band(a, b, w) {
    const len = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1;
    const nx = -(b[1] - a[1]) / len * w / 2, ny = (b[0] - a[0]) / len * w / 2;
    return [[a[0] + nx, a[1] + ny], [b[0] + nx, b[1] + ny], [b[0] - nx, b[1] - ny], [a[0] - nx, a[1] - ny]]
      .map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ");
  }

  /** Distance from point p to the segment a-b. */
  function distanceToSegment([px, py], [ax, ay], [bx, by]) {
    const dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy || 1e-9;
    const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / len2));
    return Math.hypot(px - ax - t * dx, py - ay - t * dy);
  }

  /** The view of a game that has none yet: its board as data, its moves as buttons. */
  const fallback = {
    render(root, state, ctx) {
      const legal = new Set(state.legal_moves);
      const buttons = state.legal_moves.map((m) =>
        moveTarget(el("button", { type: "button", class: "fallback-move", text: m }), m, ctx, legal.has(m)));
      root.replaceChildren(
        el("pre", { class: "fallback-board", text: JSON.stringify(state.board, null, 1) }),
        el("div", { class: "fallback-moves" }, ...buttons));
    },
  };

  /** "red" -> "Red": a side's name at the start of a sentence. */
  function cap(s) { return s ? s[0].toUpperCase() + s.slice(1) : s; }
  /** A count for people: 12345 -> "12,345"; a missing one -> "–". */
  function fmt(n) { return n == null || n === "" ? "–" : Number(n).toLocaleString("en"); }

  /** A side and who plays it, with what it does, as one sentence reads it; the player is "you",
   * "human" or a computer in the words the server gives (state.agent_words):
   * ("cut", "wins", "you") -> "Cut (you) wins", ("cut", "wins", "Computer (club)") ->
   * "Cut wins — the computer (club)", ("cut", "", "human") -> "Cut (human)". */
  function sideWords(side, verb, player) {
    const name = cap(side);
    const then = verb ? ` ${verb}` : "";
    if (player === "you") return `${name} (you)${then}`;
    if (!player || player === "human") return `${name} (human)${then}`;
    return `${name}${then} — the ${player.replace(/^Computer/, "computer")}`;
  }

  return {
    register(name, view) { views[name] = view; },
    cap, fmt,
    sideWords,
    /** A move in words, as the game's view says it (its moveWords(move, seat)), else its notation. */
    moveWords(game, move, seat) {
      const view = views[game];
      return view && view.moveWords && move != null ? view.moveWords(move, seat) : move;
    },
    get(name) { return views[name] || fallback; },
    el, svg, moveTarget, verdictWords, lineTargets, band, distanceToSegment, sleep,
  };
})();

/** The same helpers one by one, for a module that imports only what it uses. */
export const { cap, fmt, sideWords, moveWords, el, svg, moveTarget, verdictWords, lineTargets, band, distanceToSegment, sleep } = ArcadeViews;
