"use strict";
// What every page of sunfold's servers shares (the table's, the room's and
// the studio's), in the same inline script before the page's own, which
// reads it as `web`: finding and making elements, a line of words that a
// screen reader speaks, and asking the server with the page's token. The
// JSON the servers answer is typed in types.js beside this file, made from
// docs/schema/ (`TableView`, `RoomBoard`, `StudioStanding`, `ApiRefusal`, …).
const web = (function () {
  /**
   * The element of the page with this id.
   * @param {string} id
   * @returns {HTMLElement}
   */
  function byId(id) {
    return /** @type {HTMLElement} */ (document.getElementById(id));
  }

  /**
   * An element made with its attributes (`class` among them) and its text.
   * @param {string} tag
   * @param {Object<string, string> | null} [attributes]
   * @param {string} [text]
   * @returns {HTMLElement}
   */
  function make(tag, attributes, text) {
    if (typeof attributes === "string") {
      // The call of an older helper that took a class name.
      throw new TypeError("web.make: the attributes are an object, as { class: \"" + attributes + "\" }");
    }
    const element = document.createElement(tag);
    for (const name of Object.keys(attributes || {})) {
      element.setAttribute(name, attributes[name]);
    }
    if (text !== undefined) {
      element.textContent = text;
    }
    return element;
  }

  /**
   * A button that does `action` when pressed: never a form's submit.
   * @param {string} text
   * @param {(event: Event) => void} action
   * @param {Object<string, string> | null} [attributes] `class`, `aria-label`, …
   * @returns {HTMLButtonElement}
   */
  function button(text, action, attributes) {
    const b = /** @type {HTMLButtonElement} */ (make("button", Object.assign({ type: "button" }, attributes || {}), text));
    b.addEventListener("click", action);
    return b;
  }

  /**
   * The line of the page with this id that says what happened: a role
   * of status whose changes a screen reader speaks. `say(text, true)`
   * marks it an error; `say.reached()` takes back a "cannot be reached"
   * once the server answers again.
   * @param {string} id
   * @returns {((text?: string, error?: boolean) => void) & { reached: () => void }}
   */
  function sayer(id) {
    function say(/** @type {string} */ text, /** @type {boolean} */ error) {
      const line = byId(id);
      line.textContent = text || "";
      line.classList.toggle("error", !!error);
    }
    say.reached = function () {
      const line = byId(id);
      if (line.classList.contains("error") && /cannot be reached/.test(line.textContent || "")) {
        say("");
      }
    };
    return say;
  }

  /**
   * The token of a link that carries it after `#token=`, or null.
   * @returns {string | null}
   */
  function hashToken() {
    const match = /token=([0-9a-fA-F]+)/.exec(location.hash);
    return match ? match[1] : null;
  }

  /**
   * @typedef {Object} Asked
   * @property {unknown} [body] sent as JSON
   * @property {Object<string, string>} [headers] more headers (If-Match, If-None-Match, Last-Event-ID)
   * @property {number} [within] milliseconds to wait for the answer, after which the request is abandoned as failed
   * @property {RequestCache} [cache] `no-store` unless said: only what is immutable is kept by the browser
   */

  /**
   * How a page asks its server: each request under `base` (the page's
   * own path, for a table among several), with `Authorization: Bearer
   * token` when the page has a token, and the browser's cookies for its
   * origin (the studio's, which lets a tab back in).
   * @param {string | null} token
   * @param {string} [base]
   * @returns {(method: string, path: string, asked?: Asked) => Promise<Response>}
   */
  function client(token, base) {
    return function (method, path, asked) {
      asked = asked || {};
      /** @type {Object<string, string>} */
      const headers = {};
      if (token) {
        headers.Authorization = "Bearer " + token;
      }
      /** @type {RequestInit} */
      const init = { method: method, headers: headers, cache: asked.cache || "no-store" };
      if (asked.body !== undefined) {
        headers["Content-Type"] = "application/json";
        init.body = JSON.stringify(asked.body);
      }
      Object.assign(headers, asked.headers || {});
      if (asked.within && window.AbortController) {
        const abort = new AbortController();
        init.signal = abort.signal;
        setTimeout(function () { abort.abort(); }, asked.within);
      }
      return fetch((base || "") + path, init);
    };
  }

  return { byId: byId, make: make, button: button, sayer: sayer, hashToken: hashToken, client: client };
})();
