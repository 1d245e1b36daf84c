"use strict";
// The studio's page, first part: talking to the studio, the sheet's grid
// edited by clicks, drags and keys, and the selected box. Every change is
// a JSON Patch posted to the studio, which saves it; the page keeps
// nothing. The token comes in the address the studio printed (?token=),
// is kept in this tab alone, and is taken out of the address bar.
// parts.js draws the other parts of a sheet and a deck; figures.js the
// quick simulation and the print, and starts the page.
const params = new URLSearchParams(location.search);
const token = params.get("token") || sessionStorage.getItem("sunfold-studio-token") || "";
sessionStorage.setItem("sunfold-studio-token", token);
history.replaceState(null, "", location.pathname);
const auth = { Authorization: "Bearer " + token };
const byId = function (id) { return document.getElementById(id); };
let template = null;
let valid = true;
let selected = null;
let marked = [];
let dragFrom = null;
// The paths of every problem and warning as they stand.
let problemPaths = [];

function say(text) {
  byId("said").textContent = text;
}

async function call(method, path, body) {
  const init = { method: method, headers: Object.assign({}, auth) };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  return fetch(path, init);
}

// An element made with its text and attributes.
function make(tag, attributes, text) {
  const element = document.createElement(tag);
  for (const name of Object.keys(attributes || {})) {
    element.setAttribute(name, attributes[name]);
  }
  if (text !== undefined) {
    element.textContent = text;
  }
  return element;
}

// Where a problem is: the boxes it names, by index.
function boxesOf(path) {
  const box = /^boxes\[(\d+)\]/.exec(path);
  if (box) {
    return [Number(box[1])];
  }
  const constraint = /^constraints\[(\d+)\]/.exec(path);
  if (constraint && template && template.constraints) {
    const ids = constraintBoxes(template.constraints[Number(constraint[1])]);
    return (template.boxes || [])
      .map(function (b, i) { return ids.indexOf(b.id) >= 0 ? i : -1; })
      .filter(function (i) { return i >= 0; });
  }
  return [];
}

// The box ids a constraint names.
function constraintBoxes(constraint) {
  if (!constraint || typeof constraint !== "object") {
    return [];
  }
  const ids = Object.values(constraint)[0];
  return Array.isArray(ids) ? ids : [];
}

// The field a problem's path names, or the first inside it.
function fieldOf(path) {
  const prefix = path.replace(/\[(\d+)\]/g, ".$1");
  const fields = Array.from(document.querySelectorAll("[data-key]"));
  return fields.find(function (f) { return f.dataset.key === prefix; }) ||
    fields.find(function (f) { return f.dataset.key.indexOf(prefix + ".") === 0; });
}

// Every problem shown at its element: its boxes on the grid, and its
// field among the parts, each with the problem's path as its title.
function showAtElements() {
  for (const path of problemPaths) {
    for (const index of boxesOf(path)) {
      const cell = document.querySelector('#grid .cell[data-box="' + index + '"]');
      if (cell) {
        cell.classList.add("faulty");
        cell.title = path;
      }
    }
    const field = fieldOf(path);
    if (field) {
      field.classList.add("faulty");
      field.title = path;
    }
  }
}

// The element a problem's path names, to select: a box, or a part's field.
function showProblem(path) {
  marked = boxesOf(path);
  if (marked.length > 0) {
    selected = marked[0];
    drawGrid();
    focusSelected();
    return;
  }
  const field = fieldOf(path);
  if (field) {
    field.classList.add("marked");
    field.focus();
  }
}

function showChecks(checked) {
  valid = checked.valid;
  const verdict = byId("verdict");
  verdict.textContent = checked.valid
    ? "Valid: saved"
    : "Not valid: the file keeps its last valid version";
  verdict.className = checked.valid ? "valid" : "invalid";
  const list = byId("problems");
  list.replaceChildren();
  const all = checked.problems.concat(checked.warnings);
  problemPaths = checked.problems.map(function (p) { return p.path; });
  for (const problem of all) {
    const item = make("li");
    const button = make("button", { type: "button", class: "problem" });
    button.append(make("code", {}, problem.path), " " + problem.message);
    button.addEventListener("click", function () { showProblem(problem.path); });
    item.append(button);
    list.append(item);
  }
  byId("undo").disabled = checked.undo === 0;
  byId("redo").disabled = checked.redo === 0;
}

function boxAt(column, row) {
  const boxes = (template && template.boxes) || [];
  return boxes.findIndex(function (b) {
    return Array.isArray(b.cell) && b.cell[0] === column && b.cell[1] === row;
  });
}

// The first of prefix1, prefix2, … that `taken` lacks.
function freeName(prefix, taken) {
  for (let n = 1; ; n++) {
    if (!taken.has(prefix + n)) {
      return prefix + n;
    }
  }
}

function freeId() {
  return freeName("X", new Set(((template && template.boxes) || []).map(function (b) { return b.id; })));
}

