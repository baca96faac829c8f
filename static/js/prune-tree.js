/* A predict-the-prune tree, drawn as the tree page draws one (▲ MAX, ▼ MIN, leaves with their
 * values, ✂ for pruned nodes), in a shape that fits: top down where it is wide enough, an
 * outline (each leaf a row, depth to the right) on a phone, so that every node is a tap target
 * of at least 40 px there.
 *
 *   drawPruneTree(root, nodes, { onTap, selected, marks, counts, values, order })
 * nodes: preorder {id, parent, depth, kind, move, value_text?}. Each node is drawn as
 * <g data-node="r.0.1">; tappable ones are buttons (role, aria-pressed, Enter/Space). */
import { Teach } from "./teach-common.js";

const { svg } = Teach;
const KIND = { max: "▲ MAX", min: "▼ MIN" };
const MARK_WORDS = { right: "✓ right", wrong: "✗ wrong", pruned: "✂ pruned" };

function geometry(nodes, width) {
  const leaves = nodes.filter((n) => !nodes.some((c) => c.parent === n.id));
  const depth = Math.max(...nodes.map((n) => n.depth));
  const down = width >= 44 * leaves.length + 20;
  const w = down ? Math.min(84, Math.floor((width - 20) / leaves.length) - 6) : Math.min(84, Math.floor((width - 20) / (depth + 1)) - 10);
  const h = 44;
  const gapX = down ? 6 : 10, gapY = down ? 34 : 6;
  const slots = new Map();
  let next = 0;
  const place = (n) => {
    const kids = nodes.filter((c) => c.parent === n.id);
    if (!kids.length) { slots.set(n.id, next++); return; }
    kids.forEach(place);
    slots.set(n.id, down ? (slots.get(kids[0].id) + slots.get(kids[kids.length - 1].id)) / 2 : slots.get(kids[0].id));
  };
  place(nodes[0]);
  const pos = new Map(nodes.map((n) => {
    const s = slots.get(n.id);
    return [n.id, down ? { x: 10 + s * (w + gapX), y: 24 + n.depth * (h + gapY) }
      : { x: 10 + n.depth * (w + gapX), y: 10 + s * (h + gapY) }];
  }));
  const across = down ? 20 + leaves.length * (w + gapX) : 20 + (depth + 1) * (w + gapX);
  const tall = down ? 34 + (depth + 1) * (h + gapY) : 20 + leaves.length * (h + gapY);
  return { down, w, h, pos, width: across, height: tall };
}

function nodeWords(n, opts) {
  const where = n.id === "r" ? "the root" : `node ${n.id} (after ${pathMoves(n, opts.byId).join(", ")})`;
  const kind = n.kind === "max" ? "MAX" : n.kind === "min" ? "MIN" : "leaf";
  const value = n.value_text != null ? ` value ${n.value_text}` : "";
  const m = opts.marks && opts.marks[n.id];
  const mark = m === "pruned" ? ", never visited" : m ? `, your answer is ${m}` : "";
  const count = opts.counts ? `, ${opts.counts[n.id] || 0} predicted pruned` : "";
  return `${kind} ${where}${value}${mark}${count}`;
}

function pathMoves(n, byId) {
  const moves = [];
  for (let at = n; at && at.move != null; at = byId.get(at.parent)) moves.unshift(at.move);
  return moves;
}

