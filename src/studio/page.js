"use strict";
// The studio's page: the printed page and the checks, kept current. The
// token comes in the address the studio printed (?token=), is kept in
// this page alone, and is taken out of the address bar.
(function () {
  const params = new URLSearchParams(location.search);
  const token = params.get("token") || sessionStorage.getItem("sunfold-studio-token") || "";
  sessionStorage.setItem("sunfold-studio-token", token);
  history.replaceState(null, "", location.pathname);
  const auth = { Authorization: "Bearer " + token };
  let previewUrl = null;

  async function call(method, path) {
    const response = await fetch(path, { method: method, headers: auth });
    return response;
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
    document.getElementById("preview").src = previewUrl;
  }

  function show(checked) {
    const verdict = document.getElementById("verdict");
    verdict.textContent = checked.valid ? "Valid: saved" : "Not valid: the file keeps its last valid version";
    verdict.className = checked.valid ? "valid" : "invalid";
    const list = document.getElementById("problems");
    list.replaceChildren();
    for (const problem of checked.problems.concat(checked.warnings)) {
      const item = document.createElement("li");
      const path = document.createElement("code");
      path.textContent = problem.path;
      item.append(path, " " + problem.message);
      list.append(item);
    }
    document.getElementById("undo").disabled = checked.undo === 0;
    document.getElementById("redo").disabled = checked.redo === 0;
  }

  async function refresh(response) {
    if (response.ok) {
      show(await response.json());
    }
    await preview();
  }

  document.getElementById("undo").addEventListener("click", async function () {
    await refresh(await call("POST", "/api/undo"));
  });
  document.getElementById("redo").addEventListener("click", async function () {
    await refresh(await call("POST", "/api/redo"));
  });
  document.getElementById("pdf").addEventListener("click", async function () {
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
  call("GET", "/api/check").then(refresh);
})();