const SYMBOL = { less: "<", greater: ">", different: "≠", same: "=", distinct: "≠" };

// The constraints between two boxes side by side, drawn between them as
// the sheet prints them: the signs of one pair side by side along the gap.
function drawConstraints(grid) {
  const cells = {};
  (template.boxes || []).forEach(function (b) { cells[b.id] = b.cell; });
  const marks = [];
  (template.constraints || []).forEach(function (constraint, i) {
    const kind = Object.keys(constraint)[0];
    const ids = constraintBoxes(constraint);
    for (let k = 0; k + 1 < ids.length; k++) {
      const a = cells[ids[k]];
      const b = cells[ids[k + 1]];
      if (!Array.isArray(a) || !Array.isArray(b)) {
        continue;
      }
      const across = a[1] === b[1] && Math.abs(a[0] - b[0]) === 1;
      const down = a[0] === b[0] && Math.abs(a[1] - b[1]) === 1;
      if (!across && !down) {
        continue;
      }
      const pair = [String(a), String(b)].sort().join("|");
      marks.push({ i: i, kind: kind, ids: ids, a: a, b: b, across: across, pair: pair });
    }
  });
  marks.forEach(function (m) {
    const same = marks.filter(function (o) { return o.pair === m.pair; });
    const shift = (same.indexOf(m) - (same.length - 1) / 2) * 1.1;
    const mark = make("span", { class: "between", "aria-hidden": "true", title: m.kind + " " + m.ids.join(", ") }, SYMBOL[m.kind] || "?");
    const x = (m.a[0] + m.b[0]) / 2 + 0.5;
    const y = (m.a[1] + m.b[1]) / 2 + 0.5;
    const dx = m.across ? 0 : shift;
    const dy = m.across ? shift : 0;
    mark.style.left = "calc(" + x + " * (3.2rem + 2px) + " + (dx - 0.5) + "rem)";
    mark.style.top = "calc(" + y + " * (3.2rem + 2px) + " + (dy - 0.5) + "rem)";
    if (marked.length > 0 && m.ids.some(function (id) { return marked.indexOf((template.boxes || []).findIndex(function (bx) { return bx.id === id; })) >= 0; })) {
      mark.classList.add("marked");
    }
    mark.dataset.constraint = m.i;
    grid.append(mark);
  });
}

function drawGrid() {
  const grid = byId("grid");
  grid.replaceChildren();
  if (!template || template.game !== "soleils" || !template.grid) {
    byId("editor").hidden = true;
    showAtElements();
    return;
  }
  byId("editor").hidden = false;
  const columns = Number(template.grid.columns) || 1;
  const rows = Number(template.grid.rows) || 1;
  grid.style.gridTemplateColumns = "repeat(" + columns + ", 3.2rem)";
  for (let row = 0; row < rows; row++) {
    for (let column = 0; column < columns; column++) {
      const cell = make("button", { type: "button", class: "cell" });
      cell.dataset.column = column;
      cell.dataset.row = row;
      const index = boxAt(column, row);
      if (index >= 0) {
        const box = template.boxes[index];
        cell.classList.add("box");
        cell.dataset.box = index;
        cell.textContent = box.id + " " + (box.pearl === undefined ? "" : box.pearl);
        if ((box.icons || []).length > 0) {
          cell.append(make("small", { "aria-hidden": "true" }, box.icons.join(" ")));
        }
        cell.setAttribute(
          "aria-label",
          box.id + " " + box.pearl + ": box " + box.id + ", pearl " + box.pearl + ", zone " + box.zone +
            ((box.icons || []).length ? ", " + box.icons.join(" and ") : "") +
            ", column " + (column + 1) + ", row " + (row + 1)
        );
        if (index === selected) {
          cell.classList.add("selected");
          cell.setAttribute("aria-pressed", "true");
        }
        if (marked.indexOf(index) >= 0) {
          cell.classList.add("marked");
        }
        cell.addEventListener("pointerdown", function () { dragFrom = index; });
      } else {
        cell.setAttribute("aria-label", "empty cell, column " + (column + 1) + ", row " + (row + 1));
      }
      cell.addEventListener("click", function () {
        if (dragged) {
          dragged = false;
          return;
        }
        clicked(column, row);
      });
      grid.append(cell);
    }
  }
  drawConstraints(grid);
  drawSelected();
  showAtElements();
}

// A box dragged onto another cell moves there, snapped to the grid: the
// cell under the pointer where it is let go.
let dragged = false;
document.addEventListener("pointerup", function (event) {
  const from = dragFrom;
  dragFrom = null;
  if (from === null || !template || !template.boxes[from]) {
    return;
  }
  const under = document.elementFromPoint(event.clientX, event.clientY);
  const cell = under && under.closest ? under.closest("#grid .cell") : null;
  if (!cell) {
    return;
  }
  const column = Number(cell.dataset.column);
  const row = Number(cell.dataset.row);
  const at = template.boxes[from].cell;
  if (Array.isArray(at) && at[0] === column && at[1] === row) {
    return;
  }
  dragged = true;
  setTimeout(function () { dragged = false; }, 0);
  moveBox(from, column, row);
});

