// The studio's page, third part: the print as saved, with render's
// switches, and the quick simulation's figures, polled while a run plays;
// then the page starts.
let previewUrl = null;

// The print's switches as a query: paper, sheets per page, large print
// and names, as `render sheet` takes them.
function look() {
  const query = new URLSearchParams();
  const paper = byId("paper").value;
  if (paper !== "a4") {
    query.set("paper", paper);
  }
  if (template && template.game !== "summertime") {
    if (byId("per-page").value !== "1") {
      query.set("per_page", byId("per-page").value);
    }
    if (byId("large-print").checked) {
      query.set("large_print", "true");
    }
    const names = byId("names").value.split(",").map(function (s) { return s.trim(); }).filter(function (s) { return s !== ""; });
    if (names.length > 0) {
      query.set("names", names.join(","));
    }
  }
  const text = query.toString();
  return text ? "?" + text : "";
}

async function preview() {
  byId("sheet-switches").hidden = !template || template.game === "summertime";
  document.body.classList.toggle("deck", !!template && template.game === "summertime");
  const response = await call("GET", "/preview.svg" + look());
  if (!response.ok) {
    const refused = await response.json().catch(function () { return { error: "no print" }; });
    byId("print-said").textContent = refused.error;
    return;
  }
  // The print is of the file, which keeps its last valid version.
  const said = byId("print-said");
  said.textContent = valid ? "" : "The sheet is not valid now: this is its last valid version, as the file keeps it.";
  said.className = valid ? "" : "stale";
  const blob = await response.blob();
  if (previewUrl) {
    URL.revokeObjectURL(previewUrl);
  }
  previewUrl = URL.createObjectURL(blob);
  byId("preview").src = previewUrl;
}

for (const id of ["paper", "per-page", "large-print", "names"]) {
  byId(id).addEventListener("change", preview);
}

