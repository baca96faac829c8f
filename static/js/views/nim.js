/* Nim: piles of sticks. Clicking a stick takes it and every stick to its right. */
"use strict";
import { ArcadeViews } from "../views.js";
(function () {
  const { el, moveTarget } = ArcadeViews;

  ArcadeViews.register("nim", {
    moveWords(move) {
      const [pile, take] = move.split(":");
      return `take ${take} from pile ${pile}`;
    },
    render(root, state, ctx) {
      const legal = new Set(state.legal_moves);
      const piles = state.board.piles;
      const rule = el("p", { class: "nim-rule",
        text: state.board.misere ? "Misère: whoever takes the last stick loses."
                                 : "Normal play: whoever takes the last stick wins." });
      const rows = piles.map((count, i) => {
        const pile = i + 1;
        const sticks = [];
        for (let j = 0; j < count; j++) {
          const take = count - j; // clicking stick j takes it and the ones to its right
          const move = `${pile}:${take}`;
          const stick = el("span", { class: "nim-stick", title: `take ${take} from pile ${pile}` });
          moveTarget(stick, move, ctx, legal.has(move), { label: `take ${take} from pile ${pile}` });
          stick.addEventListener("mouseenter", () => mark(row, j, true));
          stick.addEventListener("mouseleave", () => mark(row, j, false));
          // the keyboard's focus shows the sticks its move takes, as the pointer does
          stick.addEventListener("focus", () => mark(row, j, true));
          stick.addEventListener("blur", () => mark(row, j, false));
          sticks.push(stick);
        }
        if (ctx.hint && ctx.hint.startsWith(pile + ":")) {
          const n = parseInt(ctx.hint.split(":")[1], 10);
          sticks.slice(count - n).forEach((s) => s.classList.add("hint-take"));
        }
        const row = el("div", { class: "nim-pile", dataset: { pile: String(pile) } },
          el("span", { class: "nim-label", text: `Pile ${pile}` }),
          el("span", { class: "nim-sticks" }, ...sticks),
          el("span", { class: "nim-count", text: String(count) }));
        return row;
      });
      root.replaceChildren(rule, el("div", { class: "nim-piles" }, ...rows));
      const last = state.history[state.history.length - 1];
      if (last && ctx.previous && ctx.speed > 0) flashTaken(root, last.move, ctx.previous.board.piles);
    },
  });

  function mark(row, j, on) {
    row.querySelectorAll(".nim-stick").forEach((s, k) => s.classList.toggle("to-take", on && k >= j));
  }

  /** Show the sticks just taken fading out where they were. */
  function flashTaken(root, move, before) {
    const [p, k] = move.split(":").map(Number);
    const row = root.querySelector(`.nim-pile[data-pile="${p}"] .nim-sticks`);
    if (!row || before[p - 1] == null) return;
    for (let i = 0; i < k; i++) row.append(el("span", { class: "nim-stick taken", "aria-hidden": "true" }));
  }
})();