function focusSelected() {
  const cell = document.querySelector(".cell.selected");
  if (cell) {
    cell.focus();
  }
}

async function edit(patch, what) {
  const response = await call("POST", "/api/patch", patch);
  if (!response.ok) {
    const refused = await response.json();
    say(refused.error);
    return;
  }
  say(what);
  await refresh(response);
}

async function moveBox(index, column, row) {
  if (boxAt(column, row) >= 0) {
    say("that cell holds a box already");
    return;
  }
  selected = index;
  const id = template.boxes[index].id;
  await edit(
    [{ op: "replace", path: "/boxes/" + index + "/cell", value: [column, row] }],
    "moved box " + id + " to column " + (column + 1) + ", row " + (row + 1)
  );
}

async function clicked(column, row) {
  const index = boxAt(column, row);
  if (index >= 0) {
    selected = selected === index ? null : index;
    marked = [];
    drawGrid();
    focusSelected();
    return;
  }
  if (selected !== null) {
    await moveBox(selected, column, row);
    return;
  }
  const zones = template.zones || [];
  if (zones.length === 0) {
    say("add a zone first: a box belongs to a zone");
    return;
  }
  const id = freeId();
  selected = (template.boxes || []).length;
  await edit(
    [{ op: "add", path: "/boxes/-", value: { id: id, pearl: 1, cell: [column, row], zone: zones[0].id } }],
    "added box " + id
  );
}

// The studio's answer after an edit (or the checks, at first), then the
// template as it stands: every part is drawn again from it.
async function refresh(response) {
  const [current, checked] = await Promise.all([
    call("GET", "/api/template").then(function (r) { return r.json(); }),
    response ? response.json() : call("GET", "/api/check").then(function (r) { return r.json(); })
  ]);
  template = current;
  if (selected !== null && (!template.boxes || !template.boxes[selected])) {
    selected = null;
  }
  const focused = document.activeElement && document.activeElement.dataset
    ? document.activeElement.dataset.key
    : undefined;
  showChecks(checked);
  // The parts first: drawing the grid marks every problem at its element.
  drawParts();
  drawGrid();
  if (focused) {
    const again = document.querySelector('[data-key="' + CSS.escape(focused) + '"]');
    if (again) {
      again.focus();
    }
  } else {
    focusSelected();
  }
  await Promise.all([preview(), faces(), figuresSoon()]);
}

document.addEventListener("keydown", async function (event) {
  const tag = event.target.tagName;
  if (selected === null || tag === "SELECT" || tag === "INPUT" || tag === "TEXTAREA") {
    return;
  }
  const box = template.boxes[selected];
  const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  if (moves[event.key] && Array.isArray(box.cell)) {
    event.preventDefault();
    await moveBox(selected, box.cell[0] + moves[event.key][0], box.cell[1] + moves[event.key][1]);
  } else if (/^[1-6]$/.test(event.key)) {
    await edit([{ op: "replace", path: "/boxes/" + selected + "/pearl", value: Number(event.key) }], "pearl " + event.key + " on box " + box.id);
  } else if (event.key === "Delete") {
    await removeSelected();
  } else if (event.key === "Escape") {
    selected = null;
    drawGrid();
  }
});

async function removeSelected() {
  const id = template.boxes[selected].id;
  const at = selected;
  selected = null;
  await edit([{ op: "remove", path: "/boxes/" + at }], "removed box " + id);
}

for (const [id, what] of [["undo", "undone"], ["redo", "redone"]]) {
  byId(id).addEventListener("click", async function () {
    const response = await call("POST", "/api/" + id);
    if (!response.ok) {
      say((await response.json()).error);
      return;
    }
    await refresh(response);
    say(what);
  });
}

// Rows pasted from a spreadsheet onto the sheet's grid or the deck's card
// table (cells separated by tabs, as spreadsheets copy them, with or
// without their header row): the studio makes them one edit, replacing the
// box or card of each row's id and adding the others. A paste of a single
// value into a field is left to the field.
function listenForPastedRows() {
  document.addEventListener("paste", async function (event) {
    const target = event.target;
    if (!target || !target.closest || !target.closest("#grid, #editor, table.cards")) {
      return;
    }
    const text = event.clipboardData ? event.clipboardData.getData("text/plain") : "";
    if (!/[\t\n]/.test(text.replace(/\s+$/, ""))) {
      return;
    }
    event.preventDefault();
    const response = await call("POST", "/api/paste", { text: text });
    if (!response.ok) {
      say("nothing pasted: " + (await response.json()).error);
      return;
    }
    await refresh(response);
    say("pasted the rows as one edit");
  });
}
listenForPastedRows();
