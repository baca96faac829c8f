/* Homework on the teacher's dashboard (class-formats.js calls it): positions to solve by a due
 * date (best moves, or predict-the-prune trees), then every student's answer and mark per
 * position, live, and as CSV. */
export function homeworkPanel({ api, el, $, base, q, token, socket }) {
  const panel = $("homework-panel");
  const positions = [];
  const field = (label, input) => el("label", {}, label, input);
  const title = el("input", { value: "Homework", maxlength: "80", dataset: { testid: "homework-title" } });
  const due = el("input", { type: "datetime-local", dataset: { testid: "homework-due-input" } });
  const week = new Date(Date.now() + 7 * 86400e3);
  due.value = new Date(week.getTime() - week.getTimezoneOffset() * 60e3).toISOString().slice(0, 16);
  const atOnce = el("input", { type: "checkbox", dataset: { testid: "homework-at-once" } });
  const kind = el("select", { dataset: { testid: "homework-kind" } },
    el("option", { value: "move", text: "Find the best move" }),
    el("option", { value: "pruned", text: "Predict the prune: which nodes" }),
    el("option", { value: "value", text: "Predict the prune: the root's value" }),
    el("option", { value: "order", text: "Predict the prune: the best order" }));
  const what = el("input", { spellcheck: "false", placeholder: "moves, e.g. 1:1, 3:2", dataset: { testid: "homework-what" } });
  const add = el("button", { type: "button", class: "secondary", text: "Add the position", dataset: { testid: "homework-add" } });
  const listed = el("ol", { dataset: { testid: "homework-positions" } });
  const assign = el("button", { type: "button", class: "primary", text: "Assign to the class", dataset: { testid: "homework-assign" } });
  const note = el("p", { class: "form-error", role: "alert", hidden: true, dataset: { testid: "homework-error" } });
  const results = el("div", { dataset: { testid: "homework-results" } });
  panel.replaceChildren(el("h3", { text: "Homework" }),
    el("p", { class: "format-note", text: "Positions the class answers from anywhere before the due date: a best move (moves from the start of the class's game), or a predict-the-prune tree (leaves as nested lists, e.g. [[[3, 12], [8, 2]], [[4, 6], [14, 5]]])." }),
    el("div", { class: "format-actions" }, field("Title", title), field("Due", due), el("label", { class: "check" }, atOnce, " Show the verdict at once")),
    el("div", { class: "format-actions" }, field("Position", kind), field("Moves or leaves", what), add),
    listed, el("div", { class: "format-actions" }, assign), note, results);
  kind.addEventListener("change", () => {
    what.placeholder = kind.value === "move" ? "moves, e.g. 1:1, 3:2" : "leaves, e.g. [[[3, 12], [8, 2]], [[4, 6], [14, 5]]]";
  });

  function fail(text) { note.textContent = text || ""; note.hidden = !text; }

  add.addEventListener("click", () => {
    fail("");
    if (kind.value === "move") {
      positions.push({ kind: "move", moves: what.value.split(/[\s,]+/).filter(Boolean) });
    } else {
      try { positions.push({ kind: "prune", question: kind.value, tree: JSON.parse(what.value) }); } catch (e) {
        fail("The leaves must be nested lists of numbers, e.g. [[[3, 12], [8, 2]], [[4, 6], [14, 5]]]");
        return;
      }
    }
    what.value = "";
    listed.replaceChildren(...positions.map((p) => el("li", { text: p.kind === "move"
      ? `Best move after ${p.moves.join(", ") || "the start"}` : `Predict the prune (${p.question}): ${JSON.stringify(p.tree)}` })));
  });

  assign.addEventListener("click", async () => {
    fail("");
    const got = await api("POST", `${base}/homework`, { token, title: title.value, due: new Date(due.value).getTime() / 1000,
      verdict: atOnce.checked ? "at_once" : "after_due", positions });
    if (!got.ok) { fail(got.error); return; }
    positions.length = 0;
    listed.replaceChildren();
    refresh();
  });

  const mark = (c) => (c.right == null ? (c.answer == null ? "—" : "sent") : c.right ? "✓" : "✗");

  async function refresh() {
    const got = await api("GET", `${base}/homework-list?${q}`);
    if (!got.ok) return;
    results.replaceChildren(...got.data.homework.slice().reverse().map((h) => el("div", { dataset: { homeworkResults: h.id } },
      el("h4", { text: `${h.title} · due ${new Date(h.due * 1000).toLocaleString()}${h.closed ? " (closed)" : ""}` }),
      el("div", { class: "table-scroll", tabindex: "0", role: "region", "aria-label": `${h.title}: results` }, el("table", { class: "homework-grid" },
        el("caption", { class: "visually-hidden", text: `${h.title}: each student's answers` }),
        el("thead", {}, el("tr", {}, el("th", { scope: "col", text: "Student" }),
          ...h.positions.map((name, i) => el("th", { scope: "col", title: name, text: `#${i + 1}` })),
          el("th", { scope: "col", text: "Score" }))),
        el("tbody", {}, ...h.students.map((s) => el("tr", { dataset: { homeworkStudent: s.name } },
          el("th", { scope: "row", text: s.name }),
          ...s.positions.map((c) => el("td", { class: "num", text: mark(c) })),
          el("td", { class: "num", text: `${s.score} / ${h.positions.length}` })))))),
      el("a", { class: "button-link", href: `${base}/homework/${encodeURIComponent(h.id)}/results.csv?${q}`, download: "", text: "Results (CSV)" }))));
  }

  socket.on("homework_answers", refresh);
  // the list is read once; then only an assignment or a student's answer changes it
  let read = false;
  return { classChanged() { if (!read) { read = true; refresh(); } } };
}
