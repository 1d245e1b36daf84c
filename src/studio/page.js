// The studio's page, first part: talking to the studio, the sheet's grid
// edited by clicks, drags and keys, and the selected box. Every change is
// a JSON Patch posted to the studio, which saves it; the page keeps
// nothing. The token comes in the address the studio printed (?token=),
// is kept in this tab alone, and is taken out of the address bar; the
// studio's cookie lets a reload, or the tab opened again, back in. Every
// edit names the version of the template it was made against (If-Match):
// one made against another is refused, and the page shows the template
// as it stands, says in words what changed, and keeps the edit refused so
// that it can be applied again. The page's own edits go one at a time, each
// against the version the answer before it gave: keys pressed quickly all
// land. An edit the studio did not receive is kept until it is sent or
// discarded. The page asks every few seconds whether the template changed
// elsewhere (another tab, a hand edit), and shows it when it did.
// parts.js draws the other parts of a sheet and a deck; figures.js the
// quick simulation and the print, and starts the page.
// What every page of the servers shares (`web`: elements, the line that
// says what happened, requests) is src/serve/edge/common.js, in front of
// this script in the same strict-mode script.
const params = new URLSearchParams(location.search);
const token = params.get("token") || sessionStorage.getItem("sunfold-studio-token") || "";
sessionStorage.setItem("sunfold-studio-token", token);
history.replaceState(null, "", location.pathname);
// Every request carries the token when the tab has one, and the studio's
// cookie always.
const call = web.client(token);
const byId = web.byId;
const make = web.make;
const button = web.button;
const say = web.sayer("said");
let template = null;
let valid = true;
// The box picked last, whose panel shows, and every box picked, in the
// order picked (Shift+click picks a line of boxes, Ctrl+click one more).
let selected = null;
let chosen = [];
// The box picked before the one picked last, by its id: a constraint key
// pressed with one box picked is made between it and that box.
let pickedBefore = null;
let marked = [];
let dragFrom = null;
// Every problem as it stands, with its path and message.
let problemList = [];
// The version of the template the page shows, from its ETag.
let version = null;
// How many times the page has shown a template it did not make itself
// (the first, one changed in another tab, by hand, or a refusal): an edit
// made since the last of these goes against the version the page's own
// answers have reached since, for nothing else came between.
let epoch = 0;
// Edits queued or on their way.
let pending = 0;
// The edit the studio could not be reached for: { path, body, what, version }.
let unsent = null;
let retrying = null;

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
    mark.style.left = "calc(" + x + " * (var(--cell) + 2px) + " + (dx - 0.5) + "rem)";
    mark.style.top = "calc(" + y + " * (var(--cell) + 2px) + " + (dy - 0.5) + "rem)";
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
  grid.style.setProperty("--columns", String(columns));
  grid.style.gridTemplateColumns = "repeat(" + columns + ", var(--cell))";
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
        inTurn(function () { clicked(column, row, event); });
      });
      grid.append(cell);
    }
  }
  drawConstraints(grid);
  drawSelected();
  showAtElements();
  saySideways(columns);
}

// A grid wider than the screen, even at its smallest cells, scrolls
// sideways: the page says so, and which columns are out of view.
function saySideways(columns) {
  const area = byId("sheet-area");
  const note = byId("grid-scrolls");
  const wide = byId("grid").offsetWidth;
  const shown = Math.floor(columns * area.clientWidth / Math.max(1, wide));
  if (wide > area.clientWidth + 1 && shown < columns) {
    note.textContent = "The grid is wider than the screen: columns " + (shown + 1) + " to " + columns + " are to the right; swipe the grid sideways to reach them.";
    note.hidden = false;
  } else {
    note.hidden = true;
  }
}
window.addEventListener("resize", function () {
  if (template && template.grid) {
    saySideways(Number(template.grid.columns) || 1);
  }
});

// "Pick several": on a touch screen, with no Ctrl or Shift, each box
// tapped is picked with those picked before, or let go.
let several = false;
byId("pick-several").addEventListener("click", function () {
  several = !several;
  byId("pick-several").setAttribute("aria-pressed", String(several));
  say(several ? "pick several: each box tapped is added to those picked, or let go" : "pick several is off: a tap picks one box");
});

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
  const id = template.boxes[from].id;
  inTurn(function () {
    // The box by its id, wherever an edit before this one put it.
    const index = (template.boxes || []).findIndex(function (b) { return b.id === id; });
    if (index >= 0) {
      moveBox(index, column, row);
    }
  });
});

