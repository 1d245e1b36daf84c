"use strict";
// The studio's page: the grid of the sheet to edit by clicks and keys,
// the printed page, and the checks, kept current. Every change is a JSON
// Patch posted to the studio, which saves it; the page keeps nothing. The
// token comes in the address the studio printed (?token=), is kept in
// this tab alone, and is taken out of the address bar.
(function () {
  const params = new URLSearchParams(location.search);
  const token = params.get("token") || sessionStorage.getItem("sunfold-studio-token") || "";
  sessionStorage.setItem("sunfold-studio-token", token);
  history.replaceState(null, "", location.pathname);
  const auth = { Authorization: "Bearer " + token };
  const byId = function (id) { return document.getElementById(id); };
  let template = null;
  let selected = null;
  let marked = [];
  let previewUrl = null;

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

  async function preview() {
    const response = await call("GET", "/preview.svg");
    if (!response.ok) {
      return;
    }
    const blob = await response.blob();
    if (previewUrl) {
      URL.revokeObjectURL(previewUrl);
    }
    previewUrl = URL.createObjectURL(blob);
    byId("preview").src = previewUrl;
  }

  // Where a problem is: the boxes it names, by index.
  function boxesOf(path) {
    const box = /^boxes\[(\d+)\]/.exec(path);
    if (box) {
      return [Number(box[1])];
    }
    const constraint = /^constraints\[(\d+)\]/.exec(path);
    if (constraint && template && template.constraints) {
      const c = template.constraints[Number(constraint[1])];
      const ids = c ? Object.values(c)[0] : [];
      return (template.boxes || [])
        .map(function (b, i) { return ids.indexOf(b.id) >= 0 ? i : -1; })
        .filter(function (i) { return i >= 0; });
    }
    return [];
  }

  function showChecks(checked) {
    const verdict = byId("verdict");
    verdict.textContent = checked.valid
      ? "Valid: saved"
      : "Not valid: the file keeps its last valid version";
    verdict.className = checked.valid ? "valid" : "invalid";
    const list = byId("problems");
    list.replaceChildren();
    const all = checked.problems.concat(checked.warnings);
    for (const problem of all) {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.className = "problem";
      const path = document.createElement("code");
      path.textContent = problem.path;
      button.append(path, " " + problem.message);
      button.addEventListener("click", function () {
        marked = boxesOf(problem.path);
        if (marked.length > 0) {
          selected = marked[0];
        }
        drawGrid();
        focusSelected();
      });
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

  function freeId() {
    const taken = new Set(((template && template.boxes) || []).map(function (b) { return b.id; }));
    for (let n = 1; ; n++) {
      if (!taken.has("X" + n)) {
        return "X" + n;
      }
    }
  }

  function drawGrid() {
    const grid = byId("grid");
    grid.replaceChildren();
    if (!template || template.game !== "soleils" || !template.grid) {
      byId("editor").hidden = true;
      return;
    }
    byId("editor").hidden = false;
    const columns = Number(template.grid.columns) || 1;
    const rows = Number(template.grid.rows) || 1;
    grid.style.gridTemplateColumns = "repeat(" + columns + ", 3.2rem)";
    for (let row = 0; row < rows; row++) {
      for (let column = 0; column < columns; column++) {
        const cell = document.createElement("button");
        cell.type = "button";
        cell.className = "cell";
        cell.dataset.column = column;
        cell.dataset.row = row;
        const index = boxAt(column, row);
        if (index >= 0) {
          const box = template.boxes[index];
          cell.classList.add("box");
          cell.dataset.box = index;
          cell.textContent = box.id + " " + (box.pearl === undefined ? "" : box.pearl);
          cell.setAttribute(
            "aria-label",
            "box " + box.id + ", pearl " + box.pearl + ", zone " + box.zone + ", column " + (column + 1) + ", row " + (row + 1)
          );
          if (index === selected) {
            cell.classList.add("selected");
            cell.setAttribute("aria-pressed", "true");
          }
          if (marked.indexOf(index) >= 0) {
            cell.classList.add("marked");
          }
        } else {
          cell.setAttribute("aria-label", "empty cell, column " + (column + 1) + ", row " + (row + 1));
        }
        cell.addEventListener("click", function () { clicked(column, row); });
        grid.append(cell);
      }
    }
    drawSelected();
  }

  function drawSelected() {
    const panel = byId("selected");
    if (selected === null || !template.boxes[selected]) {
      panel.hidden = true;
      return;
    }
    panel.hidden = false;
    const box = template.boxes[selected];
    byId("selected-name").textContent = "Box " + box.id + " in " + box.zone;
    byId("pearl").value = String(box.pearl);
  }

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
      const id = template.boxes[selected].id;
      await edit(
        [{ op: "replace", path: "/boxes/" + selected + "/cell", value: [column, row] }],
        "moved box " + id
      );
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

  async function refresh(response) {
    const [current, checked] = await Promise.all([
      call("GET", "/api/template").then(function (r) { return r.json(); }),
      response ? response.json() : call("GET", "/api/check").then(function (r) { return r.json(); })
    ]);
    template = current;
    if (selected !== null && (!template.boxes || !template.boxes[selected])) {
      selected = null;
    }
    showChecks(checked);
    drawGrid();
    focusSelected();
    await preview();
  }

  document.addEventListener("keydown", async function (event) {
    if (selected === null || event.target.tagName === "SELECT") {
      return;
    }
    const box = template.boxes[selected];
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (moves[event.key] && Array.isArray(box.cell)) {
      event.preventDefault();
      const to = [box.cell[0] + moves[event.key][0], box.cell[1] + moves[event.key][1]];
      await edit([{ op: "replace", path: "/boxes/" + selected + "/cell", value: to }], "moved box " + box.id);
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

  byId("pearl").addEventListener("change", async function () {
    const value = Number(byId("pearl").value);
    await edit([{ op: "replace", path: "/boxes/" + selected + "/pearl", value: value }], "pearl " + value);
  });
  byId("remove").addEventListener("click", removeSelected);
  byId("undo").addEventListener("click", async function () {
    await refresh(await call("POST", "/api/undo"));
  });
  byId("redo").addEventListener("click", async function () {
    await refresh(await call("POST", "/api/redo"));
  });
  byId("pdf").addEventListener("click", async function () {
    const response = await call("GET", "/print.pdf");
    if (!response.ok) {
      return;
    }
    const url = URL.createObjectURL(await response.blob());
    const link = document.createElement("a");
    link.href = url;
    link.download = "print.pdf";
    link.click();
    setTimeout(function () { URL.revokeObjectURL(url); }, 1000);
  });
  refresh(null);
})();
