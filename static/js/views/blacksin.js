/* Blacksin: a card table. Two hands race to the target without going over it; each side
 * draws the top card, stops for good, or spends an erase on the last card of a hand.
 *
 * The table: the other side's hand at the top, this page's own at the bottom (seat 0 for a
 * spectator), the deck and the target between them. Open variant: the deck lies face up, top
 * card first and marked "next". Hidden variant: a face-down stack with its count and the
 * unseen cards as a sorted set; the state this view gets holds no order and none is shown.
 * Below the table, the four moves as big buttons, each saying what it would do.
 *
 * Animations (from the history entries' `details`, see Blacksin.move_details): the deal at
 * the start, a drawn card flying from the deck to its hand, an erased card crossed out and
 * fading. The real table is always drawn first; animations only move or add copies on it,
 * and they resume where they were when the page re-renders the same position. */
"use strict";
import { ArcadeViews } from "../views.js";
(function () {
  const { cap } = ArcadeViews;
  const { el, moveTarget } = ArcadeViews;

  const FLY = 430, FADE = 560, POP = 380, DEAL_STEP = 170;  // ms at speed 1

  const MOVES = [
    ["draw", "Draw"],
    ["stop", "Stop"],
    ["erase_self", "Erase my last card"],
    ["erase_opponent", "Erase their last card"],
  ];

  // Animation bookkeeping that survives re-renders ("AI thinking" and hint pushes re-render
  // the same position): when each event started, so a new render resumes it.
  let timeline = { game: null, lastPly: null, starts: new Map(), busyUntil: 0 };

  ArcadeViews.register("blacksin", {
    moveWords(move) {
      return { draw: "draw a card", stop: "stop", erase_self: "erase own last card",
               erase_opponent: "erase the other's last card" }[move] || move;
    },
    render(root, state, ctx) {
      const b = state.board;
      const over = state.status !== "playing";
      const mover = over ? null : state.to_move;
      const bottom = ctx.seat === 1 ? 1 : 0;  // this page's own hand is nearest to it
      const winner = over && state.result ? state.result.winner : undefined;

      const table = el("div", { class: "bs-table", "data-testid": "bs-table",
        dataset: { hidden: String(!!b.hidden), over: String(over) } },
        sideArea(state, ctx, 1 - bottom, "top", mover, winner),
        middle(state, over),
        sideArea(state, ctx, bottom, "bottom", mover, winner));
      root.replaceChildren(el("div", { class: "bs" },
        table,
        over ? null : moveButtons(state, ctx, mover),
        lastMoveLine(state),
        legend(state)));
      root.querySelectorAll(".bs-fan, .bs-hand").forEach(fitRows);
      animate(root, state, ctx);
    },
  });

  /** A row of card slots that would not fit even overlapped as far as it may (numbers still
   * readable) is split into as many rows as it needs. */
  function fitRows(row) {
    const slots = [...row.children].filter((c) => c.classList.contains("bs-slot"));
    const width = row.clientWidth;
    if (slots.length < 2 || !width) return;
    const step = parseFloat(getComputedStyle(slots[0]).minWidth) || 0;
    const card = slots[slots.length - 1].getBoundingClientRect().width;
    const rows = Math.ceil(((slots.length - 1) * step + card) / width);
    if (rows < 2) return;
    const per = Math.ceil(slots.length / rows);
    const lines = [];
    for (let i = 0; i < slots.length; i += per) lines.push(el("div", { class: "bs-row" }, ...slots.slice(i, i + per)));
    row.classList.add("split");
    row.replaceChildren(...lines);
  }

  // ----- the table -----------------------------------------------------------------------
  function card(value, extra) {
    return el("div", { class: "bs-card" + (extra ? " " + extra : ""), dataset: { card: String(value) } },
      el("span", { class: "bs-corner", "aria-hidden": "true", text: String(value) }),
      el("span", { class: "bs-value", text: String(value) }));
  }

  /** Cards in slots that shrink when space runs short, so a long row overlaps like a fan. */
  function fan(cards, attrs) {
    return el("div", attrs, ...cards.map((c) => el("div", { class: "bs-slot" }, c)));
  }

  function sideArea(state, ctx, seat, where, mover, winner) {
    const b = state.board;
    const name = cap(state.sides[seat]);
    const sum = b.sums[seat], margin = b.margins[seat];
    const bust = margin < 0;
    const cls = ["bs-side", `seat-${seat}`, where];
    if (mover === seat) cls.push("to-move");
    if (b.stopped[seat]) cls.push("stopped");
    if (bust) cls.push("bust");
    if (winner !== undefined) cls.push(winner === seat ? "winner" : winner == null ? "drawn" : "loser");

    const badges = [];
    if (mover === seat) badges.push(el("span", { class: "bs-badge to-move", text: "to move" }));
    if (b.stopped[seat]) badges.push(el("span", { class: "bs-badge stopped", "data-testid": `stopped-${seat}`, text: "stopped" }));
    if (bust) badges.push(el("span", { class: "bs-badge bust", text: "bust" }));
    if (winner !== undefined) {
      badges.push(winner === seat ? el("span", { class: "bs-badge win", text: "wins" })
        : winner == null ? el("span", { class: "bs-badge draw", text: "draw" }) : null);
    }

    const total = Math.floor(b.deck_count / 5);
    const left = b.erases[seat];
    const tokens = [];
    for (let i = 0; i < Math.max(total, left); i++) {
      tokens.push(el("span", { class: "bs-token" + (i < left ? " left" : " used"), "aria-hidden": "true" }));
    }
    const erases = el("div", { class: "bs-erases", "data-testid": `erases-${seat}`, dataset: { left: String(left) },
      title: `${left} of ${total} erases left` + (b.stopped[seat] && left ? " (unusable: stopped)" : "") },
      el("span", { class: "bs-erases-label", text: "erases" }), ...tokens,
      el("span", { class: "bs-erases-count", text: String(left) }));

    const last = state.history[state.history.length - 1];
    const lastDrawn = last && last.details && last.details.to === seat ? last.details.card : null;
    const cards = b.hands[seat].map((v, i, all) =>
      card(v, i === all.length - 1 && v === lastDrawn ? "last" : null));
    const hand = fan(cards, { class: "bs-hand" + (cards.length > 5 ? " many" : ""), "data-testid": `hand-${seat}`, dataset: { seat: String(seat) },
      "aria-label": `${name}'s hand: ${b.hands[seat].join(", ") || "empty"}` });
    if (!cards.length) hand.append(el("span", { class: "bs-empty", text: "no cards" }));

    const score = el("div", { class: "bs-score" },
      el("div", { class: "bs-sum-line" },
        el("span", { class: "bs-sum-label", text: "sum" }),
        el("span", { class: "bs-sum", "data-testid": `sum-${seat}`, text: String(sum) }),
        el("span", { class: "bs-of", text: `/ ${b.target}` })),
      el("div", { class: "bs-margin" + (bust ? " bust" : ""), "data-testid": `margin-${seat}`,
        dataset: { margin: String(margin) },
        text: bust ? `bust by ${-margin}` : margin === 0 ? "on target!" : `margin ${margin}` }),
      meter(b, sum));

    return el("section", { class: cls.join(" "), "data-testid": `side-${seat}`, dataset: { seat: String(seat) } },
      el("header", { class: "bs-side-head" },
        el("span", { class: `bs-name seat-${seat}`, text: name }),
        ctx.seat === seat ? el("span", { class: "bs-you", text: "you" }) : null,
        ...badges.filter(Boolean), erases),
      el("div", { class: "bs-side-body" }, hand, score));
  }

  /** Sum against the target on a common scale: the target line, red beyond it. */
  function meter(b, sum) {
    const scale = Math.max(b.target * 1.25, ...b.sums);
    const pct = (x) => `${(100 * Math.min(x, scale) / scale).toFixed(1)}%`;
    const fill = Math.min(sum, b.target), over = Math.max(0, sum - b.target);
    return el("div", { class: "bs-meter", "aria-hidden": "true" },
      el("span", { class: "bs-meter-fill", style: `width: ${pct(fill)}` }),
      el("span", { class: "bs-meter-over", style: `left: ${pct(b.target)}; width: ${pct(over)}` }),
      el("span", { class: "bs-meter-target", style: `left: ${pct(b.target)}` }));
  }

  function middle(state, over) {
    const b = state.board;
    const target = el("div", { class: "bs-target", "data-testid": "target" },
      el("span", { class: "bs-target-label", text: "target" }),
      el("span", { class: "bs-target-value", text: String(b.target) }),
      el("span", { class: "bs-target-help", text: "closest without going over wins" }));
    return el("div", { class: "bs-middle" },
      over ? verdict(state) : null,
      el("div", { class: "bs-middle-row" }, b.hidden ? hiddenDeck(b) : openDeck(b, over), target));
  }

  function openDeck(b, over) {
    const deck = b.deck || [];
    const head = el("div", { class: "bs-deck-head" },
      el("span", { class: "bs-deck-title", text: "Deck, face up" }),
      el("span", { class: "bs-deck-count", "data-testid": "deck-count", text: `${deck.length} card${deck.length === 1 ? "" : "s"} left` + (over ? ", never drawn" : " · top first") }));
    if (!deck.length) {
      return el("div", { class: "bs-deck open empty", "data-testid": "deck" }, head,
        el("div", { class: "bs-deck-empty", text: "the deck is empty: no more draws" }));
    }
    const next = over ? el("div", { class: "bs-next-wrap" }, el("span", { class: "bs-next-tag off", text: "left over" }), card(deck[0]))
      : el("div", { class: "bs-next-wrap" }, el("span", { class: "bs-next-tag", text: "next" }), card(deck[0], "bs-next"));
    const rest = fan(deck.slice(1).map((v) => card(v)), { class: "bs-fan" });
    return el("div", { class: "bs-deck open", "data-testid": "deck" }, head,
      el("div", { class: "bs-deck-row" }, next, rest));
  }

  function hiddenDeck(b) {
    const n = b.deck_size;
    const backs = [];
    for (let i = 0; i < Math.min(n, 4); i++) backs.push(el("div", { class: "bs-back", style: `--i: ${i}` }));
    const stack = el("div", { class: "bs-stack" + (n ? "" : " empty"), title: "face down: the order is hidden" },
      ...backs, el("span", { class: "bs-stack-count", "data-testid": "deck-count", text: String(n) }));
    const chips = b.unseen.map((v) => el("span", { class: "bs-chip", text: String(v) }));
    return el("div", { class: "bs-deck hidden", "data-testid": "deck" },
      el("div", { class: "bs-deck-head" },
        el("span", { class: "bs-deck-title", text: "Deck, face down" }),
        el("span", { class: "bs-deck-count-text", text: `${n} card${n === 1 ? "" : "s"} left, order unknown` })),
      el("div", { class: "bs-deck-row" }, stack,
        el("div", { class: "bs-unseen-box" },
          el("span", { class: "bs-unseen-label", text: "unseen cards (a set, any order):" }),
          el("div", { class: "bs-unseen", "data-testid": "unseen" }, ...chips))));
  }

  function verdict(state) {
    const b = state.board, r = state.result || {};
    const w = r.winner;
    const headline = w == null ? "Draw" : `${cap(state.sides[w])} wins`;
    const reason = String(r.reason || "");
    const why = reason.includes("): ") ? reason.split("): ").slice(1).join("): ") : reason;
    const sums = [0, 1].map((s) => el("span", { class: `bs-final seat-${s}` + (b.margins[s] < 0 ? " bust" : "") },
      `${cap(state.sides[s])} `, el("strong", { text: String(b.sums[s]) }),
      b.margins[s] < 0 ? ` (bust by ${-b.margins[s]})` : ` (margin ${b.margins[s]})`));
    return el("div", { class: `bs-verdict winner-${w == null ? "none" : w}`, "data-testid": "verdict",
      dataset: { winner: w == null ? "draw" : String(w) } },
      el("div", { class: "bs-verdict-head", text: headline }),
      el("div", { class: "bs-verdict-sums" }, sums[0], el("span", { class: "bs-vs", text: "vs" }), sums[1],
        el("span", { class: "bs-vs", text: `target ${b.target}` })),
      el("div", { class: "bs-verdict-why", "data-testid": "verdict-reason", text: cap(why) + "." }));
  }

  // ----- the moves -----------------------------------------------------------------------
  function moveButtons(state, ctx, mover) {
    const legal = new Set(state.legal_moves);
    const buttons = MOVES.map(([move, label]) => {
      const enabled = legal.has(move) && ctx.canMove;
      const what = describe(state, ctx, mover, move, legal.has(move));
      // (on the other side's turn the buttons say what that side may do, not "my")
      const words = ctx.seat === mover ? label : cap(ArcadeViews.moveWords("blacksin", move));
      const button = el("button", { type: "button", class: `bs-move bs-move-${move}`, title: what },
        el("span", { class: "bs-move-label", text: words }),
        el("span", { class: "bs-move-what", text: what }));
      moveTarget(button, move, ctx, legal.has(move));
      if (!enabled) button.disabled = true;
      return button;
    });
    return el("div", { class: "bs-moves", "data-testid": "bs-moves", role: "group",
      "aria-label": ctx.seat === mover ? "your moves" : `${cap(state.sides[mover])}'s moves` }, ...buttons);
  }

  /** What a move would do, for the side to move, in a few words. */
  function describe(state, ctx, mover, move, legal) {
    const b = state.board;
    const me = mover, them = 1 - mover;
    const mine = ctx.seat === me ? "your" : `${state.sides[me]}'s`;
    const sum = b.sums[me];
    const after = (s) => (s > b.target ? `${s}, bust` : `${s}`);
    if (move === "draw") {
      if (!legal) return "the deck is empty";
      if (!b.hidden) return `next card ${b.deck[0]} → sum ${after(sum + b.deck[0])}`;
      const busting = b.unseen.filter((v) => sum + v > b.target).length;
      return `an unseen card · ${busting} of ${b.unseen.length} would bust`;
    }
    if (move === "stop") return `keep sum ${sum}` + (sum > b.target ? " (bust)" : ` for good`);
    const owner = move === "erase_self" ? me : them;
    const hand = b.hands[owner];
    if (!b.erases[me]) return "no erases left";
    if (!hand.length) return "no card to erase";
    const whose = move === "erase_self" ? mine : ctx.seat === them ? "your" : `${state.sides[them]}'s`;
    const card = hand[hand.length - 1];
    return `remove ${whose} ${card} → ${after(b.sums[owner] - card)}`;
  }

  function lastMoveLine(state) {
    const h = state.history[state.history.length - 1];
    if (!h) return el("p", { class: "bs-last", "data-testid": "bs-last", text: "Dealt: player, opponent, player, opponent." });
    const who = cap(state.sides[h.seat]);
    const d = h.details || {};
    let text;
    if (h.move === "draw") text = `${who} drew ${d.card ?? "a card"}.`;
    else if (h.move === "stop") text = `${who} stopped.`;
    else if (h.move === "erase_self") text = `${who} erased their own ${d.card ?? "last card"}.`;
    else text = `${who} erased ${state.sides[1 - h.seat]}'s ${d.card ?? "last card"}.`;
    return el("p", { class: `bs-last seat-${h.seat}`, "data-testid": "bs-last" }, el("span", { text: "Last move: " }), text);
  }

  function legend(state) {
    const item = (sample, text) => el("span", { class: "bs-legend-item" }, sample, text);
    return el("div", { class: "bs-legend", "data-testid": "bs-legend" },
      item(el("span", { class: "bs-swatch seat-0" }), `${cap(state.sides[0])} (moves first)`),
      item(el("span", { class: "bs-swatch seat-1" }), cap(state.sides[1])),
      item(el("span", { class: "bs-token left" }), "erase left"),
      item(el("span", { class: "bs-token used" }), "erase used"),
      item(el("span", { class: "bs-swatch bust" }), "bust: over the target"),
      item(el("span", { class: "bs-swatch hint" }), "hint"),
      el("span", { class: "bs-legend-item", text: "margin = target − sum" }));
  }

  // ----- animation -----------------------------------------------------------------------
  function animate(root, state, ctx) {
    if (timeline.game !== state.id || (timeline.lastPly != null && state.ply < timeline.lastPly)) {
      timeline = { game: state.id, lastPly: null, starts: new Map(), busyUntil: 0 };  // new game or restart
    }
    const firstAtDeal = state.ply === 0 && timeline.lastPly !== 0;
    timeline.lastPly = state.ply;
    if (!(ctx.speed > 0)) return;
    const now = performance.now();
    const events = [];
    // The deal at the start; then each ply new since the previous state, and any ply whose
    // animation is still running (the AI answering at once must not cut the player's draw).
    if (state.ply === 0 && firstAtDeal) timeline.starts.delete("deal");
    if (state.ply === 0 || timeline.starts.has("deal")) {
      events.push({ id: "deal", duration: 3 * DEAL_STEP + FLY, run: (delay, k) => deal(root, state, delay, k) });
    }
    for (const h of state.history.slice(-6)) {
      const id = `p${h.ply}`;
      if (!timeline.starts.has(id) && !(ctx.previous && h.ply > ctx.previous.ply)) continue;
      const d = h.details;
      if (h.move === "draw" && d) events.push({ id, duration: FLY, run: (delay, k) => fly(root, d, delay, k) });
      else if (d && d.from != null) events.push({ id, duration: FADE, run: (delay, k) => erase(root, d, delay, k) });
      else if (h.move === "stop") events.push({ id, duration: POP, run: (delay, k) => pop(root, h.seat, delay, k) });
    }
    const k = 1 / ctx.speed;
    for (const ev of events) {
      const duration = ev.duration * k;
      let start = timeline.starts.get(ev.id);
      if (start == null) {  // queue it after whatever is still playing
        start = Math.max(now, timeline.busyUntil);
        timeline.starts.set(ev.id, start);
        timeline.busyUntil = start + duration;
      }
      if (now - start < duration) ev.run(start - now, k);
    }
  }

  function canAnimate(node) { return node && typeof node.animate === "function"; }

  function deckSource(root) {
    return root.querySelector(".bs-next") || root.querySelector(".bs-stack") || root.querySelector("[data-testid=deck]");
  }

  /** A card flies from the deck to its place; before its turn it is not shown. */
  function flyFrom(node, source, delay, duration) {
    if (!canAnimate(node) || !source) return;
    const a = source.getBoundingClientRect(), b = node.getBoundingClientRect();
    const dx = a.left + a.width / 2 - (b.left + b.width / 2), dy = a.top + a.height / 2 - (b.top + b.height / 2);
    node.classList.add("bs-flying");
    const anim = node.animate([
      { transform: `translate(${dx}px, ${dy}px) rotate(-6deg)`, opacity: 0 },
      { transform: `translate(${dx}px, ${dy}px) rotate(-6deg)`, opacity: 1, offset: 0.12 },
      { transform: "none", opacity: 1 },
    ], { duration, delay, easing: "cubic-bezier(.25,.7,.3,1)", fill: "backwards" });
    anim.onfinish = () => node.classList.remove("bs-flying");
  }

  function handCard(root, seat, value) {
    const cards = root.querySelectorAll(`.bs-hand[data-seat="${seat}"] .bs-card[data-card="${value}"]`);
    return cards[cards.length - 1] || null;
  }

  function deal(root, state, delay, k) {
    const hands = state.board.hands;
    const order = [[0, 0], [1, 0], [0, 1], [1, 1]];  // player, opponent, player, opponent
    const source = deckSource(root);
    order.forEach(([seat, i], n) => {
      if (hands[seat][i] == null) return;
      flyFrom(handCard(root, seat, hands[seat][i]), source, delay + n * DEAL_STEP * k, FLY * k);
    });
  }

  function fly(root, d, delay, k) {
    flyFrom(handCard(root, d.to, d.card), deckSource(root), delay, FLY * k);
  }

  /** The erased card, back at the end of its hand, crossed out and fading away. */
  function erase(root, d, delay, k) {
    const hand = root.querySelector(`.bs-hand[data-seat="${d.from}"]`);
    if (!hand || typeof Element.prototype.animate !== "function") return;
    const ghost = el("div", { class: "bs-card bs-ghost", "aria-hidden": "true" },
      el("span", { class: "bs-corner", text: String(d.card) }),
      el("span", { class: "bs-value", text: String(d.card) }));
    const slot = el("div", { class: "bs-slot bs-ghost-slot" }, ghost);
    const empty = hand.querySelector(".bs-empty");
    if (empty) empty.remove();
    (hand.classList.contains("split") ? hand.lastElementChild : hand).append(slot);
    const anim = ghost.animate([
      { opacity: 1, transform: "none" },
      { opacity: 1, transform: "none", offset: 0.45 },
      { opacity: 0, transform: "translateY(-14px) scale(.9)" },
    ], { duration: FADE * k, delay, easing: "ease-in", fill: "both" });
    anim.onfinish = () => { slot.remove(); if (empty && !hand.querySelector(".bs-slot")) hand.append(empty); };
  }

  function pop(root, seat, delay, k) {
    const badge = root.querySelector(`[data-testid="stopped-${seat}"]`);
    if (!canAnimate(badge)) return;
    badge.animate([{ transform: "scale(1.6)", opacity: 0 }, { transform: "scale(1)", opacity: 1 }],
      { duration: POP * k, delay, easing: "cubic-bezier(.3,1.6,.5,1)", fill: "backwards" });
  }

})();