function focusSelected() {
  const cell = document.querySelector(".cell.selected");
  if (cell) {
    cell.focus();
  }
}

async function edit(patch, what) {
  await send({ path: "/api/patch", body: patch, what: what, version: version, epoch: epoch });
}

// Everything the page does to the template, one at a time, in the order
// it was asked: each waits for the answer before it to be drawn.
let sending = Promise.resolve();
function queue(work) {
  const run = sending.then(work);
  sending = run.catch(function () {});
  return run;
}

// Posts an edit (a patch, an undo or a redo), queued. A studio that does
// not answer keeps it unsent; a refusal because the template changed
// elsewhere (409) shows the template as it stands, says what changed, and
// keeps the edit to apply again.
function send(change) {
  pending++;
  let run;
  if (acting) {
    // Made by a key or a click in its turn: sent now, before any later
    // key or click, which waits for it.
    run = acting.tail.then(function () { return dispatch(change); });
    acting.tail = run.catch(function () {});
  } else {
    run = queue(function () { return dispatch(change); });
  }
  return run.finally(function () { pending--; });
}

// A key or a click, done in its turn: after every edit asked before it
// is answered and drawn, so that it reads the template, the boxes picked
// and the version as they now stand; the edits it makes are answered and
// drawn before the next key or click is done.
let acting = null;
function inTurn(action) {
  queue(function () {
    acting = { tail: Promise.resolve() };
    const mine = acting;
    try {
      action();
    } finally {
      acting = null;
    }
    return mine.tail;
  });
}

async function dispatch(change) {
  if (unsent && unsent !== change) {
    say("the studio is not answering: send or discard the edit kept first (" + unsent.what + ")");
    return;
  }
  const headers = {};
  // An undo or a redo goes against whatever this page shows when it is
  // sent; an edit, against the version it was made on, or the one the
  // page's own answers reached since, when nothing else came between.
  const against = change.latest || change.epoch === epoch ? version : change.version;
  const before = template;
  if (against) {
    headers["If-Match"] = '"' + against + '"';
  }
  let response;
  try {
    response = await call("POST", change.path, { body: change.body, headers: headers });
  } catch (error) {
    keepUnsent(change);
    return;
  }
  if (unsent === change) {
    unsent = null;
    showDown();
  }
  if (response.status === 409) {
    /** @type {Pick<ApiRefusal, "error">} */
    const refused = await response.json().catch(function () { return { error: "refused" }; });
    await refresh();
    if (against && version !== against && !change.latest) {
      keepRefused(change, before);
      return;
    }
    say("not applied, and the page now shows the template as it stands: " + refused.error);
    return;
  }
  if (!response.ok) {
    /** @type {Pick<ApiRefusal, "error">} */
    const refused = await response.json().catch(function () { return { error: "refused (" + response.status + ")" }; });
    if (response.status === 401) {
      keepUnsent(change, "The studio does not know this tab: it was started again, with a new address. Open the address it printed, in this tab or another, and this tab is let in again.");
      return;
    }
    say((change.refused || "") + refused.error);
    return;
  }
  /** @type {StudioStanding} */
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
      " Your edit “" + unsent.what + "” is kept, not applied: it is sent when the studio answers again, and applied if the template has not changed since; if it has, the page says what changed and keeps the edit to apply again."),
    button("Send now", function () { send(unsent); }),
    button("Discard", function () {
      const what = unsent.what;
      unsent = null;
      showDown();
      say("discarded: " + what);
    })
  );
}

// An edit refused because the template changed elsewhere since the page
// drew it: the page says what changed, in words, and keeps the edit (what
// was typed with it) to apply again to the template as it stands, its
// boxes, cards, zones and constraints found by their ids.
let refusedEdit = null;
function keepRefused(change, before) {
  const changes = describeChanges(before, template);
  // Pasted rows name their boxes and cards by id: they apply again as
  // they are; a patch is moved onto the template as it stands.
  const again = change.path === "/api/paste" ? change.body
    : Array.isArray(change.body) ? rebase(change.body, before, template) : null;
  refusedEdit = again ? Object.assign({}, change, { body: again, version: version, epoch: epoch }) : null;
  let banner = byId("stale");
  if (!banner) {
    banner = make("div", { id: "stale", role: "alert", class: "down" });
    banner.style.cssText = "position:sticky;top:0;z-index:10;padding:0.5rem;background:#fff3cd;border:2px solid #8a6d00;color:#000";
    document.body.prepend(banner);
  }
  banner.hidden = false;
  const text = "Your edit “" + change.what + "” was not applied: the template changed in another tab (or by an undo, or by hand) since this page showed it. What changed: " +
    changes + ". The page now shows the template as it stands." +
    (again ? " Your edit is kept: apply it again to the template as it stands, or discard it." : " What it edited is gone: it cannot apply again.");
  const buttons = [];
  if (again) {
    buttons.push(button("Apply again", function () {
      const kept = refusedEdit;
      hideRefused();
      if (kept) {
        send(Object.assign({}, kept, { version: version, epoch: epoch }));
      }
    }));
  }
  buttons.push(button(again ? "Discard" : "Close", function () {
    hideRefused();
    say(again ? "discarded: " + change.what : "");
  }));
  banner.replaceChildren(make("p", {}, text), ...buttons);
  say("not applied: the template changed in another tab or by an undo (" + changes + ")");
}