export function drawPruneTree(root, nodes, opts = {}) {
  const width = Math.max(300, root.clientWidth || 360);
  const geo = geometry(nodes, width);
  const byId = new Map(nodes.map((n) => [n.id, n]));
  opts = { ...opts, byId };
  const box = svg("svg", { class: "prune-tree", viewBox: `0 0 ${geo.width} ${geo.height}`, width: geo.width,
    height: geo.height, role: "group", "aria-label": "the game tree" });
  const edges = svg("g", { class: "edges" });
  box.append(edges);
  for (const n of nodes) {
    if (n.parent == null) continue;
    const a = geo.pos.get(n.parent), b = geo.pos.get(n.id);
    const [x1, y1, x2, y2] = geo.down ? [a.x + geo.w / 2, a.y + geo.h, b.x + geo.w / 2, b.y] : [a.x + 14, a.y + geo.h, b.x, b.y + geo.h / 2];
    const d = geo.down ? `M${x1},${y1} L${x2},${y2}` : `M${x1},${y1} L${x1},${y2} L${x2},${y2}`;
    edges.append(svg("path", { d, class: "edge", dataset: { edge: n.id } }));
    if (n.move != null && geo.down) {
      edges.append(svg("text", { class: "edge-move", x: (x1 + x2) / 2 + 4, y: (y1 + y2) / 2 + 4, text: n.move }));
    }
  }
  for (const n of nodes) box.append(drawNode(n, geo, opts));
  root.replaceChildren(box);
  return box;
}

function drawNode(n, geo, opts) {
  const p = geo.pos.get(n.id);
  const tappable = opts.onTap && n.id !== "r" && (!opts.only || opts.only.includes(n.id));
  const classes = ["pn", `k-${n.kind}`];
  if (opts.selected && opts.selected.has(n.id)) classes.push("picked");
  if (opts.marks && opts.marks[n.id]) classes.push(`mark-${opts.marks[n.id]}`);
  const g = svg("g", { class: classes.join(" "), transform: `translate(${p.x},${p.y})`, dataset: { node: n.id } });
  g.append(svg("rect", { class: "pn-box", width: geo.w, height: geo.h, rx: n.kind === "max" || n.kind === "min" ? 10 : 3 }));
  const label = n.value_text != null && (n.kind === "leaf" || n.kind === "terminal") ? n.value_text
    : (opts.values && opts.values[n.id] != null ? opts.values[n.id] : KIND[n.kind] || "");
  g.append(svg("text", { class: "pn-label", x: geo.w / 2, y: 20, "text-anchor": "middle", text: label }));
  const sub = opts.marks && opts.marks[n.id] ? MARK_WORDS[opts.marks[n.id]]
    : opts.counts ? `${opts.counts[n.id] || 0} ✂` : opts.order && opts.order.includes(n.id) ? `#${opts.order.indexOf(n.id) + 1}`
      : opts.selected && opts.selected.has(n.id) ? "✂ pruned" : !geo.down && n.move != null ? n.move : "";
  // (a leading space: the two lines read as two words, "▼ MIN L", not "▼ MINL")
  g.append(svg("text", { class: "pn-sub", x: geo.w / 2, y: 37, "text-anchor": "middle", text: sub ? ` ${sub}` : "" }));
  if (!tappable) g.append(svg("title", { text: nodeWords(n, opts) }));  // (a button's name says it)
  if (opts.marks && opts.marks[n.id]) g.dataset.mark = opts.marks[n.id];
  if (tappable) {
    g.setAttribute("role", "button");
    g.setAttribute("tabindex", "0");
    // the name starts with what the node shows (speech users say what they see)
    g.setAttribute("aria-label", `${label}${sub ? ` ${sub}` : ""}, ${nodeWords(n, opts)}`);
    if (opts.selected) g.setAttribute("aria-pressed", String(opts.selected.has(n.id)));
    g.addEventListener("click", () => opts.onTap(n.id));
    g.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); opts.onTap(n.id); }
    });
  }
  return g;
}

/** Every node below ``id`` (itself included). */
export function subtree(nodes, id) {
  const out = [id];
  for (const n of nodes) if (out.includes(n.parent)) out.push(n.id);
  return out;
}

export const QUESTION_WORDS = {
  pruned: "Tap every node alpha-beta never visits (tapping a node takes its subtree with it).",
  value: "Which value does alpha-beta return at the root?",
  order: "Tap the root's children in the order that prunes the most.",
};