byId("pdf").addEventListener("click", async function () {
  const response = await call("GET", "/print.pdf" + look());
  if (!response.ok) {
    const refused = await response.json();
    say(refused.error);
    return;
  }
  const url = URL.createObjectURL(await response.blob());
  const link = make("a", { href: url, download: ((template && template.name) || "print").replace(/[\/\\:*?"<>|\u0000-\u001f]+/g, "-") + ".pdf" });
  link.click();
  setTimeout(function () { URL.revokeObjectURL(url); }, 1000);
});

// The quick simulation.
let polling = null;

function changeCell(change) {
  const td = make("td");
  if (!change) {
    td.textContent = "—";
    return td;
  }
  td.textContent = change.text;
  if (change.significant) {
    td.className = "significant";
    td.textContent += " *";
  }
  return td;
}

// The rule options of a sheet's games, as the simulation plays them.
const OPTIONS = ["sun_bonus", "skip_placement", "sailboats"];

function showOptions(options) {
  byId("options").hidden = !template || template.game === "summertime";
  for (const name of OPTIONS) {
    const select = byId("option-" + name);
    if (document.activeElement !== select) {
      select.value = options[name];
    }
  }
  byId("option-solo").checked = options.solo;
}

async function chooseOptions() {
  const options = { solo: byId("option-solo").checked };
  for (const name of OPTIONS) {
    options[name] = byId("option-" + name).value;
  }
  const response = await call("PUT", "/api/options", { body: options });
  if (!response.ok) {
    say((await response.json()).error);
    return;
  }
  say("the figures play again under " + OPTIONS.map(function (n) { return n + " " + options[n]; }).join(", ") + (options.solo ? ", solo" : ""));
  await figuresSoon();
}

for (const name of OPTIONS.concat(["solo"])) {
  byId("option-" + name).addEventListener("change", chooseOptions);
}

/** @param {StudioFigures} standing */
function showFigures(standing) {
  showOptions(standing.options);
  const said = byId("figures-said");
  const progress = byId("figures-progress");
  if (standing.waiting) {
    said.textContent = "Waiting: " + standing.waiting + ".";
    progress.hidden = true;
    return;
  }
  progress.hidden = false;
  progress.max = standing.settings.games;
  progress.value = standing.played;
  progress.textContent = standing.played + " of " + standing.settings.games;
  byId("figures-bot").value = standing.settings.bot;
  byId("figures-games").value = standing.settings.games;
  let text = standing.played + " of " + standing.settings.games + " paired games, " +
    standing.players + " players, " + standing.settings.bot + " bots";
  if (standing.first_figures_ms !== null) {
    text += "; first figures in " + standing.first_figures_ms + " ms";
  }
  if (!standing.changed_since_opened) {
    text += "; the file is as it was opened";
  }
  said.textContent = text + (standing.running ? "…" : ".");
  const table = byId("figures-table");
  table.replaceChildren();
  const head = make("tr");
  ["Figure", "Now", "Since opened", "This edit"].forEach(function (h) { head.append(make("th", { scope: "col" }, h)); });
  table.append(head);
  let section = null;
  for (const figure of standing.figures) {
    if (figure.section !== section) {
      section = figure.section;
      const row = make("tr", { class: "section" });
      row.append(make("th", { colspan: "4", scope: "colgroup" }, section));
      table.append(row);
    }
    const row = make("tr");
    row.dataset.figure = figure.id;
    row.append(make("th", { scope: "row" }, figure.label), make("td", {}, figure.text));
    row.append(changeCell(figure.since_opened), changeCell(figure.this_edit));
    table.append(row);
  }
}

async function figuresNow() {
  const response = await call("GET", "/api/figures");
  if (!response.ok) {
    return null;
  }
  /** @type {StudioFigures} */
  const standing = await response.json();
  showFigures(standing);
  return standing;
}

// Polls the figures until the run in flight is played.
async function figuresSoon() {
  if (polling) {
    clearTimeout(polling);
  }
  const standing = await figuresNow();
  if (standing && (standing.running || standing.figures.length === 0) && !standing.waiting) {
    polling = setTimeout(figuresSoon, 300);
  }
}

byId("figures-run").addEventListener("click", async function () {
  const settings = { bot: byId("figures-bot").value, games: Number(byId("figures-games").value) };
  const response = await call("POST", "/api/figures", { body: settings });
  if (!response.ok) {
    say((await response.json()).error);
    return;
  }
  say("the figures play again with " + settings.bot + " bots");
  await figuresSoon();
});

// On a narrow screen, the editor or the print and figures, one tap apart.
for (const [id, side] of [["show-edit", false], ["show-side", true]]) {
  byId(id).addEventListener("click", function () {
    document.body.classList.toggle("side-view", side);
    byId("show-edit").setAttribute("aria-pressed", String(!side));
    byId("show-side").setAttribute("aria-pressed", String(side));
  });
}

// A photo of the sheet under the grid, to trace: read from a local file
// into this tab alone (an object URL), scaled, shifted and faded.
let photoUrl = null;
function placePhoto() {
  const photo = byId("trace-photo");
  const scale = Number(byId("trace-scale").value) / 100;
  byId("trace-scale-said").textContent = Math.round(scale * 100) + "%";
  photo.style.transform = "translate(" + (Number(byId("trace-x").value) || 0) + "px, " + (Number(byId("trace-y").value) || 0) + "px) scale(" + scale + ")";
  photo.style.opacity = String(Number(byId("trace-opacity").value) / 100);
}
byId("trace-file").addEventListener("change", function () {
  const file = byId("trace-file").files[0];
  if (photoUrl) {
    URL.revokeObjectURL(photoUrl);
    photoUrl = null;
  }
  const photo = byId("trace-photo");
  if (!file) {
    photo.hidden = true;
    byId("sheet-area").classList.remove("tracing");
    return;
  }
  photoUrl = URL.createObjectURL(file);
  photo.src = photoUrl;
  photo.hidden = false;
  byId("sheet-area").classList.add("tracing");
  placePhoto();
  say("the photo " + file.name + " is under the grid, in this tab alone");
});
for (const id of ["trace-scale", "trace-x", "trace-y", "trace-opacity"]) {
  byId(id).addEventListener("input", placePhoto);
}
byId("trace-clear").addEventListener("click", function () {
  byId("trace-file").value = "";
  byId("trace-file").dispatchEvent(new Event("change"));
});

refresh(null);
