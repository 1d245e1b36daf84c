// "Review my game": once the game has ended, a player's page offers the
// review of their own decisions (`GET /api/review`). The server answers
// 202 while it judges them, and the page asks again each second; then 200
// with the review, shown in `sunfold analyse`'s own lines, and the command
// that gives the same figures. It implements no rule and no judging.
window.sunfoldReview = (function () {
  'use strict';
  // The review asked for: null until the button is tapped, then
  // { seq, state: 'working' | 'done' | 'failed', body }. A new entry
  // (a take-back after the end) makes it stale.
  var asked = null;
  var timer = null;

  function el(tag, className, text) {
    var e = document.createElement(tag);
    if (className) e.className = className;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function ask(view, api) {
    clearTimeout(timer);
    api('GET', '/api/review').then(function (r) {
      return r.json().then(function (body) {
        if (!asked || asked.seq !== view.seq) return;
        if (r.status === 202) {
          asked.state = 'working';
          timer = setTimeout(function () { ask(view, api); }, 1000);
        } else {
          asked.state = r.ok ? 'done' : 'failed';
          asked.body = body;
        }
        draw(view, api);
      });
    }).catch(function () {
      if (!asked) return;
      asked.state = 'failed';
      asked.body = { error: 'The table server cannot be reached.' };
      draw(view, api);
    });
  }

  function shown(box, review) {
    box.appendChild(el('h2', null, 'Your costliest decisions'));
    box.appendChild(el('p', 'summary', review.summary));
    if (!review.costliest.length) {
      box.appendChild(el('p', null, 'No decision lost points beyond the noise of the rollouts.'));
    } else {
      var list = el('ol', 'costly');
      review.costliest.forEach(function (c) {
        var li = el('li');
        li.appendChild(el('p', 'taken', c.lines[0]));
        li.appendChild(el('p', 'better', c.lines[1]));
        list.appendChild(li);
      });
      box.appendChild(list);
    }
    box.appendChild(el('p', 'meaning', review.heading));
    var same = el('p', 'command', 'The same figures: ');
    same.appendChild(el('code', null, review.command));
    box.appendChild(same);
  }

  function draw(view, api) {
    var box = document.getElementById('review');
    box.textContent = '';
    if (!asked) {
      var b = el('button', 'review-button', 'Review my game');
      b.type = 'button';
      b.id = 'review-button';
      b.addEventListener('click', function () {
        asked = { seq: view.seq, state: 'working' };
        draw(view, api);
        ask(view, api);
      });
      box.appendChild(b);
    } else if (asked.state === 'working') {
      var p = el('p', 'working', 'Reviewing your game\u2026 the search bot judges each of your decisions, one review at a time.');
      p.setAttribute('role', 'status');
      p.id = 'review-working';
      box.appendChild(p);
    } else if (asked.state === 'failed') {
      var f = el('p', 'error', (asked.body && asked.body.error) || 'The review failed.');
      f.setAttribute('role', 'alert');
      box.appendChild(f);
    } else {
      shown(box, asked.body);
    }
  }

  // Called with each view the page shows.
  return function (view, api) {
    var box = document.getElementById('review');
    var offered = view.over && view.role === 'player' && !view.recording_as;
    box.hidden = !offered;
    if (!offered) { asked = null; clearTimeout(timer); box.textContent = ''; return; }
    if (asked && asked.seq !== view.seq) { asked = null; clearTimeout(timer); }
    // A view of the same entry changes nothing in the review shown.
    if (box.getAttribute('data-seq') === String(view.seq) && box.childNodes.length) return;
    box.setAttribute('data-seq', String(view.seq));
    draw(view, api);
  };
})();