function hideRefused() {
  refusedEdit = null;
  const banner = byId("stale");
  if (banner) {
    banner.hidden = true;
  }
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
  if (selected !== index) {
    pickedOn();
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
  } else if (event && (event.ctrlKey || event.metaKey || several)) {
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
    pickedOn();
    selected = index;
    chosen = [index];
  }
  drawGrid();
  focusSelected();
}

// What a new box at `column`, `row` starts as, with pearl 1: like the
// box picked last, or else the last box, in its zone and group, with its
// next id (K1b after K1a), unless the cell leaves the line that box's
// group makes (the row, or the column, its boxes share): then the box
// starts the group the cell's row or column suggests: the group of the
// zone's boxes already there, or else the zone's next group (when the
// zone has one), with its first id (K2a after K1d); a group as large as
// the zone's group before it is full, and the next box starts the next
// group. The first box of an empty grid is in the first zone and its first
// group, named after them (K1a, or B1 in a zone of bottles).
function newBox(column, row) {
  const boxes = (template && template.boxes) || [];
  const like = selected !== null && boxes[selected] ? boxes[selected] : boxes[boxes.length - 1];
  const zones = template.zones || [];
  const taken = new Set(boxes.map(function (b) { return b.id; }));
  const cell = [column, row];
  if (!like || like.zone === undefined) {
    const zone = zones[0];
    const group = (zone.groups || [])[0];
    const box = { id: freeName(group ? group.id : zonePrefix(zone), taken), pearl: 1, cell: cell, zone: zone.id };
    if (group) {
      box.id = taken.has(group.id + "a") ? freeName(group.id, taken) : group.id + "a";
      box.group = group.id;
    }
    return box;
  }
  const box = { id: nextId(like.id), pearl: 1, cell: cell, zone: like.zone };
  if (like.group === undefined) {
    return box;
  }
  box.group = like.group;
  const same = function (b) { return b.zone === like.zone && b.group === like.group && Array.isArray(b.cell); };
  const line = boxes.filter(same).map(function (b) { return b.cell; });
  const byRow = line.every(function (c) { return c[1] === line[0][1]; });
  const byColumn = line.every(function (c) { return c[0] === line[0][0]; });
  const onLine = line.length === 0 ||
    (line.length === 1 && Math.abs(line[0][0] - column) + Math.abs(line[0][1] - row) === 1) ||
    (line.length > 1 && ((byRow && row === line[0][1]) || (byColumn && column === line[0][0])));
  const z = zones.findIndex(function (zone) { return zone.id === like.zone; });
  const groups = (zones[z] && zones[z].groups) || [];
  const k = groups.findIndex(function (g) { return g.id === like.group; });
  // A group as large as the zone's group before it is full: the next box
  // starts the next group (sailboats of two boxes each, in one row).
  const previous = k > 0 ? groups[k - 1].id : null;
  const full = previous !== null && line.length >= boxes.filter(function (b) {
    return b.zone === like.zone && b.group === previous;
  }).length;
  if (onLine && !full) {
    return box;
  }
  // A box of the zone already on the cell's row (for groups in rows) or
  // column (in columns) names the group; else the group after this one.
  const there = full ? undefined : boxes.find(function (b) {
    return b.zone === like.zone && b.group !== undefined && Array.isArray(b.cell) &&
      (byRow ? b.cell[1] === row : b.cell[0] === column);
  });
  const group = there ? groups.find(function (g) { return g.id === there.group; }) : groups[k + 1];
  if (!group) {
    return box;
  }
  box.group = group.id;
  // The id: the group's own, in the shape of the box it is like (K1d in
  // group K1 makes K2a in group K2), or the next free one.
  const suffix = like.id.indexOf(like.group) === 0 ? like.id.slice(like.group.length) : null;
  const first = suffix === null ? null : group.id + (/^[a-z]$/.test(suffix) ? "a" : /^\d+$/.test(suffix) ? "1" : suffix);
  box.id = first && !taken.has(first) ? first : (there ? nextId(there.id) : nextId(like.id));
  return box;
}

