/* Homework on a student's phone (class-formats-student.js calls it): every homework of the
 * class with its due date; each position answered here (a board to tap the best move on, or a
 * predict-the-prune tree) until the due date; the verdict once the teacher lets it be seen. */
import { ArcadeClass } from "./classroom-common.js";

export function homeworkPart({ api, el, $, me, base, q, socket, pruneAnswer }) {
  const { drawBoard, challengeState, moveWords, moveText } = ArcadeClass;
  const list = $("homework-list");

  async function refresh() {
    const got = await api("GET", `${base()}/homework?${q()}`);
    if (got.ok) draw(got.data.homework);
  }

  function draw(all) {
    $("homework-student").hidden = !all || !all.length;
    if (!all) return;
    list.replaceChildren(...all.slice().reverse().map(homework));
  }

  function homework(h) {
    const due = new Date(h.due * 1000);
    const done = h.positions.filter((p) => p.answer != null).length;
    return el("article", { class: "homework", dataset: { homework: h.id } },
      el("h3", { text: h.title }),
      el("p", { dataset: { testid: "homework-due" }, text: h.closed
        ? `Was due ${due.toLocaleString()}: closed. ${done} of ${h.positions.length} answered.`
        : `Due ${due.toLocaleString()}. ${done} of ${h.positions.length} answered.` }),
      ...h.positions.map((p, i) => position(h, p, i)));
  }

  function position(h, p, i) {
    const box = el("div", { class: "homework-position card", dataset: { position: String(i) } },
      el("h4", { text: `Position ${i + 1}: ${p.kind === "move" ? "find the best move" : "predict the prune"}` }));
    const send = async (body) => {
      const got = await api("POST", `${base()}/homework/${encodeURIComponent(h.id)}/answers`, { token: me.token, position: i, ...body });
      if (got.ok) setTimeout(refresh, 0);
      return { ok: got.ok, error: got.error, answer: got.ok ? got.data.answer : null, result: got.ok ? got.data.result : null };
    };
    if (p.kind === "prune") {
      const inner = el("div");
      box.append(inner);
      const waiting = h.verdict === "at_once" ? "Answer sent." : "Answer sent: the verdict comes after the due date.";
      pruneAnswer(inner, { send, waiting }).show({ ...p, closed: h.closed || p.answer != null && p.right != null });
      return box;
    }
    const state = challengeState({ ...p, id: `${h.id}-${i}` });
    const board = el("div", { class: "board challenge-board" });
    const words = el("p", { class: "prune-result", "aria-live": "polite" });
    box.append(board, words);
    const open = !h.closed && p.answer == null;
    setTimeout(() => drawBoard(board, state, { seat: state.to_move, canMove: open, play: async (move) => {
      const got = await send({ move });
      if (!got.ok) words.textContent = got.error;
    } }));
    if (p.answer != null) {
      const said = moveText(p.answer, moveWords(state));
      words.textContent = p.right == null ? `Your answer: ${said}.`
        : `Your answer: ${said}: ${p.right ? "a best move!" : `not the best (best: ${p.best.join(", ")})`}`;
      words.className = `prune-result ${p.right == null ? "" : p.right ? "right" : "wrong"}`;
    } else {
      words.textContent = h.closed ? "Not answered." : `${ArcadeClass.cap(p.side)} to move: tap the best move.`;
    }
    return box;
  }

  socket.on("homework_new", refresh);
  return { show(data) { draw(data.homework); } };
}
