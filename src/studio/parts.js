// The studio's page, second part: the selected box, and every other part
// of a sheet (its name, grid, zones and groups, constraints, sun track,
// end) or of a deck (its cards in a table, each with its face as it
// prints, the closing cards, items, pictures, tiles and rules), each field
// a form control whose change is one JSON Patch.

// A JSON Pointer from a path of keys and indexes.
function pointer(path) {
  return "/" + path.map(function (p) { return String(p).replace(/~/g, "~0").replace(/\//g, "~1"); }).join("/");
}

// The value at a path of keys and indexes in the template, if any.
function valueAt(path) {
  let at = template;
  for (const key of path) {
    if (at === null || typeof at !== "object") {
      return undefined;
    }
    at = at[key];
  }
  return at;
}

// The key `template check` writes for a path: zones[0].groups[1].name.
function keyOf(path) {
  return path.map(function (p) { return String(p); }).join(".");
}

// A labelled control for the value at `path`, edited on change: by
// `commit(value)` when given, else by one patch of that value.
function field(label, path, value, kind, options, commit) {
  const wrap = make("label", { class: "field" });
  wrap.append(make("span", {}, label));
  let input;
  if (kind === "select" || kind === "select-number") {
    input = make("select");
    for (const option of options) {
      const o = make("option", { value: option[0] }, option[1]);
      input.append(o);
    }
    input.value = value === undefined ? "" : String(value);
  } else if (kind === "textarea") {
    input = make("textarea", { rows: "2" });
    input.value = value === undefined ? "" : value;
  } else {
    input = make("input", { type: kind === "number" ? "number" : "text" });
    input.value = value === undefined ? "" : (Array.isArray(value) ? value.join(", ") : value);
  }
  input.dataset.key = keyOf(path);
  input.addEventListener("change", function () {
    let next = input.value;
    if (kind === "number" || kind === "select-number") {
      next = Number(next);
    } else if (kind === "list") {
      next = next.split(",").map(function (s) { return s.trim(); }).filter(function (s) { return s !== ""; });
    } else if (kind === "textarea" && next === "") {
      edit([{ op: "remove", path: pointer(path) }], label + " removed");
      return;
    }
    if (commit) {
      commit(next);
      return;
    }
    // A value that is there is replaced: `add` at an array's index would
    // insert one more (a card's fourth cost tile).
    edit([{ op: valueAt(path) === undefined ? "add" : "replace", path: pointer(path), value: next }], label + ": " + input.value);
  });
  wrap.append(input);
  return wrap;
}

// A reward of a sheet: starfish or seashells with a count, or a bonus
// digit; `optional` offers none at all.
function rewardField(label, path, reward, optional) {
  const wrap = make("fieldset", { class: "reward" });
  wrap.append(make("legend", {}, label));
  let kind = "none";
  let count = 1;
  if (reward === "bonus_digit") {
    kind = "bonus_digit";
  } else if (reward && typeof reward === "object") {
    kind = Object.keys(reward)[0];
    count = reward[kind];
  }
  const kinds = [["starfish", "starfish"], ["seashells", "seashells"], ["bonus_digit", "a bonus digit"]];
  if (optional) {
    kinds.unshift(["none", "none"]);
  }
  const select = make("select", { "aria-label": label + ": kind" });
  for (const k of kinds) {
    select.append(make("option", { value: k[0] }, k[1]));
  }
  select.value = kind;
  select.dataset.key = keyOf(path);
  const number = make("input", { type: "number", min: "1", "aria-label": label + ": how many" });
  number.value = count;
  number.dataset.key = keyOf(path) + ".count";
  number.hidden = kind === "none" || kind === "bonus_digit";
  const save = function () {
    const k = select.value;
    if (k === "none") {
      edit([{ op: "remove", path: pointer(path) }], label + ": none");
      return;
    }
    const value = k === "bonus_digit" ? "bonus_digit" : { [k]: Number(number.value) || 1 };
    edit([{ op: "add", path: pointer(path), value: value }], label + ": " + (k === "bonus_digit" ? "a bonus digit" : (Number(number.value) || 1) + " " + k));
  };
  select.addEventListener("change", save);
  number.addEventListener("change", save);
  wrap.append(select, number);
  return wrap;
}

function section(title) {
  const s = make("section", { class: "part" });
  s.append(make("h3", {}, title));
  return s;
}

const ZONE_KINDS = [["cabins", "beach cabins"], ["koinobori", "koinobori"], ["sailboats", "sailboats"], ["bottles", "messages in a bottle"], ["seagulls", "seagulls"]];
const CONSTRAINT_KINDS = [["less", "< less than"], ["greater", "> greater than"], ["different", "≠ different"], ["same", "= the same"], ["distinct", "all distinct"]];

// The zone of id `zone`, and its index.
function zoneOf(zone) {
  const zones = template.zones || [];
  const index = zones.findIndex(function (z) { return z.id === zone; });
  return { zone: zones[index], index: index };
}

// A box's id in the shape of the zone or group it moves to, when its id
// is in the shape of the one it leaves (an id a click gave, not one
// typed): B5 leaving the bottles for group K1 becomes K1a, K3e leaving
// group K3 for group C1 becomes C1a, V3c leaving group V3 for the seagulls
// becomes G1; K25 for group C1 becomes C11. Null when it keeps its id.
function idFor(box, zone, group) {
  const left = zoneOf(box.zone).zone;
  const was = box.group !== undefined ? box.group : (left ? zonePrefix(left) : null);
  if (!was || box.id.indexOf(was) !== 0) {
    return null;
  }
  const suffix = box.id.slice(was.length);
  if (!/^([a-z]|\d+)$/.test(suffix)) {
    return null;
  }
  const prefix = group !== undefined ? group : zonePrefix(zone);
  const letters = /\d$/.test(prefix) && !(box.group !== undefined && /^\d+$/.test(suffix));
  const taken = new Set(template.boxes.filter(function (b) { return b !== box; }).map(function (b) { return b.id; }));
  for (let n = 0; n < 26; n++) {
    const id = prefix + (letters ? String.fromCharCode(97 + n) : String(n + 1));
    if (!taken.has(id)) {
      return id === box.id ? null : id;
    }
  }
  return null;
}

// The edits that rename box `index` to `id`, carried through every
// constraint that names it, and what they say.
function renaming(index, id) {
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
  return patch;
}

// A box moved to another zone: it takes that zone's first group, or none,
// and an id in its shape when a click gave it its id (see idFor).
function moveToZone(index, zone) {
  const box = template.boxes[index];
  const at = "/boxes/" + index;
  const to = zoneOf(zone).zone || { id: zone };
  const groups = to.groups || [];
  const patch = [{ op: "replace", path: at + "/zone", value: zone }];
  if (groups.length > 0) {
    patch.push({ op: "add", path: at + "/group", value: groups[0].id });
  } else if (box.group !== undefined) {
    patch.push({ op: "remove", path: at + "/group" });
  }
  const id = idFor(box, to, groups.length > 0 ? groups[0].id : undefined);
  edit(patch.concat(id ? renaming(index, id) : []), "box " + box.id + " in zone " + zone + (groups.length > 0 ? ", group " + groups[0].id : "") + (id ? ", named " + id : ""));
}

// A box moved to another group of its zone, named in its shape likewise.
function moveToGroup(index, group) {
  const box = template.boxes[index];
  const id = idFor(box, zoneOf(box.zone).zone, group);
  const patch = [{ op: box.group === undefined ? "add" : "replace", path: "/boxes/" + index + "/group", value: group }];
  edit(patch.concat(id ? renaming(index, id) : []), "box " + box.id + " in group " + group + (id ? ", named " + id : ""));
}

// The panel of several boxes picked: the constraints to make on them.
function drawChosen(panel) {
  const ids = chosen.map(function (i) { return template.boxes[i].id; });
  panel.append(make("h3", {}, ids.length + " boxes picked: " + ids.join(", ")));
  panel.append(make("p", { class: "help" }, "In the order picked. Each pair side by side: < less, > greater, ! different; the whole set: = the same, * all distinct."));
  const kinds = [["less", "< each less than the next"], ["greater", "> each greater than the next"], ["different", "! each different from the next"], ["same", "= all the same"], ["distinct", "* all distinct"]];
  for (const k of kinds) {
    panel.append(button(k[1], function () { constrain(k[0]); }));
  }
  panel.append(make("p", {}), button("Remove the " + ids.length + " boxes", removeSelected));
}

function drawSelected() {
  const panel = byId("selected");
  panel.replaceChildren();
  if (selected === null || !template.boxes || !template.boxes[selected]) {
    panel.hidden = true;
    return;
  }
  panel.hidden = false;
  if (chosen.length > 1) {
    drawChosen(panel);
    return;
  }
  const box = template.boxes[selected];
  const index = selected;
  const at = ["boxes", selected];
  panel.append(make("h3", {}, "Box " + box.id));
  panel.append(field("Id", at.concat("id"), box.id, "text", null, function (id) { renameBox(index, id); }));
  panel.append(field("Pearl", at.concat("pearl"), box.pearl, "select-number", [1, 2, 3, 4, 5, 6].map(function (n) { return [String(n), String(n)]; })));
  const zones = (template.zones || []).map(function (z) { return [z.id, z.name + " (" + z.id + ")"]; });
  panel.append(field("Zone", at.concat("zone"), box.zone, "select", zones, function (zone) { moveToZone(index, zone); }));
  const zone = zoneOf(box.zone).zone;
  const groups = ((zone && zone.groups) || []).map(function (g) { return [g.id, g.name + " (" + g.id + ")"]; });
  if (groups.length > 0 || box.group !== undefined) {
    const group = field("Group", at.concat("group"), box.group, "select", [["", "none"]].concat(groups));
    group.querySelector("select").addEventListener("change", function (event) {
      event.stopImmediatePropagation();
      if (event.target.value === "") {
        edit([{ op: "remove", path: pointer(at.concat("group")) }], "box " + box.id + " in no group");
      } else {
        moveToGroup(index, event.target.value);
      }
    }, true);
    panel.append(group);
  }
  for (const icon of ["crab", "frog"]) {
    const has = (box.icons || []).indexOf(icon) >= 0;
    const check = make("input", { type: "checkbox" });
    check.checked = has;
    check.dataset.key = keyOf(at) + ".icons." + icon;
    check.addEventListener("change", function () { toggleIcon(index, icon); });
    const label = make("label", { class: "check" });
    label.append(check, " " + (icon === "crab" ? "Crab (C)" : "Frog (F)"));
    panel.append(label);
  }
  // Its constraints, and a new one from it.
  const list = make("ul", { class: "constraints" });
  (template.constraints || []).forEach(function (c, i) {
    const ids = constraintBoxes(c);
    if (ids.indexOf(box.id) < 0) {
      return;
    }
    const kind = Object.keys(c)[0];
    const item = make("li", {}, kind + " " + ids.join(", ") + " ");
    item.append(button("Remove", function () {
      edit([{ op: "remove", path: "/constraints/" + i }], "removed the constraint " + kind + " " + ids.join(", "));
    }, { "aria-label": "remove the constraint " + kind + " " + ids.join(", ") }));
    list.append(item);
  });
  panel.append(make("h4", {}, "Constraints"), list);
  const kind = make("select", { "aria-label": "new constraint: kind" });
  CONSTRAINT_KINDS.forEach(function (k) { kind.append(make("option", { value: k[0] }, k[1])); });
  const other = make("select", { "aria-label": "new constraint: the other box" });
  (template.boxes || []).forEach(function (b) {
    if (b.id !== box.id) {
      other.append(make("option", { value: b.id }, b.id));
    }
  });
  panel.append(kind, other, button("Add the constraint", function () {
    edit([{ op: "add", path: "/constraints/-", value: { [kind.value]: [box.id, other.value] } }], "constraint " + kind.value + " " + box.id + ", " + other.value);
  }));
  panel.append(make("p", { class: "help" }, "Shift+click picks the boxes on a line up to another, Ctrl+click one more: then < > ! = * make constraints on them."));
  panel.append(button("Copy the box (D)", duplicate), " ", button("Remove the box", removeSelected));
}

// A list of parts with remove (by `remove(item, i)` when given) and, with
// `up`, a button to move each one before the one above it.
function listOf(parent, items, path, title, draw, remove, up) {
  items.forEach(function (item, i) {
    const box = make("fieldset", { class: "item" });
    box.append(make("legend", {}, title(item, i)));
    draw(box, item, path.concat(i));
    box.append(button("Remove", function () {
      if (remove) {
        remove(item, i);
        return;
      }
      edit([{ op: "remove", path: pointer(path.concat(i)) }], "removed " + title(item, i));
    }, { "aria-label": "remove " + title(item, i) }));
    if (up && i > 0) {
      box.append(" ", button("Move up", function () {
        edit([{ op: "move", from: pointer(path.concat(i)), path: pointer(path.concat(i - 1)) }], title(item, i) + " moved up");
      }, { "aria-label": "move up " + title(item, i) }));
    }
    parent.append(box);
  });
}

// What a new zone of each kind starts as, as the printed 62 Soleils sheet
// has it: its name, flag, and its groups' ids, names and rewards.
const KINDS = {
  koinobori: { name: "Koinobori", flag: { starfish: 6 }, group: "K", groupName: "Koinobori ", reward: { seashells: 1 } },
  cabins: { name: "Beach cabins", flag: { starfish: 4 }, group: "C", groupName: "Cabin ", reward: { starfish: 1 } },
  bottles: { name: "Messages in a bottle", flag: { seashells: 2 }, box: "B" },
  sailboats: { name: "Sailboats", flag: { starfish: 4 }, group: "V", groupName: "Sailboat " },
  seagulls: { name: "Seagulls", flag: { starfish: 5 }, box: "G" }
};

// A zone's new id, carried through every box in it.
function renameZone(index, id) {
  const old = template.zones[index].id;
  const patch = [{ op: "replace", path: "/zones/" + index + "/id", value: id }];
  (template.boxes || []).forEach(function (b, k) {
    if (b.zone === old) {
      patch.push({ op: "replace", path: "/boxes/" + k + "/zone", value: id });
    }
  });
  const carried = patch.length - 1;
  edit(patch, "zone " + old + " renamed " + id + (carried > 0 ? ", in " + carried + (carried === 1 ? " box" : " boxes") : ""));
}

// A group's new id, carried through every box in it.
function renameGroup(zoneIndex, index, id) {
  const zone = template.zones[zoneIndex];
  const old = zone.groups[index].id;
  const patch = [{ op: "replace", path: "/zones/" + zoneIndex + "/groups/" + index + "/id", value: id }];
  (template.boxes || []).forEach(function (b, k) {
    if (b.zone === zone.id && b.group === old) {
      patch.push({ op: "replace", path: "/boxes/" + k + "/group", value: id });
    }
  });
  const carried = patch.length - 1;
  edit(patch, "group " + old + " renamed " + id + (carried > 0 ? ", in " + carried + (carried === 1 ? " box" : " boxes") : ""));
}

// A zone removed with its boxes, and their constraints: one patch, named
// in full, that Undo takes back.
function removeZone(zone, index) {
  const boxes = [];
  (template.boxes || []).forEach(function (b, k) {
    if (b.zone === zone.id) {
      boxes.push(k);
    }
  });
  const names = boxes.map(function (k) { return template.boxes[k].id; });
  const removal = boxes.length > 0 ? removalPatch(boxes) : { patch: [], said: "" };
  selected = null;
  chosen = [];
  edit(removal.patch.concat([{ op: "remove", path: "/zones/" + index }]),
    "removed zone " + zone.id + (names.length > 0 ? " and its " + (names.length === 1 ? "box " : names.length + " boxes ") + names.join(", ") + removal.said : ""));
}

// A group removed: its boxes stay in its zone, in no group.
function removeGroup(zoneIndex, group, index) {
  const zone = template.zones[zoneIndex];
  const patch = [];
  const names = [];
  (template.boxes || []).forEach(function (b, k) {
    if (b.zone === zone.id && b.group === group.id) {
      patch.push({ op: "remove", path: "/boxes/" + k + "/group" });
      names.push(b.id);
    }
  });
  patch.push({ op: "remove", path: "/zones/" + zoneIndex + "/groups/" + index });
  edit(patch, "removed group " + group.id + (names.length > 0 ? "; " + names.join(", ") + (names.length === 1 ? " is" : " are") + " in no group now" : ""));
}

function drawSheetParts(root) {
  const t = template;
  const about = section("The sheet");
  about.append(field("Name", ["name"], t.name, "text"), field("Notes", ["notes"], t.notes, "textarea"));
  about.append(field("Columns", ["grid", "columns"], t.grid && t.grid.columns, "number"));
  about.append(field("Rows", ["grid", "rows"], t.grid && t.grid.rows, "number"));
  root.append(about);

  const zones = section("Zones and groups");
  listOf(zones, t.zones || [], ["zones"], function (z) { return "Zone " + z.name; }, function (box, z, at) {
    const zoneIndex = at[1];
    box.append(field("Id", at.concat("id"), z.id, "text", null, function (id) { renameZone(zoneIndex, id); }), field("Name", at.concat("name"), z.name, "text"));
    box.append(field("Kind", at.concat("kind"), z.kind, "select", ZONE_KINDS));
    box.append(rewardField("Flag reward", at.concat("flag"), z.flag, false));
    listOf(box, z.groups || [], at.concat("groups"), function (g) { return "Group " + g.name; }, function (gbox, g, gat) {
      gbox.append(field("Id", gat.concat("id"), g.id, "text", null, function (id) { renameGroup(zoneIndex, gat[3], id); }), field("Name", gat.concat("name"), g.name, "text"));
      gbox.append(rewardField("Reward", gat.concat("reward"), g.reward, true));
    }, function (g, i) { removeGroup(zoneIndex, g, i); });
    box.append(button("Add a group", function () {
      // Named as the printed sheet names a group of this kind (K1, K2…),
      // with the last group's reward, or that kind's.
      const kind = KINDS[z.kind] || {};
      const taken = new Set((t.zones || []).flatMap(function (zz) { return (zz.groups || []).map(function (g) { return g.id; }); }));
      const prefix = kind.group || z.id.slice(0, 1).toUpperCase() + "G";
      const id = freeName(prefix, taken);
      const group = { id: id, name: (kind.groupName || "Group ") + id.slice(prefix.length) };
      const last = (z.groups || [])[(z.groups || []).length - 1];
      const reward = last ? last.reward : kind.reward;
      if (reward !== undefined) {
        group.reward = reward;
      }
      const patch = z.groups
        ? [{ op: "add", path: pointer(at.concat("groups", "-")), value: group }]
        : [{ op: "add", path: pointer(at.concat("groups")), value: [group] }];
      edit(patch, "added group " + id);
    }, { "aria-label": "add a group to zone " + z.name }));
  }, removeZone, true);
  const add = make("p", { class: "add-zone" }, "Add a zone: ");
  for (const [kind, label] of ZONE_KINDS) {
    add.append(button(label, function () {
      const taken = new Set((t.zones || []).map(function (z) { return z.id; }));
      const id = taken.has(kind) ? freeName(kind, taken) : kind;
      const zone = { id: id, name: KINDS[kind].name, kind: kind, flag: KINDS[kind].flag };
      edit([{ op: "add", path: "/zones/-", value: zone }], "added zone " + id);
    }, { "aria-label": "add a zone of " + label }), " ");
  }
  zones.append(add);
  root.append(zones);

  const constraints = section("Constraints");
  listOf(constraints, t.constraints || [], ["constraints"], function (c) {
    return (Object.keys(c)[0] || "constraint") + " " + constraintBoxes(c).join(", ");
  }, function (box, c, at) {
    const kind = Object.keys(c)[0];
    const kindField = field("Kind", at, kind, "select", CONSTRAINT_KINDS);
    kindField.querySelector("select").addEventListener("change", function (event) {
      event.stopImmediatePropagation();
      let ids = constraintBoxes(c);
      const pair = ["less", "greater", "different"].indexOf(event.target.value) >= 0;
      if (pair) {
        ids = ids.slice(0, 2);
      }
      edit([{ op: "replace", path: pointer(at), value: { [event.target.value]: ids } }], "constraint made " + event.target.value);
    }, true);
    box.append(kindField, field("Boxes, in order", at.concat(kind), constraintBoxes(c), "list"));
  });
  root.append(constraints);

  const sun = section("The sun track");
  sun.append(field("Slots", ["sun", "slots"], t.sun && t.sun.slots, "number"));
  listOf(sun, (t.sun && t.sun.thresholds) || [], ["sun", "thresholds"], function (th) { return "Threshold at " + th.at; }, function (box, th, at) {
    box.append(field("At", at.concat("at"), th.at, "number"), rewardField("Reward", at.concat("reward"), th.reward, false));
  });
  sun.append(button("Add a threshold", function () {
    const list = (t.sun && t.sun.thresholds) || [];
    // Ten past the last one, with its reward.
    const last = list.length > 0 ? list[list.length - 1] : { at: 0, reward: { starfish: 1 } };
    edit([{ op: "add", path: "/sun/thresholds/-", value: { at: last.at + 10, reward: last.reward } }], "added a threshold at " + (last.at + 10));
  }));
  root.append(sun);

  const end = section("The end");
  end.append(field("Last round", ["end", "rounds"], t.end && t.end.rounds, "number"));
  end.append(field("Sun limit", ["end", "sun_limit"], t.end && t.end.sun_limit, "number"));
  root.append(end);
}

function drawDeckParts(root) {
  const t = template;
  const items = (t.items || []).map(function (i) { return [i.id, i.name]; });
  const pictures = (t.pictures || []).map(function (p) { return [p.id, p.name]; });
  const about = section("The deck");
  about.append(field("Name", ["name"], t.name, "text"), field("Notes", ["notes"], t.notes, "textarea"));
  about.append(field("Tiles of each item", ["tiles_per_item"], t.tiles_per_item, "number"));
  const rules = t.rules || {};
  const names = { hand_size: "Hand size", stack_size: "Cards per stack", grid_long: "Grid, long side", grid_short: "Grid, short side", plays_per_turn: "Plays per turn", hand_penalty: "Penalty per card left in hand" };
  for (const key of Object.keys(names)) {
    about.append(field(names[key], ["rules", key], rules[key], "number"));
  }
  root.append(about);

  const cards = section("Cards");
  const table = make("table", { class: "cards" });
  const head = make("tr");
  ["Face", "Id", "Name", "Picture", "Kind", "Value", "Needs", "Cost", ""].forEach(function (h) { head.append(make("th", { scope: "col" }, h)); });
  table.append(head);
  (t.cards || []).forEach(function (card, i) {
    const at = ["cards", i];
    const row = make("tr");
    const face = make("td");
    face.append(make("img", { class: "face", alt: "the face of " + card.name + " as it prints", "data-card": String(i), "data-name": String(card.name) }));
    row.append(face);
    const cell = function (element) { const td = make("td"); td.append(element); row.append(td); };
    cell(field("Id", at.concat("id"), card.id, "text"));
    cell(field("Name", at.concat("name"), card.name, "text"));
    cell(field("Picture", at.concat("picture"), card.picture, "select", pictures));
    const kind = card.multiplier !== undefined ? "multiplier" : "points";
    const kindField = field("Kind", at.concat("kind"), kind, "select", [["points", "points"], ["multiplier", "multiplier"]]);
    kindField.querySelector("select").addEventListener("change", function (event) {
      event.stopImmediatePropagation();
      const to = event.target.value;
      const from = to === "points" ? "multiplier" : "points";
      const value = card[from] !== undefined ? card[from] : 1;
      const patch = [{ op: "add", path: pointer(at.concat(to)), value: value }];
      if (card[from] !== undefined) {
        patch.push({ op: "remove", path: pointer(at.concat(from)) });
      }
      edit(patch, "card " + card.id + " scores by " + to);
    }, true);
    cell(kindField);
    cell(field(kind === "points" ? "Points" : "Times", at.concat(kind), card[kind], "number"));
    cell(field("Needs", at.concat("needs"), card.needs || [], "list"));
    const cost = make("div", { class: "cost" });
    [0, 1, 2].forEach(function (k) {
      cost.append(field("Tile " + (k + 1), at.concat("cost", k), (card.cost || [])[k], "select", items));
    });
    cell(cost);
    cell(button("Remove", function () {
      edit([{ op: "remove", path: pointer(at) }], "removed card " + card.id);
    }, { "aria-label": "remove card " + card.id }));
    table.append(row);
    // Why the card's face cannot be drawn yet, under its row when so.
    const why = make("tr", { class: "why", hidden: "" });
    const said = make("td", { colspan: "9" });
    said.append(make("small", { class: "why", "data-card": String(i) }));
    why.append(said);
    table.append(why);
  });
  cards.append(table);
  cards.append(button("Add a card", function () {
    const id = freeName("card-", new Set((t.cards || []).map(function (c) { return c.id; })));
    const item = items.length > 0 ? items[0][0] : "";
    edit([{ op: "add", path: "/cards/-", value: { id: id, name: "New card", picture: pictures.length > 0 ? pictures[0][0] : "", points: 1, needs: [], cost: [item, item, item] } }], "added card " + id);
  }));
  root.append(cards);

  const closing = section("Closing cards");
  listOf(closing, t.closing_cards || [], ["closing_cards"], function (c) { return "Closing card " + c.id; }, function (box, c, at) {
    [0, 1].forEach(function (side) {
      const line = make("div", { class: "cost" });
      [0, 1, 2].forEach(function (k) {
        line.append(field("Side " + (side + 1) + ", tile " + (k + 1), at.concat("sides", side, k), ((c.sides || [])[side] || [])[k], "select", items));
      });
      box.append(line);
    });
  });
  root.append(closing);

  for (const [key, title, one] of [["items", "Items", "item"], ["pictures", "Pictures", "picture"]]) {
    const part = section(title);
    listOf(part, t[key] || [], [key], function (x) { return one + " " + x.name; }, function (box, x, at) {
      box.append(field("Id", at.concat("id"), x.id, "text"), field("Name", at.concat("name"), x.name, "text"));
    });
    part.append(button("Add " + (one === "item" ? "an item" : "a picture"), function () {
      const id = freeName(one, new Set((t[key] || []).map(function (x) { return x.id; })));
      edit([{ op: "add", path: "/" + key + "/-", value: { id: id, name: id } }], "added " + one + " " + id);
    }));
    root.append(part);
  }
}

function drawParts() {
  const root = byId("parts");
  root.replaceChildren();
  if (!template) {
    return;
  }
  if (template.game === "summertime") {
    drawDeckParts(root);
  } else {
    drawSheetParts(root);
  }
}

// The cards' faces as they print, from the deck as edited: each card that
// can be drawn with the deck's items, pictures and rules, valid or not the
// deck; for one that cannot, why, in its row. Fetched again only when the
// deck changed.
let facesOf = null;
let faceAnswers = [];
async function faces() {
  const images = Array.from(document.querySelectorAll("img.face"));
  if (images.length === 0) {
    return;
  }
  const key = JSON.stringify(template);
  if (key !== facesOf) {
    facesOf = key;
    const answers = await Promise.all(images.map(function (img) {
      return call("GET", "/card.svg?card=" + img.dataset.card).then(function (r) {
        return r.ok ? r.blob().then(function (b) { return { url: URL.createObjectURL(b) }; })
          : r.json().then(function (e) { return { why: e.error }; }, function () { return { why: "the studio did not answer" }; });
      });
    }));
    if (facesOf !== key) {
      answers.forEach(function (a) { if (a.url) { URL.revokeObjectURL(a.url); } });
      return;
    }
    faceAnswers.forEach(function (a) { if (a.url) { URL.revokeObjectURL(a.url); } });
    faceAnswers = answers;
  }
  // The rows as drawn now, which may have been drawn again meanwhile.
  document.querySelectorAll("img.face").forEach(function (img) {
    const answer = faceAnswers[Number(img.dataset.card)] || {};
    const why = document.querySelector("small.why[data-card=\"" + img.dataset.card + "\"]");
    img.hidden = !answer.url;
    if (answer.url) {
      img.src = answer.url;
    } else {
      img.removeAttribute("src");
    }
    if (why) {
      why.closest("tr").hidden = !answer.why;
      why.textContent = answer.why ? "The face of " + (img.dataset.name || "this card") + " is not drawn: " + answer.why : "";
    }
  });
}
