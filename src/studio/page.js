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
// The box picked last, whose panel shows, and every box picked, in the
// order picked (Shift+click picks a line of boxes, Ctrl+click one more).
let selected = null;
let chosen = [];
let marked = [];
let dragFrom = null;
// Every problem as it stands, with its path and message.
let problemList = [];
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

// Every problem shown at its element: its boxes on the grid, with its
// message in the list just under the grid and in the box's panel, and its
// field among the parts, with its message beside it.
function showAtElements() {
  const under = byId("grid-problems");
  under.replaceChildren();
  for (const problem of problemList) {
    const boxes = boxesOf(problem.path);
    for (const index of boxes) {
      const cell = document.querySelector('#grid .cell[data-box="' + index + '"]') || offGrid(index);
      if (cell) {
        cell.classList.add("faulty");
        cell.title = problem.path + ": " + problem.message;
      }
    }
    if (boxes.length > 0 && template && template.boxes) {
      const names = boxes.map(function (i) { return template.boxes[i].id; }).join(", ");
      const item = make("li");
      const go = make("button", { type: "button", class: "problem" });
      go.append(make("strong", {}, names), ": " + problem.message);
      go.addEventListener("click", function () { showProblem(problem.path); });
      item.append(go);
      under.append(item);
      if (boxes.indexOf(selected) >= 0) {
        const here = byId("selected").querySelector("h3");
        if (here) {
          here.after(make("p", { class: "said-here" }, problem.message));
        }
      }
    }
    const field = fieldOf(problem.path);
    if (field) {
      field.classList.add("faulty");
      field.title = problem.path;
      const note = make("small", { class: "said-here", id: "said-" + field.dataset.key.replace(/[^A-Za-z0-9_-]/g, "-") }, problem.message);
      field.after(note);
      field.setAttribute("aria-describedby", note.id);
    }
  }
  under.hidden = under.children.length === 0;
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
  cell.setAttribute("aria-label", box.id + " off the grid: box " + box.id + " at " + where);
  cell.dataset.box = index;
  if (chosen.indexOf(index) >= 0) {
    cell.classList.add("selected");
  }
  cell.addEventListener("click", function (event) { pick(index, event); });
  grid.append(cell);
  return cell;
}

