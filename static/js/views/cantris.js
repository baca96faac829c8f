/* Cantris: a grid of valued tiles. Clicking a tile removes it: the mover scores its value,
 * the tiles above fall, then every row of three or more equal tiles clears and scores too
 * (a chain). The last move is replayed step by step from `board.last_move`: the removed tile
 * pops with "+value", the tiles above fall, each cleared run flashes with "+points", falls.
 *
 * The real board (state.board.cells, with the move targets) is always drawn; an animation is
 * an overlay of copies on top of it that is removed when it ends, so whatever arrives
 * mid-animation the page ends on the real board. */
"use strict";
import { ArcadeViews } from "../views.js";
(function () {
  const { el, moveTarget, sleep } = ArcadeViews;

  // Durations in ms at speed 1: a removal ≈ 0.5 s, each chain step ≈ 0.6 s more.
  const POP = 300, FLASH = 400, FALL = 210, REST = 40;

  // One animation at a time: {game, ply, queue: [last_move...], done}. It survives re-renders
  // of the same position ("AI thinking" and hint pushes re-render right after a move: the grid
  // element and its overlay are kept, only their contents are redrawn) and queues the next ply
  // when it arrives mid-animation (the AI answering at once).
  let anim = null;

  ArcadeViews.register("cantris", {
    moveWords(move) {  // notation counts from 0, people from 1
      const [r, c] = move.split(",").map(Number);
      return `row ${r + 1}, column ${c + 1}`;
    },
    render(root, state, ctx) {
      const b = state.board;
      const over = state.status !== "playing";
      updateAnimation(state, ctx);

      let view = root.firstElementChild;
      if (!view || !view.classList.contains("cantris") || view.dataset.game !== state.id) {
        view = el("div", { class: "cantris", dataset: { game: state.id } },
          el("div", { class: "cantris-stage" },
            el("div", { class: "cantris-grid", "data-testid": "cantris-grid", role: "group" })),
          el("div", { class: "cantris-side" }));
        root.replaceChildren(view);
      }
      view.setAttribute("style", `--rows: ${b.rows}; --cols: ${b.cols};`);
      const grid = view.querySelector(".cantris-grid");
      drawGrid(grid, state, ctx, over);
      view.querySelector(".cantris-side").replaceChildren(...[
        over ? resultBanner(state) : null,
        scoreCard(state, ctx, 0), scoreCard(state, ctx, 1), over ? null : turnBox(state, ctx),
        lastMoveLine(state), legend(b)].filter(Boolean));

      const overlay = grid.querySelector(".cantris-anim");
      if (overlay && overlay.run !== anim) overlay.stop();  // an animation of another position
      if (anim && !anim.done && !anim.running) runAnimation(grid, b, ctx.speed, anim, ctx.settled);
      const animating = !!(anim && !anim.done);
      grid.classList.toggle("animating", animating);
      grid.dataset.animating = String(animating);
    },
  });

  // ----- the board -----------------------------------------------------------------------
  /** Redraw the real board in `grid`, leaving a running animation's overlay in place (moving
   * it would restart its CSS animations). */
  function drawGrid(grid, state, ctx, over) {
    const b = state.board;
    const legal = new Set(state.legal_moves);
    const overlay = grid.querySelector(".cantris-anim");
    for (const child of [...grid.children]) if (child !== overlay) child.remove();
    grid.setAttribute("aria-label", `Cantris board, ${b.rows} rows by ${b.cols} columns`);
    const nodes = [];
    for (let r = 0; r < b.rows; r++) {
      for (let c = 0; c < b.cols; c++) nodes.push(el("div", { class: "cantris-slot", style: pos(r, c) }));
    }
    if (over) {  // the column(s) whose emptying ended the game
      for (let c = 0; c < b.cols; c++) {
        if (b.cells[b.rows - 1][c] === 0) {
          nodes.push(el("div", { class: "cantris-empty-col", "data-testid": "cantris-empty-col",
            dataset: { col: String(c) }, style: `--c: ${c};` }, el("span", { text: "empty" })));
        }
      }
    }
    const tiles = [];
    for (let r = 0; r < b.rows; r++) {
      for (let c = 0; c < b.cols; c++) {
        const v = b.cells[r][c];
        if (!v) continue;
        const move = `${r},${c}`;
        const tile = tileNode(v, r, c);
        tile.classList.add("real");
        tile.dataset.cell = move;
        tile.title = `${move}: tile ${v}`;
        moveTarget(tile, move, ctx, legal.has(move),
          { label: `${v}: remove the tile in row ${r + 1}, column ${c + 1} (+${v})` });
        if (ctx.canMove && legal.has(move)) {
          tile.title = `remove ${move}: +${v}`;
          tile.addEventListener("mouseenter", () => preview(tiles, r, c, true));
          tile.addEventListener("mouseleave", () => preview(tiles, r, c, false));
          tile.addEventListener("focus", () => preview(tiles, r, c, true));
          tile.addEventListener("blur", () => preview(tiles, r, c, false));
        }
        tiles.push(tile);
        nodes.push(tile);
      }
    }
    if (overlay) overlay.before(...nodes);
    else grid.append(...nodes);
  }

  function pos(r, c) { return `--r: ${r}; --c: ${c};`; }

  function tileNode(v, r, c) {
    return el("div", { class: `cantris-tile v-${v}`, style: pos(r, c), dataset: { value: String(v) } },
      el("span", { class: "cantris-digit", text: String(v) }));
  }

  /** Hovering a tile: that tile is removed, the tiles above it fall one place. */
  function preview(tiles, r, c, on) {
    for (const t of tiles) {
      const [tr, tc] = t.dataset.cell.split(",").map(Number);
      t.classList.toggle("to-remove", on && tr === r && tc === c);
      t.classList.toggle("will-fall", on && tc === c && tr < r);
    }
  }

  // ----- beside the board ----------------------------------------------------------------
  function scoreCard(state, ctx, seat) {
    const b = state.board;
    const side = state.sides[seat];
    const toMove = state.status === "playing" && state.to_move === seat;
    const won = state.result && state.result.winner === seat;
    const cls = ["cantris-score", `seat-${seat}`];
    if (toMove) cls.push("to-move");
    if (won) cls.push("winner");
    let note = "";
    if (won) note = "wins";
    else if (toMove) note = b.removals_per_turn > 1 ? `to move · removal ${removalNumber(b)} of ${b.removals_per_turn}` : "to move";
    return el("div", { class: cls.join(" "), "data-testid": `cantris-score-${seat}` },
      el("div", { class: "cantris-score-side" }, el("span", { class: `seat-dot seat-${seat}` }),
        `${side}${ctx.seat === seat ? " (you)" : ""}`),
      el("div", { class: "cantris-score-value", "data-testid": `cantris-score-value-${seat}`, text: String(b.scores[seat]) }),
      el("div", { class: "cantris-score-note", text: note }));
  }

  function removalNumber(b) { return b.removals_per_turn - b.removals_left + 1; }

  /** Whose turn, and on 10x5 which of the turn's two removals this is. */
  function turnBox(state, ctx) {
    const b = state.board;
    const box = el("div", { class: "cantris-turn", "data-testid": "cantris-turn" });
    const seat = state.to_move;
    const side = state.sides[seat];
    const other = state.sides[1 - seat];
    box.classList.add(`seat-${seat}`);
    const you = ctx.seat === seat ? " (you)" : "";
    if (b.removals_per_turn > 1) {
      const n = removalNumber(b);
      box.append(
        el("div", { class: "cantris-turn-main", "data-testid": "cantris-turn-main" },
          `${side}${you}: `, el("span", { class: "nowrap", text: `removal ${n} of ${b.removals_per_turn}` })),
        el("div", { class: "cantris-pips", "aria-hidden": "true" },
          ...Array.from({ length: b.removals_per_turn }, (_, i) =>
            el("span", { class: "cantris-pip" + (i < n - 1 ? " used" : i === n - 1 ? " now" : "") }))),
        el("div", { class: "cantris-turn-sub",
          text: b.removals_left > 1 ? `${b.removals_left} removals left in this turn`
                                    : `1 removal left in this turn, then ${other}` }));
    } else {
      box.append(el("div", { class: "cantris-turn-main", "data-testid": "cantris-turn-main", text: `${side}${you} to move` }),
        el("div", { class: "cantris-turn-sub", text: `one removal, then ${other}` }));
    }
    return box;
  }

  /** "A removed 3,2: +3, chain +9 = 12". */
  function lastMoveLine(state) {
    const lm = state.board.last_move;
    if (!lm) return null;
    const [first, ...chain] = lm.steps;
    const side = state.sides[lm.seat];
    let text = `${side} removed ${lm.move}: +${first.points}`;
    if (chain.length) {
      text += `, chain ${chain.map((s) => `+${s.points}`).join(" ")} = ${lm.points}`;
    }
    return el("div", { class: `cantris-last seat-${lm.seat}`, "data-testid": "cantris-last" },
      el("span", { class: "cantris-last-label", text: "Last move" }), text);
  }

  function legend(b) {
    const swatches = Array.from({ length: b.cols }, (_, i) =>
      el("span", { class: `cantris-swatch v-${i + 1}`, text: String(i + 1) }));
    return el("div", { class: "cantris-legend", "data-testid": "cantris-legend" },
      el("p", { text: "Remove a tile: you score its value; rows of 3+ equal tiles then clear and score too." }),
      b.removals_per_turn > 1 ? el("p", { class: "cantris-order" }, "Two removals a turn: ", el("span", { text: "A A B B A A …" })) : null,
      el("p", { text: "The game ends as soon as a column is empty; the higher score wins." }),
      el("p", { class: "cantris-legend-keys" }, el("span", { class: "cantris-swatches" }, ...swatches),
        el("span", { class: "cantris-key-hint", text: "hint" })));
  }

  function resultBanner(state) {
    const r = state.result || {};
    const ended = state.board.cells[state.board.rows - 1].includes(0);  // not abandoned
    const head = r.winner != null ? `${state.sides[r.winner]} wins` : ended ? "Draw" : "Game over";
    return el("div", { class: `cantris-result${r.winner != null ? ` seat-${r.winner}` : ""}`, "data-testid": "cantris-result" },
      el("span", { class: "cantris-result-label", text: "Game over" }),
      el("strong", { text: head }), el("span", { text: r.reason || "" }));
  }

  // ----- the animation -------------------------------------------------------------------
  function updateAnimation(state, ctx) {
    const id = state.id, ply = state.ply;
    if (anim && anim.game === id && anim.ply === ply) return;  // a re-render: carry on
    const lm = state.board.last_move;
    if (!(lm && ctx.previous && ctx.speed > 0)) {
      anim = { game: id, ply, queue: [], done: true };
    } else if (anim && !anim.done && anim.game === id && ply === anim.ply + 1) {
      anim.queue.push(lm);  // the next move arrived mid-animation: play it next
      anim.ply = ply;
      if (anim.queue.length > 3) anim.queue.splice(1, 1);  // never fall far behind
    } else {
      anim = { game: id, ply, queue: [lm], done: false };
    }
  }

  /** Play the queued moves of `run` on an overlay of tiles over the (hidden) real board. Each
   * step of a move (the removal, then each clear) flashes with its points, then the tiles
   * above fall. Clicking the overlay skips to the end; `settled` is called at the end. */
  async function runAnimation(grid, b, speed, run, settled) {
    run.running = true;
    const overlay = el("div", { class: "cantris-anim", "aria-hidden": "true", title: "click to skip" });
    let stopped = false;
    overlay.run = run;
    overlay.stop = () => { stopped = true; overlay.remove(); };
    const alive = () => !stopped && anim === run && overlay.isConnected;
    const finish = () => {
      if (!alive()) return;
      overlay.stop();
      run.done = true;
      run.queue = [];
      grid.classList.remove("animating");
      grid.dataset.animating = "false";
      if (settled) settled();  // the page's status may now say "Your move"
    };
    overlay.addEventListener("click", finish);
    grid.append(overlay);
    while (run.queue.length) {
      const lm = run.queue[0];
      const k = speed * (run.queue.length > 1 ? 1.6 : 1);  // catch up when moves are waiting
      overlay.style.setProperty("--fall", `${FALL / k}ms`);
      overlay.style.setProperty("--flash", `${FLASH / k}ms`);
      overlay.style.setProperty("--pop", `${POP / k}ms`);
      let cells = lm.before;
      let tiles = placeTiles(overlay, cells, b.rows, b.cols);
      for (const [i, step] of lm.steps.entries()) {
        const removal = i === 0;
        for (const [r, c] of step.cleared) tiles[r][c].classList.add(removal ? "popping" : "clearing");
        for (const group of runs(step.cleared, cells)) {
          overlay.append(el("div", { class: `cantris-gain${removal ? "" : " chain"}`,
            style: `--r: ${group.r}; --x: ${group.x};`, text: `+${group.points}` }));
        }
        await sleep((removal ? POP : FLASH) / k);
        if (!alive()) return;
        tiles = fall(tiles, step.cleared, b.rows, b.cols);
        cells = step.after;
        await sleep((FALL + REST) / k);
        if (!alive()) return;
      }
      run.queue.shift();
    }
    finish();
  }

  /** Copies of the tiles of `cells` on the overlay: tiles[r][c] -> node or null. */
  function placeTiles(overlay, cells, rows, cols) {
    overlay.replaceChildren();
    const tiles = [];
    for (let r = 0; r < rows; r++) {
      tiles.push([]);
      for (let c = 0; c < cols; c++) {
        const v = cells[r][c];
        const node = v ? tileNode(v, r, c) : null;
        if (node) overlay.append(node);
        tiles[r].push(node);
      }
    }
    return tiles;
  }

  /** Remove the cleared tiles and move the others down to rest on each other. */
  function fall(tiles, cleared, rows, cols) {
    const gone = new Set(cleared.map(([r, c]) => `${r},${c}`));
    const next = Array.from({ length: rows }, () => Array(cols).fill(null));
    for (let c = 0; c < cols; c++) {
      let to = rows - 1;
      for (let r = rows - 1; r >= 0; r--) {
        const node = tiles[r][c];
        if (!node) continue;
        if (gone.has(`${r},${c}`)) { node.remove(); continue; }
        if (to !== r) { node.style.setProperty("--r", String(to)); node.classList.add("falling"); }
        next[to--][c] = node;
      }
    }
    return next;
  }

  /** The cleared cells as horizontal runs: {r, x (centre column), points}. */
  function runs(cleared, cells) {
    const byRow = new Map();
    for (const [r, c] of cleared) byRow.set(r, [...(byRow.get(r) || []), c]);
    const out = [];
    for (const [r, cs] of byRow) {
      cs.sort((p, q) => p - q);
      let start = 0;
      for (let i = 1; i <= cs.length; i++) {
        if (i === cs.length || cs[i] !== cs[i - 1] + 1) {
          const run = cs.slice(start, i);
          out.push({ r, x: (run[0] + run[run.length - 1] + 1) / 2,
                     points: run.reduce((s, c) => s + cells[r][c], 0) });
          start = i;
        }
      }
    }
    return out;
  }
})();
