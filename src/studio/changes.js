// The studio's page, what changed elsewhere: the differences between two
// versions of the template said in words, an edit refused because of them
// moved onto the template as it stands, and the watch on the studio's
// version that shows another tab's edits as they are made.

// The lists whose items have ids, and the word for one item.
const LISTS = { boxes: "box", cards: "card", zones: "zone", items: "item", pictures: "picture", tiles: "tile" };

function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

// How a list changed, by the ids of its items: each added, removed or
// changed (with the fields that changed), in words.
function listChanges(word, before, after) {
  const said = [];
  const ids = function (list) { return (Array.isArray(list) ? list : []).map(function (x) { return x && x.id; }); };
  const was = ids(before);
  const now = ids(after);
  for (const item of Array.isArray(after) ? after : []) {
    const k = was.indexOf(item && item.id);
    if (k < 0) {
      said.push(word + " " + (item && item.id) + " added");
    } else if (!same(before[k], item)) {
      const fields = Object.keys(Object.assign({}, before[k], item)).filter(function (f) {
        return !same(before[k][f], item[f]);
      });
      said.push(word + " " + item.id + ": " + fields.map(function (f) {
        const from = before[k][f];
        const to = item[f];
        const plain = function (v) { return v === undefined ? "none" : typeof v === "object" ? JSON.stringify(v) : String(v); };
        return f + " " + plain(from) + " → " + plain(to);
      }).join(", "));
    }
  }
  for (const id of was) {
    if (now.indexOf(id) < 0) {
      said.push(word + " " + id + " removed");
    }
  }
  return said;
}

// What differs from `before` to `after`, in words: "box K11 removed; notes
// changed".
function describeChanges(before, after) {
  if (!before || !after) {
    return "the whole template";
  }
  const said = [];
  const keys = Object.keys(Object.assign({}, before, after));
  for (const key of keys) {
    if (same(before[key], after[key])) {
      continue;
    }
    if (LISTS[key]) {
      said.push.apply(said, listChanges(LISTS[key], before[key], after[key]));
    } else if (key === "constraints") {
      const count = function (v) { return Array.isArray(v) ? v.length : 0; };
      const b = count(before[key]);
      const a = count(after[key]);
      said.push(a === b ? "the constraints changed" : (a > b ? (a - b) + " constraints added" : (b - a) + " constraints removed"));
    } else if (typeof after[key] === "string" || typeof before[key] === "string") {
      said.push(key + " changed" + (typeof after[key] === "string" && after[key].length <= 40 ? " to “" + after[key] + "”" : ""));
    } else {
      said.push(key + " changed");
    }
  }
  return said.length > 0 ? said.join("; ") : "nothing that shows (an edit and its undo)";
}

// `patch`, made against `before`, moved onto `after`: each path into a
// list of items with ids (/boxes/3/pearl) follows the item's id to its
// place now, and a path into the constraints follows the constraint. Null
// when an item it edits is gone.
function rebase(patch, before, after) {
  const moved = function (path) {
    if (typeof path !== "string") {
      return path;
    }
    const parts = /^\/([a-z_]+)\/(\d+)(\/.*)?$/.exec(path);
    if (!parts || !Array.isArray(before[parts[1]]) || !Array.isArray(after[parts[1]])) {
      return path;
    }
    const was = before[parts[1]][Number(parts[2])];
    if (was === undefined) {
      return path;
    }
    const list = after[parts[1]];
    const k = was && was.id !== undefined
      ? list.findIndex(function (x) { return x && x.id === was.id; })
      : list.findIndex(function (x) { return same(x, was); });
    return k < 0 ? null : "/" + parts[1] + "/" + k + (parts[3] || "");
  };
  const again = [];
  for (const op of patch) {
    const copy = Object.assign({}, op);
    for (const field of ["path", "from"]) {
      if (copy[field] !== undefined) {
        copy[field] = moved(copy[field]);
        if (copy[field] === null) {
          return null;
        }
      }
    }
    again.push(copy);
  }
  return again;
}

// Every few seconds, while this tab shows and has no edit on its way, the
// page asks whether the template is still the version it shows (a 304
// when it is): an edit in another tab, or by hand, is shown at once, and
// said in words.
async function watchVersion() {
  if (document.hidden || pending > 0 || unsent || !version) {
    return;
  }
  const shown = version;
  const response = await call("GET", "/api/template", { headers: { "If-None-Match": '"' + shown + '"' } }).catch(function () { return null; });
  if (!response || response.status !== 200 || pending > 0 || version !== shown) {
    return;
  }
  await queue(async function () {
    if (version !== shown) {
      return;
    }
    const before = template;
    await refresh();
    if (version !== shown) {
      say("the template changed in another tab (or by hand): " + describeChanges(before, template));
    }
  });
}
// Looked up at each tick, so that a script driving the page may pause it.
setInterval(function () { watchVersion(); }, 2000);
