/* A student's page: join with the class code and a nickname, then play the class's game here
 * (one tap), answer the teacher's challenges. The browser keeps the student's token
 * (localStorage "arcade.student"), so a reload comes back to the same student and games. */
"use strict";
import { ArcadeClass } from "./classroom-common.js";
(function () {
  const { api, drawBoard, challengeState, moveWords, moveText, statusText, verdictTable } = ArcadeClass;
  const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
  const KEY = "arcade.student";
  const form = $("join-form"), home = $("student-home");
  const codeInput = $("join-code"), nameInput = $("join-name");
  let me = null;        // {class_id, token, name, code, student_id}
  let socket = null;
  let gameId = null, seat = null;
  let challenge = null, answered = null, timer = null;

  function saved() {
    try { return JSON.parse(localStorage.getItem(KEY) || "null"); } catch (e) { return null; }
  }

  function cleanCode(code) { return code.replace(/[\s-]/g, "").toUpperCase(); }

  function show(box, text) { box.textContent = text || ""; box.hidden = !text; }

  async function suggest() {
    const got = await api("GET", "/api/classes/nickname");
    if (got.ok) nameInput.value = got.data.name;
  }

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    show($("join-error"), "");
    const got = await api("POST", "/api/classes/join", { code: codeInput.value, name: nameInput.value });
    if (!got.ok) { show($("join-error"), got.error); return; }
    me = { class_id: got.data.class_id, token: got.data.student_token, name: got.data.name,
           student_id: got.data.student_id, code: cleanCode(codeInput.value) };
    localStorage.setItem(KEY, JSON.stringify(me));
    enter();
  });
  $("another-name").addEventListener("click", suggest);

  /** The student's home: the class's name, the nickname, the latest game, live. */
  async function enter() {
    const got = await api("GET", `/api/classes/${encodeURIComponent(me.class_id)}/me?token=${encodeURIComponent(me.token)}`);
    if (!got.ok) {
      localStorage.removeItem(KEY);
      me = null;
      showForm(got.status === 404 ? "Your class has ended: join another with its code." : got.error);
      return;
    }
    form.hidden = true;
    home.hidden = false;
    $("class-name").textContent = got.data.class_name;
    $("student-name").textContent = got.data.name;
    connect();
    const last = got.data.games[got.data.games.length - 1];
    if (last) openGame(last.id, last.seat);
  }

  /** The teacher paired the class: open this student's newest game. */
  async function refreshGames() {
    const got = await api("GET", `/api/classes/${encodeURIComponent(me.class_id)}/me?token=${encodeURIComponent(me.token)}`);
    const last = got.ok && got.data.games[got.data.games.length - 1];
    if (last && last.id !== gameId) openGame(last.id, last.seat);
  }

  function showForm(error) {
    home.hidden = true;
    form.hidden = false;
    show($("join-error"), error || "");
    if (!nameInput.value) suggest();
  }

  function connect() {
    if (socket) return;
    socket = io({ transports: ["websocket", "polling"] });
    socket.on("connect", () => {
      socket.emit("class_join", { class_id: me.class_id, token: me.token });
      if (gameId) socket.emit("join", { game_id: gameId, token: me.token });
    });
    socket.on("state", (state) => { if (state.id === gameId) renderGame(state); });
    socket.on("class_challenge", startChallenge);
    socket.on("class_reveal", reveal);
    socket.on("class_new_games", refreshGames);
    socket.on("class_removed", () => {
      localStorage.removeItem(KEY);
      gameId = null;
      showForm("Your teacher removed you from the class: join again with a nickname.");
    });
    socket.on("class_deleted", () => {
      localStorage.removeItem(KEY);
      gameId = null;
      showForm("Your teacher ended the class: your games are gone.");
    });
    socket.on("error", (msg) => {
      if (msg.event === "class_join" && (msg.code === "bad_token" || msg.code === "unknown_class")) {
        localStorage.removeItem(KEY);
        showForm(msg.code === "bad_token" ? "Your teacher removed you from the class: join again." : "Your class has ended.");
        return;
      }
      show($("student-error"), msg.message);
    });
  }

  function openGame(id, mySeat) {
    gameId = id;
    seat = mySeat;
    const link = $("full-page");
    link.href = `/play/${id}?token=${encodeURIComponent(me.token)}`;
    link.hidden = false;
    if (socket && socket.connected) socket.emit("join", { game_id: id, token: me.token });
  }

  function renderGame(state) {
    const status = $("status");
    status.textContent = statusText(state, seat);
    status.dataset.result = state.result ? (state.result.winner == null ? "draw" : state.result.winner === seat ? "win" : "loss") : "";
    const canMove = !state.result && state.to_move === seat && !(state.ai && state.ai.thinking != null);
    drawBoard(document.getElementById("board"), state, {
      seat, canMove,
      play: (move) => { show($("student-error"), ""); socket.emit("move", { game_id: state.id, token: me.token, move }); },
    });
    $("new-game").textContent = state.result ? "Play again" : "New game";
  }

  $("new-game").addEventListener("click", async () => {
    show($("student-error"), "");
    const got = await api("POST", `/api/classes/${encodeURIComponent(me.class_id)}/games`, { token: me.token });
    if (!got.ok) { show($("student-error"), got.error); return; }
    const mine = got.data.seats.find((s) => s.token === me.token);
    openGame(got.data.id, mine ? mine.seat : 0);
  });

  $("leave").addEventListener("click", () => {
    localStorage.removeItem(KEY);
    location.href = "/join";
  });

  // ----- challenges ---------------------------------------------------------------------------
  function startChallenge(c) {
    challenge = c;
    answered = null;
    $("challenge").hidden = false;
    $("student-verdict").hidden = true;
    const state = challengeState(c);
    drawBoard($("challenge-board"), state, { seat: state.to_move, canMove: true, play: answer });
    clearInterval(timer);
    timer = setInterval(tick, 500);
    tick();
    $("challenge").scrollIntoView({ block: "start" });
  }

  function tick() {
    if (!challenge) return;
    const left = Math.max(0, Math.ceil(challenge.deadline - Date.now() / 1000));
    const who = ArcadeClass.cap(challenge.side);
    if (answered) $("challenge-status").textContent = `Your answer: ${answered}. Wait for the verdict.`;
    else if (left > 0) $("challenge-status").textContent = `${who} to move: tap the best move. ${left} s left.`;
    else { $("challenge-status").textContent = "Time is up."; lockChallenge(); }
  }

  function lockChallenge() {
    clearInterval(timer);
    drawBoard($("challenge-board"), challengeState(challenge), { canMove: false });
  }

  async function answer(move) {
    if (answered || !challenge) return;
    const got = await api("POST", `/api/classes/${encodeURIComponent(me.class_id)}/challenges/${challenge.challenge_id}/answers`,
                          { token: me.token, move });
    if (!got.ok && got.status !== 409) { show($("student-error"), got.error); return; }
    answered = moveText(got.ok ? got.data.move : move, moveWords(challengeState(challenge)));
    if (!got.ok) show($("student-error"), got.error);
    lockChallenge();
    tick();
  }

  function reveal(r) {
    if (!challenge || r.challenge_id !== challenge.challenge_id) return;
    lockChallenge();
    const words = moveWords(challengeState(challenge));
    const box = $("student-verdict");
    const found = r.found_best.length ? `Found a best move: ${r.found_best.join(", ")}.` : "Nobody found a best move.";
    box.replaceChildren(ArcadeClass.el("p", { text: found }), verdictTable(r.verdict, r.best, r.answers, words));
    box.hidden = false;
    $("challenge-status").textContent = answered ? `Your answer: ${answered}.` : "The answers are in.";
  }

  // ----- start -------------------------------------------------------------------------------------
  const stored = saved();
  const wanted = cleanCode(codeInput.value);
  if (stored && stored.token && (!wanted || wanted === stored.code)) {
    me = stored;
    enter();
  } else {
    showForm("");
    (wanted ? nameInput : codeInput).focus();
  }
})();
