/* A student's answer to a predict-the-prune question, in a box of its own: the question, the
 * rule, the tree to tap (or the leaves' values to pick), "Send my answer", and once the truth
 * is known each node marked right or wrong. Used by the live puzzle and by homework.
 *
 *   const answer = pruneAnswer(box, { send: async (body) => ({ok, error, answer}), waiting: "words" });
 *   answer.show(view)   // view: {question, title, tree: {nodes, rule}, answer, closed, result, truth?}
 */
import { ArcadeViews } from "./views.js";
import { drawPruneTree, subtree, QUESTION_WORDS } from "./prune-tree.js";

const { el } = ArcadeViews;

export function pruneAnswer(box, { send, waiting = "Answer sent: wait for the reveal." }) {
  const tid = (id) => ({ testid: id });
  const title = el("p", { class: "muted", dataset: tid("prune-title") });
  const question = el("p", { class: "prune-question", dataset: tid("prune-question") });
  const rule = el("p", { class: "prune-rule", dataset: tid("prune-rule") });
  const tree = el("div", { class: "prune-box", dataset: tid("prune-tree") });
  const values = el("div", { class: "prune-values", role: "group", "aria-label": "values on the leaves", dataset: tid("prune-values") });
  const button = el("button", { type: "button", class: "primary", text: "Send my answer", dataset: tid("prune-send") });
  const result = el("span", { class: "prune-result", "aria-live": "polite", dataset: tid("prune-result") });
  box.replaceChildren(title, question, rule, tree, values, el("div", { class: "prune-actions" }, button, result));
  let view = null, picked = new Set(), order = [], value = null;

  function show(v) {
    view = v;
    picked = new Set(v.question === "pruned" && v.answer ? v.answer : []);
    order = v.question === "order" && v.answer ? [...v.answer] : [];
    value = v.question === "value" ? v.answer : null;
    draw();
  }

  function tap(id) {
    if (view.answer != null || view.closed) return;
    if (view.question === "pruned") {
      const on = !picked.has(id);
      for (const n of subtree(view.tree.nodes, id)) { if (on) picked.add(n); else picked.delete(n); }
    } else if (view.question === "order") {
      order = order.includes(id) ? order.filter((x) => x !== id) : [...order, id];
    }
    draw();
  }

  function draw() {
    const done = view.answer != null || view.closed;
    title.textContent = `On ${view.title}.`;
    question.textContent = QUESTION_WORDS[view.question];
    rule.textContent = view.tree.rule;
    const roots = view.tree.nodes.filter((n) => n.parent === "r").map((n) => n.id);
    drawPruneTree(tree, view.tree.nodes, {
      onTap: done || view.question === "value" ? null : tap,
      only: view.question === "order" ? roots : null,
      selected: view.question === "pruned" ? picked : null,
      order: view.question === "order" ? order : null,
      marks: view.result && view.result.marks,
    });
    drawValues(done);
    button.hidden = done;
    result.textContent = resultText();
    result.className = `prune-result ${view.result ? (view.result.right ? "right" : "wrong") : ""}`;
  }

  function drawValues(done) {
    values.hidden = view.question !== "value";
    if (values.hidden) return;
    const seen = new Map();
    for (const n of view.tree.nodes) if (n.value != null) seen.set(n.value, n.value_text);
    values.replaceChildren(...[...seen].sort((a, b) => a[0] - b[0]).map(([v, text]) => {
      const b = el("button", { type: "button", class: "secondary", text, dataset: { value: String(v) } });
      b.setAttribute("aria-pressed", String(value === v));
      b.disabled = done;
      b.addEventListener("click", () => { value = v; drawValues(false); });
      return b;
    }));
  }

  function resultText() {
    const r = view.result;
    if (!view.closed && !r) return view.answer != null ? waiting : "";
    if (!r) return "The answers are revealed (you did not answer).";
    if (view.question === "pruned") return `${r.score} of ${r.out_of} nodes right${r.right ? ": perfect!" : "."}`;
    if (view.question === "value") return `The root's value is ${view.truth ? view.truth.root_value_text : "another"}: ${r.right ? "right!" : "wrong."}`;
    return `Your order visits ${r.visited} nodes; the best visits ${r.best}: ${r.right ? "right!" : "wrong."}`;
  }

  button.addEventListener("click", async () => {
    const body = view.question === "pruned" ? { nodes: [...picked] } : view.question === "value" ? { value } : { order };
    const got = await send(body);
    if (!got.ok) { result.textContent = got.error; return; }
    view.answer = got.answer;
    if (got.result) view.result = got.result;
    draw();
  });

  return { show };
}
