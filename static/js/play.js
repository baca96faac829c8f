/* A game's page: joins the game over Socket.IO, renders every pushed state through the
 * game's view, and shows status, seats, the AI's search statistics, the move list and hints. */
"use strict";
import { ArcadeViews } from "./views.js";
import { ClassStudent } from "./class-student.js";
(function () {
  const { cap, fmt } = ArcadeViews;
  const { el } = ArcadeViews;
  const root = document.querySelector(".play");
  const gameId = root.dataset.gameId;
  const view = ArcadeViews.get(root.dataset.game);
  const params = new URLSearchParams(location.search);
  const token = params.get("token") || null;
  // The creator's manage token (kept by the lobby): restart, pause, resume, end the game.
  const manageToken = localStorage.getItem(`arcade.manage.${gameId}`);
  const control = manageToken || token;
  const $ = (id) => document.querySelector(`[data-testid="${id}"]`);

  let state = null;      // newest state shown
  let previous = null;   // the one before it (views animate the difference)
  let mySeat = null;     // set by the server's "joined" answer
  let hint = null;
  let thinking = null;   // the running search as its events told: {seat, agent, version, progress}
  let speed = Number(localStorage.getItem("arcade.speed") || "1");

  // On a phone the player's buttons stay over the bottom of the page (a sticky bar): what the
  // browser brings into view, a focused or tapped move, comes out above them, not under them.
  const actions = document.querySelector(".panel > .actions");
  new ResizeObserver(() => {
    const sticky = getComputedStyle(actions).position === "sticky";
    document.documentElement.style.scrollPaddingBottom = sticky ? `${actions.offsetHeight + 8}px` : "";
  }).observe(actions);

  const socket = io({ transports: ["websocket", "polling"] });
  ClassStudent.onGamePage(socket);  // a class's game: the class's challenges and news come here too

  // A reconnecting client has a new sid and is in no room: join again, get the full state.
  socket.on("connect", () => socket.emit("join", { game_id: gameId, token }));
  socket.on("joined", (msg) => { mySeat = msg.seat; render(); });
  let present = null;    // seats whose holders have the game open (the server says on each join)
  const cameOnce = new Set();  // seats whose holders were here at some point (then left, or not yet)
  socket.on("presence", (msg) => {
    if (msg.game_id !== gameId) return;
    present = msg.seats;
    present.forEach((seat) => cameOnce.add(seat));
    if (state) renderSeats();
  });
  socket.on("state", (s) => {
    if (s.id !== gameId) return;
    if (state && s.version < state.version) return;  // an older push arriving late
    if (state && s.version === state.version && s.ai.thinking === state.ai.thinking) { renderStatus(); return; }
    if (state && s.ply !== state.ply) { previous = state; hint = null; } else if (!state) previous = null;
    // my takeback request answered no: the offer is gone and nothing was taken back
    if (state && state.takeback_offer && state.takeback_offer.seat === mySeat && !s.takeback_offer
        && s.ply === state.ply && s.status === "playing") {
      showError(`${sideName(1 - mySeat, "declined your takeback")}: the game goes on.`);
    }
    // A search's events belong to the version it started on: any change (a move, restart,
    // retry) or a state saying nobody thinks ends what the page shows of it.
    if (!state || s.version !== state.version || s.ai.thinking == null) thinking = null;
    state = s;
    render();
  });
  /** An event of a search that started before the state shown (restart, takeback) is stale. */
  const stale = (msg) => msg.game_id !== gameId || (state && msg.version != null && msg.version < state.version);
  socket.on("ai_thinking", (msg) => {
    if (stale(msg)) return;
    thinking = { seat: msg.seat, agent: msg.agent, version: msg.version, progress: null };
    renderThinking();
    renderStatus();
  });
  socket.on("ai_progress", (msg) => {
    if (stale(msg) || !thinking || thinking.seat !== msg.seat) return;
    thinking.progress = msg;
    renderThinking();
  });
  socket.on("ai_stats", (msg) => {
    if (msg.game_id !== gameId) return;
    thinking = null;
    renderThinking();
  });
  socket.on("hint", (msg) => {
    if (msg.game_id !== gameId) return;
    hint = msg.move;
    const box = $("hint-box");
    box.hidden = false;
    box.replaceChildren(el("strong", { text: "Hint: " }), ...moveShown(msg.move, mySeat),
      el("span", { text: ` (${scoreWords(msg.score_text, msg.score)}, depth ${msg.stats.depth}, ${fmt(msg.stats.nodes)} nodes)` }));
    render();
  });
  socket.on("error", (msg) => showError(msg.message || String(msg)));
  socket.on("disconnect", () => { thinking = null; render(); renderStatus(); });

  function play(move) {
    if (!token) return showError("You are watching: only a seat's holder can move.");
    socket.emit("move", { game_id: gameId, token, move });
  }

  $("hint").addEventListener("click", () => {
    $("hint-box").hidden = false;
    $("hint-box").textContent = "Searching for a hint…";
    socket.emit("hint", { game_id: gameId, token });
  });
  $("restart").addEventListener("click", () => {
    if (confirm("Restart this game from the beginning?")) socket.emit("restart", { game_id: gameId, token: control });
  });
  $("retry-ai").addEventListener("click", () => socket.emit("retry_ai", { game_id: gameId, token: control }));
  // The ply shown rides along: a second click (or another tab) on a game that moved on is stale.
  const takeback = () => socket.emit("takeback", { game_id: gameId, token, ply: state.history.length });
  $("takeback").addEventListener("click", takeback);
  $("takeback-accept").addEventListener("click", takeback);
  $("takeback-decline").addEventListener("click", () => socket.emit("takeback_decline", { game_id: gameId, token }));
  $("step").addEventListener("click", () => socket.emit("step", { game_id: gameId, token: manageToken }));
  $("ai-speed").addEventListener("change", () =>
    socket.emit("ai_speed", { game_id: gameId, token: manageToken, pause: Number($("ai-speed").value) }));
  $("pause").addEventListener("click", () => socket.emit("pause", { game_id: gameId, token: manageToken }));
  $("resume").addEventListener("click", () => socket.emit("resume", { game_id: gameId, token: manageToken }));
  $("delete").addEventListener("click", async () => {
    if (!confirm("End this game for everyone?")) return;
    const res = await fetch(`/api/games/${encodeURIComponent(gameId)}?token=${encodeURIComponent(manageToken)}`, { method: "DELETE" });
    if (!res.ok) showError((await res.json().catch(() => ({}))).error || `The server refused (${res.status}).`);
  });
  $("speed").value = String(speed);
  $("speed").addEventListener("change", () => {
    speed = Number($("speed").value);
    localStorage.setItem("arcade.speed", String(speed));
  });

  // ----- rendering -----------------------------------------------------------------------
  function canMove() {
    return !!(state && token && socket.connected && mySeat !== null && state.status === "playing"
      && state.to_move === mySeat);
  }

  /** The seat whose AI is searching now, or null: the side to move, while the server (its
   * state, or a search's events since) says it thinks. Never a search of an older version. */
  function thinkingSeat() {
    if (!state || state.status !== "playing" || state.ai.error || !socket.connected) return null;
    const seat = thinking ? thinking.seat : state.ai.thinking;
    return seat != null && seat === state.to_move ? seat : null;
  }

  /** A view that is still showing the last move (Cantris' fall and chains) takes no click yet:
   * it marks itself data-animating="true" and calls ctx.settled() when done. */
  function boardBusy() {
    return !!document.querySelector('#board [data-animating="true"]');
  }

  function render() {
    if (!state) return;
    const judged = perfectBoard();  // a finished game with Perfect play on: the board shows the position judged
    const ctx = judged
      ? { seat: mySeat, canMove: false, play, hint: null, previous: null, speed: 0, settled: renderStatus,
          verdicts: boardVerdicts(judged) }
      : { seat: mySeat, canMove: canMove(), play, hint, previous, speed, settled: renderStatus,
          verdicts: boardVerdicts(state) };
    const board = document.getElementById("board");
    const focus = boardFocus(board);
    view.render(board, judged || state, ctx);
    restoreFocus(board, focus);
    renderStatus();
    renderSeats();
    renderStats();
    renderMoves();
    renderThinking();
    $("hint").disabled = !canMove();
    $("restart").disabled = !control;
    $("retry-ai").hidden = !(control && state.ai.error);
    const managing = !!manageToken && state.status === "playing";
    const anyAI = state.seat_info.some((info) => !info.human);  // (pausing stops an AI: none, nothing to pause)
    $("pause").hidden = !managing || !anyAI || state.paused;
    $("resume").hidden = !managing || !anyAI || !state.paused;
    $("delete").hidden = !managing;
    renderTakeback();
    renderInvites();
    const aiVsAi = state.seat_info.every((info) => !info.human);
    $("step").hidden = !managing || !state.paused || state.to_move == null || state.seat_info[state.to_move].human;
    $("ai-speed-box").hidden = !managing || !aiVsAi;
    if (state.ai_pause != null) $("ai-speed").value = String(state.ai_pause);
    if (state.status !== "playing") $("hint-box").hidden = true;
    syncPerfect();
    // Other panels (the teaching tools) follow the game through this event.
    document.dispatchEvent(new CustomEvent("arcade:state", { detail: { state, seat: mySeat, token } }));
  }

  // ----- Perfect play: the exact verdict on each legal move (GET /api/games/<id>/analyse) -----
  // Everyone's once the game is over; the creator's (manage token) at any time, for teaching.
  // It follows the position the teaching panel picks (default: now; in a finished game the
  // position before the last move, the last one with a move to judge).
  let perfectOn = false;
  let perfectPicked = null;  // the teaching panel's picked ply, or null: now
  let perfect = null;        // {key, ply, data, error} of the position judged
  let perfectRun = 0;
  document.addEventListener("arcade:pick", (e) => { perfectPicked = e.detail.ply; syncPerfect(); });
  $("perfect-play").addEventListener("change", () => { perfectOn = $("perfect-play").checked; render(); });

  function perfectAllowed() { return !!state && (state.status !== "playing" || !!manageToken); }
  function perfectPly() {
    if (perfectPicked != null && perfectPicked < state.ply) return perfectPicked;
    return state.status !== "playing" && state.ply > 0 ? state.ply - 1 : state.ply;
  }

  /** The verdicts to colour the board with: only when the board shows the position judged. */
  function boardVerdicts(shown) {
    if (!perfectOn || !perfect || !perfect.data || perfect.ply !== shown.ply) return null;
    return Object.fromEntries(perfect.data.moves.map((m) => [m.move, m]));
  }

  /** The earlier position judged, to show on the board instead of the final one, or null. */
  function perfectBoard() {
    const judged = perfectOn && perfect && perfect.data && perfect.position;
    return judged && state.status !== "playing" && judged.ply !== state.ply ? judged : null;
  }

  function syncPerfect() {
    const box = $("perfect-box"), toggle = $("perfect-play");
    const allowed = perfectAllowed();
    toggle.disabled = !allowed;
    if (!allowed) toggle.checked = perfectOn = false;
    $("perfect-why").textContent = !allowed ? "Shows the exact result of every move once the game is over."
      : state.status === "playing" ? "You created this game: you may see perfect play now, for teaching."
      : "The exact result of every move for the side to move.";
    if (!perfectOn) {
      box.hidden = true;
      const wasShown = perfectBoard();
      perfect = null;
      if (wasShown) render();  // the board goes back to the position now
      return;
    }
    const ply = perfectPly(), key = `${state.version}:${ply}`;
    if (perfect && perfect.key === key) return;
    perfect = { key, ply, data: null, error: null };
    box.hidden = false;
    box.replaceChildren(el("p", { class: "muted", text: `Solving the position after ply ${ply}…` }));
    loadPerfect(perfect);
  }

  async function loadPerfect(target) {
    const run = ++perfectRun;
    const query = new URLSearchParams({ ply: String(target.ply) });
    if (manageToken && state.status === "playing") query.set("token", manageToken);
    try {
      const res = await fetch(`/api/games/${encodeURIComponent(gameId)}/analyse?${query}`);
      const body = await res.json().catch(() => ({}));
      if (res.ok) target.data = body; else target.error = body.error || `The server refused (${res.status}).`;
      if (res.ok && target.ply !== state.ply) {  // the board shows it too
        const at = await fetch(`/api/games/${encodeURIComponent(gameId)}/position?ply=${target.ply}`);
        if (at.ok) target.position = await at.json();
      }
    } catch (err) {
      target.error = "The server could not be reached: try again.";
    }
    if (run !== perfectRun || perfect !== target) return;
    renderPerfect(target);
    if (target.data) render();
  }

  const MARKS = { win: "✓", draw: "=", loss: "✗", unknown: "?" };
  /** One sentence for the moves too big to solve: how many, and the search's best moves. */
  function unsolvedWords(data, solved, seat) {
    const left = data.moves.length - solved;
    const which = solved ? `${left} of ${data.moves.length} moves are too big to solve here` : "This position is too big to solve here";
    if (!data.search) return `${which}: ${data.note}.`;
    const best = data.search.best.map((m) => moveWords(m, seat)).join(" or ");
    return `${which}. A search finds ${best} best (${data.search.text}).`;
  }
  function renderPerfect(target) {
    const box = $("perfect-box");
    if (target.error) { box.replaceChildren(el("p", { class: "perfect-error", text: target.error })); return; }
    const data = target.data;
    const seat = state.history[target.ply] ? state.history[target.ply].seat : state.to_move;
    const head = el("h3", { text: `Perfect play · after ply ${target.ply} · ${cap(data.to_move)} to move` });
    const onBoard = target.position ? el("p", { class: "muted small", "data-testid": "perfect-on-board",
      text: `The board shows this position; turn Perfect play off to see the end of the game.` }) : null;
    // a move left unsolved gets no row of its own: one sentence says what the search made of them
    const items = data.moves.filter((m) => m.outcome || !data.search).map((m) => {
      const outcome = m.outcome || "unknown", words = ArcadeViews.verdictWords(m);
      return el("li", { class: `verdict verdict-${outcome}`, dataset: { move: m.move, verdict: outcome },
                        "aria-label": `${moveWords(m.move, seat)}: ${words}` },
        el("span", { class: "verdict-mark", "aria-hidden": "true", text: MARKS[outcome] }), " ",
        el("span", { class: "move-words", text: moveWords(m.move, seat) }), " ",
        el("span", { class: "verdict-words", text: words }));
    });
    const solved = data.moves.filter((m) => m.outcome).length;
    const note = data.note ? el("p", { class: "perfect-note", "data-testid": "perfect-note", text: unsolvedWords(data, solved, seat) }) : null;
    box.replaceChildren(...[head, onBoard, note].filter(Boolean), el("ul", { class: "perfect-moves", "data-testid": "perfect-moves" }, ...items));
  }

  /** What had the keyboard focus in the board before a render: {move} or {board: true}, or null. */
  function boardFocus(board) {
    const active = document.activeElement;
    if (!active || !board.contains(active)) return null;
    return { move: active.dataset ? active.dataset.move : undefined };
  }

  /** Keep the keyboard on the board across a re-render (which replaces its elements): the same
   * move if it is still a target, else the first target, else the board itself (while the
   * other side moves; its answer then brings the focus back to a target). */
  function restoreFocus(board, focus) {
    const active = document.activeElement;
    if (!focus || (active !== board && board.contains(active))) return;
    const same = focus.move && board.querySelector(`.move-target[data-move="${CSS.escape(focus.move)}"]`);
    (same || board.querySelector(".move-target") || board).focus({ preventScroll: true });
  }

  /** Take back: for a seat that has moved; an offer from the other human shows Accept / Decline. */
  function renderTakeback() {
    const offer = state.takeback_offer;
    const mine = mySeat !== null && !!token;
    const moved = mine && state.history.some((h) => h.seat === mySeat);
    const pending = offer && offer.seat === mySeat;
    $("takeback").hidden = !moved || !!offer;
    const theirs = mine && offer && offer.seat !== mySeat;
    $("takeback-offer").hidden = !(theirs || pending);
    $("takeback-accept").hidden = $("takeback-decline").hidden = !theirs;
    if (theirs) $("takeback-offer-text").textContent = `${sideName(offer.seat, "asks to take back their last move")}.`;
    else if (pending) $("takeback-offer-text").textContent = "You asked to take back your last move: waiting for the answer…";
  }

  /** A seat's side and who plays it, doing what `verb` says: "Cut wins — the computer (club)". */
  function sideName(seat, verb = "") {
    const info = state.seat_info[seat];
    return ArcadeViews.sideWords(info.side, verb, info.human ? (seat === mySeat ? "you" : "human") : player(info.agent));
  }

  /** A player in words, by its spec, as the server names it ("Computer (club)"). */
  function player(spec) { return state.agent_words[spec] || spec; }

  function renderStatus() {
    if (!state) return;
    let text;
    if (state.status === "over") {
      const r = state.result;
      const winner = r.winner == null ? "Draw" : sideName(r.winner, "wins");
      text = `Game over: ${winner}; ${r.reason}.`;
      if (mySeat !== null && r.winner != null) text += r.winner === mySeat ? " You win!" : " You lose.";
    } else if (!socket.connected) {
      text = "Connection lost — reconnecting…";
    } else if (state.paused && state.to_move != null && !state.seat_info[state.to_move]?.human) {
      text = "Paused: the AI waits until the game is resumed.";
    } else if (state.ai.error) {
      text = `${state.ai.error} Retry, or restart the game.`;
    } else if (thinkingSeat() != null) {
      text = `${sideName(state.to_move, "is thinking")}…`;
    } else if (canMove() && boardBusy()) {
      text = "Showing the last move… (click the board to skip)";
    } else if (canMove()) {
      text = `Your move (${cap(state.to_move_name)}).`;
    } else {
      text = `${sideName(state.to_move, "to move")}.`;
    }
    $("status").textContent = text;
    $("status").dataset.state = state.status;
    // the game-over line is coloured by this page's result: win, loss, draw or spectator
    $("status").dataset.result = state.status !== "over" ? "" : mySeat === null ? "spectator"
      : state.result.winner == null ? "draw" : state.result.winner === mySeat ? "win" : "loss";
  }

  function renderSeats() {
    $("seats").replaceChildren(...state.seat_info.map((info) => {
      const row = el("div", { class: "seat" + (state.to_move === info.seat ? " to-move" : "") + (info.seat === mySeat ? " mine" : "") },
        el("span", { class: `seat-dot seat-${info.seat}` }),
        // a computer named as the lobby names it ("B: Computer (club)"), a person by side
        el("span", { text: info.human ? sideName(info.seat) : `${cap(info.side)}: ${player(info.agent)}` }));
      // the other person: here or not (yet)
      if (info.human && info.seat !== mySeat && present !== null) {
        const here = present.includes(info.seat);
        row.append(el("span", { class: "presence" + (here ? " here" : ""), "data-testid": `presence-${info.seat}`,
                                text: here ? "here" : cameOnce.has(info.seat) ? "left the game page" : "not here yet" }));
      }
      return row;
    }));
    if (mySeat === null) $("seats").append(el("div", { class: "spectator", text: "You are watching." }));
  }

  function renderStats() {
    const s = state.ai.last_stats;
    if (!s) { $("ai-stats").textContent = "No search yet."; return; }
    if (!s.nodes) {  // a random or rule-based move: no search, nothing counted
      $("ai-stats").replaceChildren(el("p", { dataset: { stat: "searched" },
        text: `${player(s.agent)} played ${moveWords(s.move, s.seat)}, chosen without a search.` }));
      return;
    }
    const rows = [
      ["move", "Move", moveWords(s.move, s.seat)], ["agent", "Player", player(s.agent)],
      ["score", "Score", scoreWords(s.score_text, s.score)],
      ["outcome", "Outcome", s.outcome || "not proved"], ["depth", "Depth", s.depth], ["nodes", "Nodes", fmt(s.nodes)],
      ["cutoffs", "Cut-offs", fmt(s.stats.cutoffs)], ["tt_hits", "Table hits", fmt(s.stats.tt_hits)],
      ["time", "Time", `${s.elapsed_ms.toFixed(1)} ms`], ["nps", "Nodes/s", s.stats.nps ? fmt(s.stats.nps) : "–"],
      ["pv", "Best line", (s.pv || []).join(" ") || "–"],
    ];
    $("ai-stats").replaceChildren(el("dl", {}, ...rows.flatMap(([key, label, v]) =>
      [el("dt", { text: label }), el("dd", { text: String(v), dataset: { stat: key } })])));
  }

  function renderMoves() {
    const items = state.history.map((h, i) => {
      const li = el("li", { class: `seat-${h.seat}` },
        el("span", { class: "move-side", text: cap(state.sides[h.seat]) }),
        ...moveShown(h.move, h.seat));
      if (h.nodes) {
        li.append(el("span", { class: "move-meta", text: `${scoreWords(h.score_text, h.score)} · d${h.depth} · ${fmt(h.nodes)} n` }));
      }
      li.title = `ply ${i + 1}`;
      li.tabIndex = 0;  // (the teaching panel picks a position from it: keyboard too)
      return li;
    });
    const list = $("move-list");
    list.replaceChildren(...items);
    list.scrollTop = list.scrollHeight;
  }

  function renderThinking() {
    const box = $("thinking");
    const seat = thinkingSeat();
    box.hidden = seat == null;
    if (seat == null) return;
    const p = thinking && thinking.progress;
    $("ai-progress").textContent = p
      ? `depth ${p.depth} done · ${fmt(p.nodes)} nodes · best so far ${p.best_move} (${scoreWords(p.score_text, p.score)})`
      : `${player(state.seat_info[seat].agent)} is searching…`;
  }

  let errorTimer = null;
  function showError(message) {
    const box = $("error");
    box.textContent = message;
    box.hidden = false;
    clearTimeout(errorTimer);
    errorTimer = setTimeout(() => { box.hidden = true; }, 6000);
  }

  // Invite links the lobby handed over for the other human seats (only the creator has them;
  // in localStorage, so a reload still shows them), each with a Copy button.
  const invites = JSON.parse(localStorage.getItem(`arcade.invites.${gameId}`) || "[]");
  let invitesShown = false;
  /** The invite links, each named by its side ("Blue (send to your friend)"), once a state has
   * told the sides' names. */
  function renderInvites() {
    if (invitesShown || !invites.length || !state) return;
    invitesShown = true;
    const box = $("invites");
    box.hidden = false;
    const link = (label, path) => {
      const url = new URL(path, location.href).href;
      const copy = el("button", { type: "button", class: "secondary copy", "data-testid": "copy-invite", text: "Copy" });
      copy.addEventListener("click", async () => {
        try { await navigator.clipboard.writeText(url); copy.textContent = "Copied"; } catch (err) { copy.textContent = "Select the link to copy it"; }
      });
      return el("p", { class: "invite" }, `${label}: `, el("a", { href: path, text: url }), " ", copy);
    };
    box.append(el("h3", { text: "Invite" }),
      ...invites.map((inv) => link(`${cap(state.sides[inv.seat])} (send to your friend)`, inv.join_url)),
      link("Spectators", `/play/${gameId}`));
  }

  /** A move in words for people ("take 2 from pile 1"); the notation in its title. */
  function moveWords(move, seat) { return ArcadeViews.moveWords(root.dataset.game, move, seat); }

  /** A move as players read it: its words, then its notation (for those who want it). */
  function moveShown(move, seat) {
    const words = moveWords(move, seat);
    const code = el("code", { class: "move-notation", text: move });
    return words === move ? [code] : [el("span", { class: "move-words", text: words }), " ", code];
  }


  /** An engine score for people: the engine's words ("win in 5", "loss in 2") as they are, a
   * heuristic number rounded to one decimal ("+3.19116" -> "+3.2"). */
  function scoreWords(text, score) {
    const raw = text ?? (score == null ? null : String(score));
    if (raw == null) return "–";
    const n = Number(raw);
    if (raw.trim() === "" || !Number.isFinite(n)) return raw;
    return `${n > 0 ? "+" : ""}${Number(n.toFixed(1))}`;
  }
})();
