/* The teacher's dashboard: the join code (large) and QR, every student's current game as a
 * live thumbnail (class_state over Socket.IO), rename/remove, random pairs, results and their
 * CSV, and "Challenge the class" with live answer counts and the engine's verdict. The
 * teacher's token comes from a teacher link or this browser's storage (teacher-link.js). */
"use strict";
import { ArcadeClass } from "./classroom-common.js";
import { TeacherLink } from "./teacher-link.js";
import { classHistory } from "./class-history.js";
(function () {
  const { api, drawBoard, challengeState, moveWords, statusText, verdictTable, el, cap } = ArcadeClass;
  const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
  const root = document.querySelector(".dashboard");
  const classId = root.dataset.classId;
  const { token, created } = TeacherLink.take(classId);
  const base = `/api/classes/${encodeURIComponent(classId)}`;
  const q = `token=${encodeURIComponent(token || "")}`;
  let last = null;        // the last class_state
  let words = {};         // the current challenge's moves in words

  function note(text) { $("toolbar-note").textContent = text || ""; }
  function fail(text) { const box = $("dashboard-error"); box.textContent = text || ""; box.hidden = !text; }

  /** One page instead of the dashboard: how to open the class on this device. */
  function noTeacher(why) {
    for (const node of root.children) node.hidden = node.dataset.testid !== "no-teacher-link";
    if (why) $("no-teacher-why").textContent = why;
    $("no-teacher-link").hidden = false;
  }
  $("paste-link-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const pasted = $("paste-link").value.trim();
    const found = /\/class\/([^/#?\s]+)[^#]*#token=([\w-]+)/.exec(pasted);
    const box = $("paste-link-error");
    if (!found) { box.textContent = "That is not a teacher link: it looks like …/class/…#token=…"; box.hidden = false; return; }
    location.href = `/class/${found[1]}#token=${found[2]}`;
    if (found[1] === classId) location.reload();  // (only the fragment changed)
  });

  if (!token) {
    noTeacher("");
    return;
  }
  const teacherLink = TeacherLink.link(classId, token);
  $("teacher-link").value = teacherLink;
  if (created) {
    $("teacher-link-title").textContent = "Your class is ready. Keep your teacher link";
    $("teacher-link-panel").hidden = false;
    $("open-teacher-link").setAttribute("aria-expanded", "true");
  }
  $("open-teacher-link").addEventListener("click", () => {
    const panel = $("teacher-link-panel");
    panel.hidden = !panel.hidden;
    $("open-teacher-link").setAttribute("aria-expanded", String(!panel.hidden));
  });
  $("copy-teacher-link").addEventListener("click", async () => {
    const ok = await TeacherLink.copy(teacherLink, $("teacher-link"));
    $("copy-note").textContent = ok ? "Copied. Open it on the other device (send it to yourself by e-mail or chat)."
      : "Select the link above and copy it.";
  });

  $("qr").src = `${base}/qr.svg`;
  $("results-csv").href = `${base}/results.csv?${q}`;
  $("results-json").href = `${base}/results.json?${q}`;
  const history = classHistory(base, token);

  const socket = io({ transports: ["websocket", "polling"] });
  // "cards": after a student's move, only the students whose games changed (class_students)
  socket.on("connect", () => socket.emit("class_join", { class_id: classId, token, updates: "cards" }));
  socket.on("class_state", render);
  socket.on("class_students", (patch) => {
    if (!last || patch.class_id !== last.id) return;
    const changed = new Map(patch.students.map((s) => [s.id, s]));
    render({ ...last, students: last.students.map((s) => changed.get(s.id) || s) });
  });
  const solving = {};  // challenge id -> {done, total}, as class_solving tells it between two class_state
  socket.on("class_solving", (p) => {
    solving[p.challenge_id] = p;
    if (last && last.challenge && last.challenge.id === p.challenge_id) { renderChallenge(last.challenge); return; }
    // a challenge just sent, before its class_state: say at once that the engine is on it
    $("challenge-panel").hidden = $("challenge-live").hidden = false;
    $("solving").hidden = false;
    $("solving").textContent = `Solving… (${p.done} of ${p.total} moves judged)`;
  });
  socket.on("error", (msg) => {
    if (msg.event === "class_join" && ["bad_token", "token_required"].includes(msg.code)) {
      localStorage.removeItem(TeacherLink.key(classId));
      socket.close();
      noTeacher("The teacher link this browser had is not this class's (or no longer is).");
      return;
    }
    fail(msg.message);
  });

  // ----- drawing ----------------------------------------------------------------------------------
  function render(state) {
    if (!last || last.name !== state.name) TeacherLink.remember({ id: classId, name: state.name, code: state.code, game: state.game });
    last = state;
    fail("");
    $("class-title").textContent = state.name;
    $("join-link").textContent = `${location.host}/join`;
    $("class-code").textContent = state.code;
    const n = state.students.length;
    $("class-count").textContent = n ? `${n} student${n === 1 ? "" : "s"} joined.` : "No student yet.";
    renderStudents(state.students);
    renderResults(state.students);
    renderPositions(state.students);
    renderChallenge(state.challenge);
    history.refresh(state.challenge);
  }

  function renderStudents(students) {
    const box = $("students");
    const cards = new Map([...box.querySelectorAll("[data-student]")].map((c) => [c.dataset.student, c]));
    for (const s of students) {
      let card = cards.get(s.id);
      if (!card) card = studentCard(s);
      cards.delete(s.id);
      box.append(card);  // keeps the joining order
      fillCard(card, s);
      card.classList.toggle("left", !!s.left);
      if (s.left) card.querySelector(".thumb-status").textContent = `${s.name} left the class (back with the same nickname, or Remove)`;
    }
    for (const gone of cards.values()) gone.remove();
    if (!students.length) box.replaceChildren(el("p", { class: "muted", text: "Students who join appear here, each with their game." }));
    else box.querySelector(":scope > p")?.remove();
  }

  function studentCard(s) {
    const card = el("article", { class: "student-card", dataset: { student: s.id }, "aria-label": s.name });
    const rename = el("button", { type: "button", class: "linklike", text: "Rename", "data-testid": "rename" });
    const remove = el("button", { type: "button", class: "linklike", text: "Remove", "data-testid": "remove" });
    // the projector view opens in a tab of its own: the dashboard stays where it is
    const project = el("a", { class: "project-link", text: "Project", "data-testid": "project", hidden: true,
                              target: "_blank", rel: "noopener" });
    rename.addEventListener("click", () => renameStudent(card.dataset.student));
    remove.addEventListener("click", () => removeStudent(card.dataset.student));
    // a click on the thumbnail projects the game too (the link is the keyboard's way there)
    const thumb = el("div", { class: "thumb", "data-testid": "thumb" }, el("div", { class: "thumb-board", "aria-hidden": "true" }));
    thumb.addEventListener("click", () => { if (!project.hidden) window.open(project.href, "_blank", "noopener"); });
    card.append(
      el("header", { class: "student-head" }, el("strong", { class: "student-name" }),
        el("span", { class: "student-tools" }, project, rename, remove)),
      thumb,
      el("p", { class: "thumb-status", "data-testid": "thumb-status" }),
      el("p", { class: "thumb-meta muted", "data-testid": "thumb-meta" }));
    return card;
  }

  function fillCard(card, s) {
    card.querySelector(".student-name").textContent = s.name;
    card.setAttribute("aria-label", s.name);
    const project = card.querySelector(".project-link"), board = card.querySelector(".thumb-board");
    const game = s.games[s.games.length - 1];
    card.querySelector(".thumb").classList.toggle("projectable", !!(s.current && game));
    if (!s.current || !game) {
      project.hidden = true;
      board.replaceChildren(el("p", { class: "muted", text: "No game yet" }));
      card.querySelector(".thumb-status").textContent = "Not playing yet";
      card.querySelector(".thumb-meta").textContent = "";
      card.dataset.version = "";
      return;
    }
    project.href = `/class/${encodeURIComponent(classId)}/project/${encodeURIComponent(game.id)}`;
    project.hidden = false;
    if (card.dataset.version !== `${game.id}:${game.version}`) {
      card.dataset.version = `${game.id}:${game.version}`;
      drawBoard(board, s.current, {});
    }
    const opponent = game.players[1 - game.seat];
    const against = opponent === "human" ? "a classmate" : "the computer";
    card.querySelector(".thumb-status").textContent = statusText(s.current, game.seat).replace("Your move", `${s.name} to move`)
      .replace("You won!", `${s.name} won`).replace("You lost", `${s.name} lost`).replace("Waiting for the other player", "The classmate to move");
    const score = game.last_score ? ` · last AI score ${game.last_score}` : "";
    card.querySelector(".thumb-meta").textContent = `Against ${against} · ${game.moves} move${game.moves === 1 ? "" : "s"}${score}`;
  }

  function renderResults(students) {
    const body = $("results").querySelector("tbody");
    body.replaceChildren(...students.map((s) => el("tr", { dataset: { result: s.id } },
      el("th", { scope: "row", text: s.name }),
      ...["games", "wins", "losses", "draws"].map((k) => el("td", { text: String(s.results[k]) })))));
  }

  // ----- students -------------------------------------------------------------------------------------
  function nameOf(id) { const s = last && last.students.find((x) => x.id === id); return s ? s.name : ""; }

  async function renameStudent(id) {
    const name = prompt(`New nickname for ${nameOf(id)}`, nameOf(id));
    if (name == null) return;
    const got = await api("POST", `${base}/students/${encodeURIComponent(id)}`, { token, name });
    note(got.ok ? `Renamed to ${got.data.students.find((s) => s.id === id).name}.` : got.error);
  }

  async function removeStudent(id) {
    if (!confirm(`Remove ${nameOf(id)} from the class? Their games end.`)) return;
    const got = await api("DELETE", `${base}/students/${encodeURIComponent(id)}?${q}`);
    note(got.ok ? "Removed." : got.error);
  }

  $("pair").addEventListener("click", async () => {
    const got = await api("POST", `${base}/pairs`, { token });
    note(got.ok ? `Pairs: ${got.data.pairs.map((p) => p.length === 2 ? p.join(" vs ") : `${p[0]} vs the computer`).join("; ")}` : got.error);
  });

  $("delete-class").addEventListener("click", async () => {
    if (!confirm("Delete the class? Its students and all their games are gone at once.")) return;
    const got = await api("DELETE", `${base}?${q}`);
    if (!got.ok) { note(got.error); return; }
    deleted();
  });
  socket.on("class_deleted", deleted);  // deleted from the teacher's other device

  function deleted() {
    TeacherLink.forget(classId);
    clearInterval(countdown);
    socket.close();
    document.dispatchEvent(new CustomEvent("arcade:class-deleted"));  // the lesson panels' socket closes too
    root.replaceChildren(el("section", { class: "card", "data-testid": "class-deleted" },
      el("h1", { text: "The class is deleted" }),
      el("p", { text: "Its students, their games and results are gone." }),
      el("a", { href: "/", text: "Back to the lobby" })));
  }

  // ----- challenge ------------------------------------------------------------------------------------
  $("open-challenge").addEventListener("click", () => {
    $("challenge-panel").hidden = !$("challenge-panel").hidden;
    if (!$("challenge-panel").hidden) $("challenge-position").focus();
  });

  function renderPositions(students) {
    const select = $("challenge-position");
    const keep = select.value;
    const options = [el("option", { value: "", text: "The start of the class's game" })];
    for (const s of students) {
      const game = s.games[s.games.length - 1];
      if (game && game.status === "playing" && game.moves > 0) {
        options.push(el("option", { value: game.id, text: `${s.name}'s game now (after ${game.moves} moves)` }));
      }
    }
    select.replaceChildren(...options);
    if ([...select.options].some((o) => o.value === keep)) select.value = keep;
  }

  $("challenge-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    let moves = [];
    const gameId = $("challenge-position").value, typed = $("challenge-moves").value.trim();
    if (typed) {
      moves = typed.split(",").map((m) => m.trim()).filter(Boolean);
    } else if (gameId) {
      const record = await api("GET", `/api/games/${encodeURIComponent(gameId)}/record`);
      if (!record.ok) { note(record.error); return; }
      moves = record.data.moves.map((m) => m.move);
    }
    const got = await api("POST", `${base}/challenges`, { token, moves, seconds: Number($("challenge-seconds").value) });
    note(got.ok ? "Challenge sent: the answers come in below." : got.error);
  });

  $("reveal").addEventListener("click", async () => {
    if (!last || !last.challenge) return;
    const got = await api("POST", `${base}/challenges/${last.challenge.id}/reveal`, { token });
    if (!got.ok) note(got.error);
  });

  /** Who was right (any winning move) and who found a best one (the quickest win). */
  function foundWords(c) {
    const right = c.found_right.length ? `Right: ${c.found_right.join(", ")}.` : "Nobody found a right move.";
    const best = c.found_best.length ? `Found a best move: ${c.found_best.join(", ")}.` : "Nobody found a best move.";
    return `${right} ${best}`;
  }

  let shownChallenge = null;
  function renderChallenge(c) {
    const live = $("challenge-live");
    if (!c) { live.hidden = true; return; }
    $("challenge-panel").hidden = false;
    live.hidden = false;
    const state = challengeState(c);
    if (shownChallenge !== c.id) {
      shownChallenge = c.id;
      words = moveWords(state);
      drawBoard($("challenge-board"), state, {});
    }
    const closed = !c.open;
    const told = solving[c.id];
    const judging = c.solving && (told && told.done > c.solving.done ? told : c.solving);
    $("solving").hidden = !judging;
    $("solving").textContent = judging ? `Solving… (${judging.done} of ${judging.total} moves judged)` : "";
    $("answer-count").textContent = `${c.answered} of ${c.students} answered · ${cap(c.side)} to move` +
      (closed ? " · closed" : ` · ${Math.max(0, Math.ceil(c.deadline - Date.now() / 1000))} s left`);
    const shown = closed && !judging;  // the verdict, once the time is up and every move judged
    $("answer-bars").replaceChildren(verdictTable(shown ? c.verdict : null, shown ? c.best : null, c.answers, words,
                                                  { right: shown ? c.right_moves : null }));
    $("found-best").textContent = shown ? foundWords(c) : closed ? "The verdict follows when every move is judged." : "";
    $("reveal").hidden = closed;
  }
  // the countdown and the close at the deadline, between two class_state (stopped with the class)
  const countdown = setInterval(() => {
    if (last && last.challenge && last.challenge.open) {
      if (Date.now() / 1000 > last.challenge.deadline) last.challenge.open = false;
      renderChallenge(last.challenge);
    }
  }, 1000);
})();
