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
 * }
 * Every clickable move must carry data-move="<notation>" and call ctx.play(move) on click.
 */
"use strict";
window.ArcadeViews = (function () {
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

  /** Make `node` a move target: data-move, keyboard access, click -> ctx.play. */
  function moveTarget(node, move, ctx, legal) {
    node.dataset.move = move;
    if (legal && ctx.canMove) {
      node.classList.add("move-target");
      node.setAttribute("role", "button");
      node.setAttribute("tabindex", "0");
      node.setAttribute("aria-label", "move " + move);
      node.addEventListener("click", () => ctx.play(move));
      node.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); ctx.play(move); }
      });
    } else {
      node.classList.add("move-disabled");
    }
    if (ctx.hint === move) node.classList.add("hinted");
    return node;
  }

  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

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

  return {
    register(name, view) { views[name] = view; },
    get(name) { return views[name] || fallback; },
    el, svg, moveTarget, sleep,
  };
})();
