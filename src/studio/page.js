"use strict";
// The studio's page, first part: talking to the studio, the sheet's grid
// edited by clicks, drags and keys, and the selected box. Every change is
// a JSON Patch posted to the studio, which saves it; the page keeps
// nothing. The token comes in the address the studio printed (?token=),
// is kept in this tab alone, and is taken out of the address bar; the
// studio's cookie lets a reload, or the tab opened again, back in. Every
// edit names the version of the template it was made against (If-Match):
// one made against another is refused, and the page shows the template
// as it stands and says why. An edit the studio did not receive is kept
// until it is sent or discarded.
// parts.js draws the other parts of a sheet and a deck; figures.js the
// quick simulation and the print, and starts the page.
const params = new URLSearchParams(location.search);
const token = params.get("token") || sessionStorage.getItem("sunfold-studio-token") || "";
sessionStorage.setItem("sunfold-studio-token", token);
history.replaceState(null, "", location.pathname);
const auth = token ? { Authorization: "Bearer " + token } : {};
const byId = function (id) { return document.getElementById(id); };
let template = null;
let valid = true;
let selected = null;
let marked = [];
let dragFrom = null;
// The paths of every problem and warning as they stand.
let problemPaths = [];
// The version of the template the page shows, from its ETag.
let version = null;
// The edit the studio could not be reached for: { path, body, what, version }.
let unsent = null;
let retrying = null;

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
      const cell = document.querySelector('#grid .cell[data-box="' + index + '"]') || offGrid(index);
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

// A box with no cell on the grid (off it, in a file edited by hand): a
// button after the grid's cells, to show its problem at and to select it.
function offGrid(index) {
  const grid = byId("grid");
  const box = template && template.boxes && template.boxes[index];
  if (!box || grid.children.length === 0) {
    return null;
  }
  const where = Array.isArray(box.cell) ? "[" + box.cell.join(", ") + "]" : "no cell";
  const cell = make("button", { type: "button", class: "cell box off-grid" }, box.id + " off the grid");
  cell.setAttribute("aria-label", "box " + box.id + ", off the grid at " + where);
  cell.dataset.box = index;
  if (index === selected) {
    cell.classList.add("selected");
  }
  cell.addEventListener("click", function () {
    selected = selected === index ? null : index;
    marked = [];
    drawGrid();
    focusSelected();
  });
  grid.append(cell);
  return cell;
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
  await send({ path: "/api/patch", body: patch, what: what, version: version });
}

// Posts an edit (a patch, an undo or a redo) made against `version`. A
// studio that does not answer keeps it unsent; a refusal because the
// template changed (409) shows the template as it stands, and says why.
async function send(change) {
  if (unsent && unsent !== change) {
    say("the studio is not answering: send or discard the edit kept first (" + unsent.what + ")");
    return;
  }
  const init = { method: "POST", headers: Object.assign({}, auth) };
  if (change.version) {
    init.headers["If-Match"] = '"' + change.version + '"';
  }
  if (change.body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(change.body);
  }
  let response;
  try {
    response = await fetch(change.path, init);
  } catch (error) {
    keepUnsent(change);
    return;
  }
  if (unsent === change) {
    unsent = null;
    showDown();
  }
  if (response.status === 409) {
    const refused = await response.json().catch(function () { return { error: "refused" }; });
    await refresh();
    say("not applied, and the page now shows the template as it stands: " + refused.error);
    return;
  }
  if (!response.ok) {
    const refused = await response.json().catch(function () { return { error: "refused (" + response.status + ")" }; });
    if (response.status === 401) {
      keepUnsent(change, refused.error);
      return;
    }
    say((change.refused || "") + refused.error);
    return;
  }
  const standing = await response.json();
  say(standing.changed === false ? "nothing changed: " + change.what + " is how it stands already" : change.what);
  await refresh(standing);
}

// The banner that says the studio is not answering, with the edit kept.
function showDown(why) {
  let banner = byId("down");
  if (!unsent) {
    if (banner) {
      banner.hidden = true;
    }
    clearInterval(retrying);
    retrying = null;
    return;
  }
  if (!banner) {
    banner = make("div", { id: "down", role: "alert", class: "down" });
    banner.style.cssText = "position:sticky;top:0;z-index:10;padding:0.5rem;background:#fff3cd;border:2px solid #8a6d00;color:#000";
    document.body.prepend(banner);
  }
  banner.hidden = false;
  banner.replaceChildren(
    make("p", {}, (why || "The studio is not answering (is sunfold studio still running?).") +
      " Your edit “" + unsent.what + "” is kept, not applied: it is sent when the studio answers again."),
    retryButton("Send now", function () { send(unsent); }),
    retryButton("Discard", function () {
      const what = unsent.what;
      unsent = null;
      showDown();
      say("discarded: " + what);
    })
  );
}

function retryButton(text, action) {
  const b = make("button", { type: "button" }, text);
  b.addEventListener("click", action);
  return b;
}

function keepUnsent(change, why) {
  unsent = change;
  showDown(why);
  say("not sent: " + change.what);
  if (!retrying) {
    retrying = setInterval(function () {
      if (unsent) {
        send(unsent);
      }
    }, 3000);
  }
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
async function refresh(standing) {
  const [current, checked] = await Promise.all([
    call("GET", "/api/template").then(function (r) {
      version = (r.headers.get("ETag") || "").replace(/"/g, "") || null;
      return r.json();
    }),
    standing ? standing : call("GET", "/api/check").then(function (r) { return r.json(); })
  ]);
  // The box selected stays selected by its id, wherever its index went
  // (a box before it removed in another tab); by its index when its id
  // changed.
  const boxesBefore = (template && template.boxes) || [];
  const selectedId = selected !== null && boxesBefore[selected] ? boxesBefore[selected].id : null;
  template = current;
  if (selectedId !== null && template.boxes) {
    const found = template.boxes.findIndex(function (b) { return b.id === selectedId; });
    if (found >= 0) {
      selected = found;
    }
  }
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
    const column = box.cell[0] + moves[event.key][0];
    const row = box.cell[1] + moves[event.key][1];
    const columns = Number(template.grid && template.grid.columns) || 1;
    const rows = Number(template.grid && template.grid.rows) || 1;
    if (column < 0 || row < 0 || column >= columns || row >= rows) {
      const way = { ArrowLeft: "left", ArrowRight: "right", ArrowUp: "up", ArrowDown: "down" }[event.key];
      say("box " + box.id + " is at the edge of the grid: it cannot move " + way + " (make the grid larger first)");
      return;
    }
    await moveBox(selected, column, row);
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
    await send({ path: "/api/" + id, what: what, version: version });
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
    // As every edit: against the version shown, kept while the studio is
    // down, and a refusal said.
    await send({
      path: "/api/paste",
      what: "pasted the rows as one edit",
      refused: "nothing pasted: ",
      version: version,
      body: { text: text }
    });
  });
}
listenForPastedRows();