// The element a problem's path names, to select: a box, or a part's field.
function showProblem(path) {
  marked = boxesOf(path);
  if (marked.length > 0) {
    selected = marked[0];
    chosen = [selected];
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
  problemList = checked.problems;
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

// The next free id after `id`: K14 gives K15, K1a gives K1b, and so on
// past those taken; an id of another shape gives X1, X2…
function nextId(id) {
  const taken = new Set(((template && template.boxes) || []).map(function (b) { return b.id; }));
  const number = /^(.*?)(\d+)$/.exec(id || "");
  if (number) {
    for (let n = Number(number[2]) + 1; ; n++) {
      if (!taken.has(number[1] + n)) {
        return number[1] + n;
      }
    }
  }
  const letter = /^(.*[^a-z])([a-y])$/.exec(id || "");
  if (letter) {
    for (let c = letter[2].charCodeAt(0) + 1; c <= 122; c++) {
      if (!taken.has(letter[1] + String.fromCharCode(c))) {
        return letter[1] + String.fromCharCode(c);
      }
    }
  }
  return freeId();
}

const SYMBOL = { less: "<", greater: ">", different: "≠" };

// The constraints between two boxes side by side, drawn between them as
// the sheet prints them: `<`, `>` and `≠`, the signs of one pair side by
// side along the gap. Sets (the same, all distinct) are not drawn between
// boxes, as the print does not draw them there: the box's panel lists them.
function drawConstraints(grid) {
  const cells = {};
  (template.boxes || []).forEach(function (b) { cells[b.id] = b.cell; });
  const marks = [];
  (template.constraints || []).forEach(function (constraint, i) {
    const kind = Object.keys(constraint)[0];
    const ids = constraintBoxes(constraint);
    if (!SYMBOL[kind]) {
      return;
    }
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
    const mark = make("span", { class: "between", "aria-hidden": "true", title: m.kind + " " + m.ids.join(", ") }, SYMBOL[m.kind]);
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
        // The accessible name starts with the text the cell shows.
        const shown = box.id + " " + (box.pearl === undefined ? "" : box.pearl);
        cell.textContent = shown;
        const icons = (box.icons || []).join(" ");
        if (icons) {
          cell.append(" ", make("small", {}, icons));
        }
        cell.setAttribute(
          "aria-label",
          shown + (icons ? " " + icons : "") + ": box " + box.id + ", pearl " + box.pearl + ", zone " + box.zone +
            (box.group !== undefined ? ", group " + box.group : "") +
            ", column " + (column + 1) + ", row " + (row + 1)
        );
        if (chosen.indexOf(index) >= 0) {
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
      cell.addEventListener("click", function (event) {
        if (dragged) {
          dragged = false;
          return;
        }
        clicked(column, row, event);
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
// One at a time: an edit made while another is on its way waits for it,
// so that an undo or a redo pressed quickly goes against the version the
// edit before it left.
let sending = Promise.resolve();
function send(change) {
  const run = sending.then(function () { return dispatch(change); });
  sending = run.catch(function () {});
  return run;
}

async function dispatch(change) {
  if (unsent && unsent !== change) {
    say("the studio is not answering: send or discard the edit kept first (" + unsent.what + ")");
    return;
  }
  const init = { method: "POST", headers: Object.assign({}, auth) };
  // An undo or a redo goes against whatever this page shows when it is
  // sent; an edit, against the version it was made on.
  const against = change.latest ? version : change.version;
  if (against) {
    init.headers["If-Match"] = '"' + against + '"';
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
  if (standing.version) {
    version = standing.version;
  }
  await refresh(standing);
  say(standing.changed === false ? "nothing changed: " + change.what + " is how it stands already" : change.what);
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
  if (chosen.indexOf(index) < 0) {
    chosen = [index];
  }
  const id = template.boxes[index].id;
  await edit(
    [{ op: "replace", path: "/boxes/" + index + "/cell", value: [column, row] }],
    "moved box " + id + " to column " + (column + 1) + ", row " + (row + 1)
  );
}

// The boxes on the straight line from box `from` to box `to`, in order,
// `from` left out: the boxes a Shift+click picks. Off a line, `to` alone.
function lineOfBoxes(from, to) {
  const a = template.boxes[from].cell;
  const b = template.boxes[to].cell;
  if (!Array.isArray(a) || !Array.isArray(b) || (a[0] !== b[0] && a[1] !== b[1])) {
    return [to];
  }
  const steps = Math.max(Math.abs(b[0] - a[0]), Math.abs(b[1] - a[1]));
  const line = [];
  for (let k = 1; k <= steps; k++) {
    const at = boxAt(a[0] + Math.sign(b[0] - a[0]) * k, a[1] + Math.sign(b[1] - a[1]) * k);
    if (at >= 0) {
      line.push(at);
    }
  }
  return line;
}

// Picks box `index`: alone, or with Shift the line of boxes from the one
// picked last, or with Ctrl (or Cmd) one more, or one less.
function pick(index, event) {
  marked = [];
  if (event && event.shiftKey && selected !== null && selected !== index) {
    for (const i of lineOfBoxes(selected, index)) {
      if (chosen.indexOf(i) < 0) {
        chosen.push(i);
      }
    }
    selected = index;
  } else if (event && (event.ctrlKey || event.metaKey)) {
    if (chosen.indexOf(index) >= 0) {
      chosen = chosen.filter(function (i) { return i !== index; });
    } else {
      chosen.push(index);
    }
    selected = chosen.length > 0 ? chosen[chosen.length - 1] : null;
  } else if (selected === index && chosen.length === 1) {
    selected = null;
    chosen = [];
  } else {
    selected = index;
    chosen = [index];
  }
  drawGrid();
  focusSelected();
}

// What a new box starts as: the zone, group and next id of the box
// picked last, or else of the last box, with pearl 1.
function newBox(column, row) {
  const boxes = (template && template.boxes) || [];
  const like = selected !== null && boxes[selected] ? boxes[selected] : boxes[boxes.length - 1];
  const zones = template.zones || [];
  const box = { id: like ? nextId(like.id) : freeId(), pearl: 1, cell: [column, row] };
  if (like && like.zone !== undefined) {
    box.zone = like.zone;
    if (like.group !== undefined) {
      box.group = like.group;
    }
  } else {
    box.zone = zones[0].id;
    const groups = zones[0].groups || [];
    if (groups.length > 0) {
      box.group = groups[0].id;
    }
  }
  return box;
}

async function addBox(box, what) {
  selected = (template.boxes || []).length;
  chosen = [selected];
  marked = [];
  await edit([{ op: "add", path: "/boxes/-", value: box }], what);
}

// A click on a box picks it; a click on an empty cell adds a box there,
// like the box picked last.
async function clicked(column, row, event) {
  const index = boxAt(column, row);
  if (index >= 0) {
    pick(index, event);
    return;
  }
  if ((template.zones || []).length === 0) {
    say("add a zone first: a box belongs to a zone");
    return;
  }
  const box = newBox(column, row);
  await addBox(box, "added box " + box.id);
}

// The first empty cell after `cell`, row by row, round to the start.
function emptyAfter(cell) {
  const columns = Number(template.grid.columns) || 1;
  const rows = Number(template.grid.rows) || 1;
  const start = Array.isArray(cell) ? cell[1] * columns + cell[0] : 0;
  for (let k = 1; k <= columns * rows; k++) {
    const at = (start + k) % (columns * rows);
    if (boxAt(at % columns, Math.floor(at / columns)) < 0) {
      return [at % columns, Math.floor(at / columns)];
    }
  }
  return null;
}

// A copy of the box picked last, with the next free id, in the first
// empty cell after it.
async function duplicate() {
  const box = template.boxes[selected];
  const cell = emptyAfter(box.cell);
  if (!cell) {
    say("expected an empty cell for the copy, but found the grid full");
    return;
  }
  const copy = Object.assign({}, box, { id: nextId(box.id), cell: cell });
  await addBox(copy, "added box " + copy.id + ", a copy of " + box.id);
}

const CONSTRAINT_KEYS = { "<": "less", ">": "greater", "!": "different", "=": "same", "*": "distinct" };

// Constraints on the boxes picked, in the order picked: `less`, `greater`
// and `different` between each box and the next, `same` and `distinct`
// as one set.
async function constrain(kind) {
  const ids = chosen.map(function (i) { return template.boxes[i].id; });
  if (ids.length < 2) {
    say("pick two boxes or more first: Shift+click or Ctrl+click adds one");
    return;
  }
  const patch = [];
  if (kind === "same" || kind === "distinct") {
    patch.push({ op: "add", path: "/constraints/-", value: { [kind]: ids } });
  } else {
    for (let k = 0; k + 1 < ids.length; k++) {
      patch.push({ op: "add", path: "/constraints/-", value: { [kind]: [ids[k], ids[k + 1]] } });
    }
  }
  if (!template.constraints) {
    patch.unshift({ op: "add", path: "/constraints", value: [] });
  }
  await edit(patch, (patch.length > 1 && kind !== "same" && kind !== "distinct" ? (ids.length - 1) + " constraints " : "constraint ") + kind + " " + ids.join(", "));
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
  const chosenIds = chosen.map(function (i) { return boxesBefore[i] ? boxesBefore[i].id : null; });
  template = current;
  const byBoxId = function (id, index) {
    const found = id === null || !template.boxes ? -1 : template.boxes.findIndex(function (b) { return b.id === id; });
    return found >= 0 ? found : index;
  };
  if (selected !== null) {
    selected = byBoxId(selectedId, selected);
  }
  if (selected !== null && (!template.boxes || !template.boxes[selected])) {
    selected = null;
  }
  // The boxes picked, likewise.
  chosen = chosen.map(function (i, k) { return byBoxId(chosenIds[k], i); })
    .filter(function (i) { return template.boxes && template.boxes[i]; });
  if (selected === null) {
    chosen = [];
  } else if (chosen.indexOf(selected) < 0) {
    chosen = [selected];
  }
  // A field of the box's panel committed by Enter, or a choice made with
  // the pointer, gives the focus back to the grid, for its keys.
  const back = backToGrid;
  backToGrid = false;
  const focused = !back && document.activeElement && document.activeElement.dataset
    ? document.activeElement.dataset.key
    : undefined;
  showChecks(checked);
  // The parts first: drawing the grid marks every problem at its element.
  drawParts();
  drawGrid();
  // How many times the template was drawn: a script driving the page
  // waits for it to pass the count it saw before an edit.
  document.body.dataset.drawn = String(Number(document.body.dataset.drawn || 0) + 1);
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

let backToGrid = false;
// Whether Enter is committing a field of the box's panel.
let entered = false;
// The control last worked with keys (other than Enter) since the pointer
// was last used: its change keeps the focus.
let keyed = null;
document.addEventListener("pointerdown", function () { keyed = null; }, true);
document.addEventListener("keydown", function (event) {
  if (event.key === "Enter" && event.target.closest && event.target.closest("#selected") && event.target.tagName === "INPUT") {
    // Committed (a change, if any, fires as it loses the focus); the
    // key does nothing more, on the cell that takes the focus.
    event.preventDefault();
    entered = true;
    event.target.blur();
    entered = false;
    focusSelected();
  } else if (event.key !== "Enter") {
    keyed = event.target;
  }
}, true);
document.addEventListener("change", function (event) {
  if (event.target.closest && event.target.closest("#selected") && (entered || keyed !== event.target)) {
    backToGrid = true;
  }
}, true);

// The keys of the grid, on whatever has the focus but a field: Ctrl+Z
// undoes, Ctrl+Y and Ctrl+Shift+Z redo; with a box picked, the arrows move
// it, 1 to 6 set its pearl, C and F its crab and frog, D copies it, Delete
// removes the boxes picked, Escape lets them go, and < > ! = * make
// constraints on the boxes picked.
document.addEventListener("keydown", async function (event) {
  const tag = event.target.tagName;
  const typing = tag === "TEXTAREA" || (tag === "INPUT" && event.target.type !== "checkbox");
  if (event.ctrlKey || event.metaKey) {
    const key = event.key.toLowerCase();
    if (typing || event.altKey || (key !== "z" && key !== "y")) {
      return;
    }
    event.preventDefault();
    await undoRedo(key === "y" || event.shiftKey ? "redo" : "undo");
    return;
  }
  if (selected === null || !template.boxes[selected] || typing || tag === "SELECT" || tag === "INPUT") {
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
  } else if (event.key === "Delete" || event.key === "Backspace") {
    event.preventDefault();
    await removeSelected();
  } else if (event.key === "Escape") {
    selected = null;
    chosen = [];
    drawGrid();
  } else if (event.key === "d" || event.key === "D") {
    await duplicate();
  } else if (event.key === "c" || event.key === "C" || event.key === "f" || event.key === "F") {
    await toggleIcon(selected, event.key.toLowerCase() === "c" ? "crab" : "frog");
  } else if (CONSTRAINT_KEYS[event.key]) {
    event.preventDefault();
    await constrain(CONSTRAINT_KEYS[event.key]);
  }
});

async function toggleIcon(index, icon) {
  const box = template.boxes[index];
  const has = (box.icons || []).indexOf(icon) >= 0;
  const icons = (box.icons || []).filter(function (i) { return i !== icon; });
  if (!has) {
    icons.push(icon);
  }
  const at = "/boxes/" + index + "/icons";
  const patch = icons.length > 0 ? [{ op: "add", path: at, value: icons }] : [{ op: "remove", path: at }];
  await edit(patch, (has ? "no " : "a ") + icon + " on box " + box.id);
}

// Removing boxes: each constraint that named one loses it, and goes when
// it is left with fewer than two boxes; one patch.
function removalPatch(indices) {
  const ids = new Set(indices.map(function (i) { return template.boxes[i].id; }));
  const patch = [];
  let gone = 0;
  let trimmed = 0;
  (template.constraints || []).forEach(function (c, j) {
    const kind = Object.keys(c)[0];
    const list = constraintBoxes(c);
    const kept = list.filter(function (id) { return !ids.has(id); });
    if (kept.length === list.length) {
      return;
    }
    if (kept.length < 2 || ["less", "greater", "different"].indexOf(kind) >= 0) {
      patch.unshift({ op: "remove", path: "/constraints/" + j });
      gone++;
    } else {
      patch.unshift({ op: "replace", path: "/constraints/" + j + "/" + kind, value: kept });
      trimmed++;
    }
  });
  indices.slice().sort(function (a, b) { return b - a; }).forEach(function (i) {
    patch.push({ op: "remove", path: "/boxes/" + i });
  });
  let said = "";
  if (gone > 0) {
    said += ", " + gone + (gone === 1 ? " constraint" : " constraints") + " that named " + (ids.size === 1 ? "it" : "them");
  }
  if (trimmed > 0) {
    said += (gone > 0 ? " and " : ", and ") + (ids.size === 1 ? "it" : "them") + " from " + trimmed + (trimmed === 1 ? " set" : " sets");
  }
  return { patch: patch, said: said };
}

async function removeSelected() {
  const indices = chosen.length > 0 ? chosen.slice() : [selected];
  const names = indices.map(function (i) { return template.boxes[i].id; });
  const removal = removalPatch(indices);
  selected = null;
  chosen = [];
  await edit(removal.patch, "removed " + (names.length === 1 ? "box " : "boxes ") + names.join(", ") + removal.said);
}

// A box's new id, carried through every constraint that names it.
function renameBox(index, id) {
  const old = template.boxes[index].id;
  const patch = [{ op: "replace", path: "/boxes/" + index + "/id", value: id }];
  (template.constraints || []).forEach(function (c, j) {
    const kind = Object.keys(c)[0];
    constraintBoxes(c).forEach(function (name, k) {
      if (name === old) {
        patch.push({ op: "replace", path: "/constraints/" + j + "/" + kind + "/" + k, value: id });
      }
    });
  });
  const carried = patch.length - 1;
  return edit(patch, "box " + old + " renamed " + id + (carried > 0 ? ", in " + carried + (carried === 1 ? " constraint" : " constraints") : ""));
}

async function undoRedo(which) {
  await send({ path: "/api/" + which, what: which === "undo" ? "undone" : "redone", latest: true });
}

for (const id of ["undo", "redo"]) {
  byId(id).addEventListener("click", function () { undoRedo(id); });
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
