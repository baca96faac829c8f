/* A student's page: join with the class code and a nickname, then play the class's game here
 * (one tap), answer the teacher's challenges. The browser keeps the student's token
 * (localStorage "arcade.student"), so a reload comes back to the same student and games. */
"use strict";
import { ArcadeClass } from "./classroom-common.js";
import { ClassStudent } from "./class-student.js";
(function () {
  const { api, drawBoard, statusText } = ArcadeClass;
  const { saved } = ClassStudent;
  const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
  const form = $("join-form"), home = $("student-home");
  const codeInput = $("join-code"), nameInput = $("join-name");
  let me = null;        // {class_id, token, name, code, student_id}
  let socket = null;
  let gameId = null, seat = null;
  const card = ClassStudent.challengeCard(
    { box: $("challenge"), status: $("challenge-status"), board: $("challenge-board"), verdict: $("student-verdict") },
    () => me, (text) => show($("student-error"), text));

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
    ClassStudent.save(me);
    enter();
  });
  $("another-name").addEventListener("click", suggest);

  /** The student's home: the class's name, the nickname, the latest game, live. */
  async function enter() {
    const got = await api("GET", `/api/classes/${encodeURIComponent(me.class_id)}/me?token=${encodeURIComponent(me.token)}`);
    if (!got.ok) {
      ClassStudent.forget();
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
    socket.on("connect", () => { if (gameId) socket.emit("join", { game_id: gameId, token: me.token }); });
    socket.on("state", (state) => { if (state.id === gameId) renderGame(state); });
    ClassStudent.listen(socket, {
      challenge: card.start,
      reveal: card.reveal,
      newGames: refreshGames,
      renamed: (msg) => { if (msg.student_id === me.student_id) $("student-name").textContent = msg.name; },
      ended: leftClass,
    });
    socket.on("error", (msg) => { if (msg.event !== "class_join" && msg.event !== "leave") show($("student-error"), msg.message); });
  }

  function openGame(id, mySeat) {
    const previous = gameId;
    gameId = id;
    seat = mySeat;
    const link = $("full-page");
    link.href = `/play/${id}?token=${encodeURIComponent(me.token)}`;
    link.hidden = false;
    if (socket && socket.connected) {
      // one game at a time: the server stops pushing the last one and may forget it
      if (previous && previous !== id) socket.emit("leave", { game_id: previous });
      socket.emit("join", { game_id: id, token: me.token });
    }
  }

  function renderGame(state) {
    shownState = state;
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

  let shownState = null;  // the game on the page, as last drawn
  $("new-game").addEventListener("click", async () => {
    show($("student-error"), "");
    const inProgress = shownState && !shownState.result && shownState.history.length > 0;
    if (inProgress && !confirm("Start a new game? The game you are playing ends unfinished.")) return;
    const got = await api("POST", `/api/classes/${encodeURIComponent(me.class_id)}/games`, { token: me.token });
    if (!got.ok) { show($("student-error"), got.error); return; }
    const mine = got.data.seats.find((s) => s.token === me.token);
    openGame(got.data.id, mine ? mine.seat : 0);
  });

  // leaving asks first; a student who left may come back with the same nickname
  function askLeave(open) {
    $("leave-confirm").hidden = !open;
    $("leave").setAttribute("aria-expanded", String(open));
    if (open) $("leave-no").focus();
  }
  $("leave").addEventListener("click", () => askLeave($("leave-confirm").hidden));
  $("leave-no").addEventListener("click", () => { askLeave(false); $("leave").focus(); });
  $("leave-yes").addEventListener("click", async () => {
    const { name, code } = me;  // (this page's socket may hear class_left before the answer)
    const got = await api("POST", `/api/classes/${encodeURIComponent(me.class_id)}/leave`, { token: me.token });
    if (!got.ok) { show($("student-error"), got.error); return; }
    askLeave(false);
    leftClass(`You left the class. To come back, join with the same code and nickname (${name}): your games come back too.`);
    codeInput.value = code || "";
    nameInput.value = name;
  });

  function leftClass(text) {
    ClassStudent.forget();
    gameId = null;
    me = null;
    if (socket) { socket.close(); socket = null; }
    showForm(text);
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