// The prefix of the ids of a zone's boxes: its kind's (B for bottles, G
// for seagulls), or the first letter of its id.
function zonePrefix(zone) {
  const kind = typeof KINDS !== "undefined" && KINDS[zone.kind] ? KINDS[zone.kind] : {};
  return kind.box || kind.group || zone.id.slice(0, 1).toUpperCase();
}

// The box picked now becomes the box picked before.
function pickedOn() {
  const boxes = (template && template.boxes) || [];
  pickedBefore = selected !== null && boxes[selected] ? boxes[selected].id : null;
}

async function addBox(box, what) {
  pickedOn();
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
// With one box picked, the constraint is between the box picked before
// it and it: K1b added after K1a, then <, makes K1a less than K1b.
async function constrain(kind) {
  let ids = chosen.map(function (i) { return template.boxes[i].id; });
  const before = (template.boxes || []).some(function (b) { return b.id === pickedBefore; });
  if (ids.length === 1 && before && pickedBefore !== ids[0]) {
    ids = [pickedBefore, ids[0]];
  }
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
/** @param {StudioStanding} [standing] */
async function refresh(standing) {
  if (!standing) {
    epoch++;
  }
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
// Each key is done in its turn (see inTurn): a key pressed before the
// answer to the one before it applies to the template that answer left.
const MOVES = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
document.addEventListener("keydown", function (event) {
  const tag = event.target.tagName;
  const typing = tag === "TEXTAREA" || (tag === "INPUT" && event.target.type !== "checkbox");
  if (event.ctrlKey || event.metaKey) {
    const key = event.key.toLowerCase();
    if (typing || event.altKey || (key !== "z" && key !== "y")) {
      return;
    }
    event.preventDefault();
    undoRedo(key === "y" || event.shiftKey ? "redo" : "undo");
    return;
  }
  if (typing || tag === "SELECT" || tag === "INPUT" || !template) {
    return;
  }
  // A box is picked, or is about to be by a click still in its turn.
  if (selected === null && pending === 0) {
    return;
  }
  if (MOVES[event.key] || event.key === "Delete" || event.key === "Backspace" || CONSTRAINT_KEYS[event.key]) {
    event.preventDefault();
  }
  inTurn(function () { boxKey(event); });
});

// A key on the box picked (and the boxes picked with it).
function boxKey(event) {
  if (selected === null || !template.boxes || !template.boxes[selected]) {
    return;
  }
  const box = template.boxes[selected];
  const moves = MOVES;
  if (moves[event.key] && Array.isArray(box.cell)) {
    const column = box.cell[0] + moves[event.key][0];
    const row = box.cell[1] + moves[event.key][1];
    const columns = Number(template.grid && template.grid.columns) || 1;
    const rows = Number(template.grid && template.grid.rows) || 1;
    if (column < 0 || row < 0 || column >= columns || row >= rows) {
      const way = { ArrowLeft: "left", ArrowRight: "right", ArrowUp: "up", ArrowDown: "down" }[event.key];
      say("box " + box.id + " is at the edge of the grid: it cannot move " + way + " (make the grid larger first)");
      return;
    }
    moveBox(selected, column, row);
  } else if (/^[1-6]$/.test(event.key)) {
    edit([{ op: "replace", path: "/boxes/" + selected + "/pearl", value: Number(event.key) }], "pearl " + event.key + " on box " + box.id);
  } else if (event.key === "Delete" || event.key === "Backspace") {
    removeSelected();
  } else if (event.key === "Escape") {
    selected = null;
    chosen = [];
    drawGrid();
  } else if (event.key === "d" || event.key === "D") {
    duplicate();
  } else if (event.key === "c" || event.key === "C" || event.key === "f" || event.key === "F") {
    toggleIcon(selected, event.key.toLowerCase() === "c" ? "crab" : "frog");
  } else if (CONSTRAINT_KEYS[event.key]) {
    constrain(CONSTRAINT_KEYS[event.key]);
  }
}

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
  const patch = renaming(index, id);
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
      epoch: epoch,
      body: { text: text }
    });
  });
}
listenForPastedRows();
