/* A student of a class, on any page of the arcade: the class page (join.js), a class game's
 * full page (play.js) and its search tree. The page's socket joins the class (class_join with
 * the student's token, kept in localStorage "arcade.student"), so the teacher's challenge, a
 * rename, a removal and the class's end reach the student wherever they are. */
"use strict";
import { ArcadeClass } from "./classroom-common.js";
export const ClassStudent = (function () {
  const { api, drawBoard, challengeState, moveWords, moveText, verdictTable, el, cap } = ArcadeClass;
  const KEY = "arcade.student";
  const LEFT = "You left the class. To come back, join with the same code and nickname: your games come back too.";

  function saved() {
    try { return JSON.parse(localStorage.getItem(KEY) || "null"); } catch (e) { return null; }
  }
  function save(me) { localStorage.setItem(KEY, JSON.stringify(me)); }
  function forget() { localStorage.removeItem(KEY); }

  /** The challenge in ``els`` ({box, status, board, verdict}, data-testid "challenge",
   * "challenge-status", "challenge-board", "student-verdict"): the position, one tap to answer,
   * the countdown, then the verdict with the student's own row marked. */
  function challengeCard(els, student, onError) {
    let challenge = null, answered = null, mine = null, timer = null;

    function start(c) {
      challenge = c;
      answered = null;
      mine = null;
      els.box.hidden = false;
      els.verdict.hidden = true;
      const state = challengeState(c);
      drawBoard(els.board, state, { seat: state.to_move, canMove: true, play: answer });
      clearInterval(timer);
      timer = setInterval(tick, 500);
      tick();
      els.box.scrollIntoView({ block: "start" });
    }

    function tick() {
      if (!challenge) return;
      const left = Math.max(0, Math.ceil(challenge.deadline - Date.now() / 1000));
      const side = `You play ${cap(challenge.side)}, to move`;
      if (answered) els.status.textContent = `Your answer: ${answered}. Wait for the verdict.`;
      else if (left > 0) els.status.textContent = `${side}: tap the best move. ${left} s left.`;
      else { els.status.textContent = "Time is up."; lock(); }
    }

    function lock() {
      clearInterval(timer);
      drawBoard(els.board, challengeState(challenge), { canMove: false });
    }

    async function answer(move) {
      if (answered || !challenge) return;
      const me = student();
      const got = await api("POST", `/api/classes/${encodeURIComponent(me.class_id)}/challenges/${challenge.challenge_id}/answers`,
                            { token: me.token, move });
      if (!got.ok && got.status !== 409) { onError(got.error); return; }
      mine = got.ok ? got.data.move : move;
      answered = moveText(mine, moveWords(challengeState(challenge)));
      if (!got.ok) onError(got.error);
      lock();
      tick();
    }

    function reveal(r) {
      if (!challenge || r.challenge_id !== challenge.challenge_id) return;
      lock();
      const words = moveWords(challengeState(challenge));
      if (r.solving) {  // revealed before the engine judged every move: the verdict follows
        els.verdict.replaceChildren(el("p", { "data-testid": "your-verdict", text: "The engine is still judging the moves: the verdict follows." }));
        els.verdict.hidden = false;
        return;
      }
      const found = r.found_best.length ? `Found a best move: ${r.found_best.join(", ")}.` : "Nobody found a best move.";
      const yours = !mine ? "" : r.right_moves.includes(mine) ? "Your answer was right! " : "Your answer was not right. ";
      els.verdict.replaceChildren(el("p", { "data-testid": "your-verdict", text: yours + found }),
        verdictTable(r.verdict, r.best, r.answers, words, { mine, right: r.right_moves }));
      els.verdict.hidden = false;
      els.status.textContent = answered ? `Your answer: ${answered}.` : "The answers are in.";
    }

    return { start, reveal };
  }

  /** Build the challenge card's elements (a page other than the class page). */
  function challengeBox() {
    const box = el("section", { class: "challenge card", "data-testid": "challenge", hidden: true, "aria-labelledby": "challenge-title" },
      el("h2", { id: "challenge-title", text: "Challenge: find the best move" }),
      el("p", { class: "challenge-status", "data-testid": "challenge-status", "aria-live": "polite" }),
      el("div", { class: "board challenge-board", "data-testid": "challenge-board" }),
      el("div", { class: "verdict", "data-testid": "student-verdict", hidden: true }));
    const [status, board, verdict] = ["challenge-status", "challenge-board", "student-verdict"]
      .map((id) => box.querySelector(`[data-testid="${id}"]`));
    return { box, status, board, verdict };
  }

  /** On a class game's page (its root has data-class-id): the same socket joins the class, a
   * bar names the class and the student, and the challenges come here too. ``socket``: the
   * page's own (a page without one gets one). */
  function onGamePage(socket) {
    const root = document.querySelector("[data-class-id]");
    const me = saved();
    if (!root || !root.dataset.classId || !me || me.class_id !== root.dataset.classId) return;
    socket = socket || io({ transports: ["websocket", "polling"] });
    const name = el("strong", { "data-testid": "class-bar-name", text: me.name });
    const note = el("p", { class: "class-bar-note", "data-testid": "class-bar-note", role: "alert", hidden: true });
    const bar = el("section", { class: "class-bar card", "data-testid": "class-bar", "aria-label": "Your class" },
      el("span", {}, "You are ", name, " in your class · "),
      el("a", { href: "/join", text: "Back to the class page" }), note);
    const els = challengeBox();
    const main = document.querySelector("main");
    main.prepend(bar, els.box);
    const card = challengeCard(els, saved, (text) => { note.textContent = text; note.hidden = !text; });
    listen(socket, {
      joined: (msg) => { name.textContent = msg.name; },
      challenge: card.start,
      reveal: card.reveal,
      renamed: (msg) => { name.textContent = msg.name; },
      ended: (text) => {
        note.textContent = text;
        note.hidden = false;
        const status = document.querySelector('[data-testid="status"]');
        if (status) status.textContent = text;
        document.getElementById("board")?.setAttribute("inert", "");
      },
    });
  }

  /** The class's events on ``socket`` for the stored student: class_join on every connect,
   * then the handlers ({joined, challenge, reveal, renamed, newGames, ended(text, removed)}). */
  function listen(socket, on) {
    const join = () => { const me = saved(); if (me) socket.emit("class_join", { class_id: me.class_id, token: me.token }); };
    socket.on("connect", join);
    if (socket.connected) join();
    socket.on("class_joined", (msg) => { if (msg.role === "student" && on.joined) on.joined(msg); });
    socket.on("class_challenge", (c) => on.challenge && on.challenge(c));
    socket.on("class_reveal", (r) => on.reveal && on.reveal(r));
    socket.on("class_new_games", () => on.newGames && on.newGames());
    socket.on("class_renamed", (msg) => {
      const me = saved();
      if (me && msg.student_id === me.student_id) { me.name = msg.name; save(me); }
      if (on.renamed) on.renamed(msg);
    });
    socket.on("class_removed", () => { forget(); on.ended("Your teacher removed you from the class: join again with a nickname.", true); });
    socket.on("class_deleted", () => { forget(); on.ended("Your teacher ended the class: your games are gone.", false); });
    socket.on("class_left", () => { forget(); on.ended(LEFT, true); });
    socket.on("error", (msg) => {
      const words = { bad_token: "Your teacher removed you from the class: join again.", unknown_class: "Your class has ended.",
                      left_class: LEFT };
      if (msg.event === "class_join" && words[msg.code]) {
        forget();
        on.ended(words[msg.code], true);
      }
    });
  }

  return { saved, save, forget, challengeCard, onGamePage, listen };
})();
