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

  var make = web.make;

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

  /**
   * @param {HTMLElement} box
   * @param {TableReview} review
   */
  function shown(box, review) {
    box.appendChild(make('h2', null, 'Your costliest decisions'));
    box.appendChild(make('p', { class: 'summary' }, review.summary));
    if (!review.costliest.length) {
      box.appendChild(make('p', null, 'No decision lost points beyond the noise of the rollouts.'));
    } else {
      var list = make('ol', { class: 'costly' });
      review.costliest.forEach(function (c) {
        var li = make('li');
        li.appendChild(make('p', { class: 'taken' }, c.lines[0]));
        li.appendChild(make('p', { class: 'better' }, c.lines[1]));
        list.appendChild(li);
      });
      box.appendChild(list);
    }
    box.appendChild(make('p', { class: 'meaning' }, review.heading));
    var same = make('p', { class: 'command' }, 'The same figures: ');
    same.appendChild(make('code', null, review.command));
    box.appendChild(same);
  }

  function draw(view, api) {
    var box = document.getElementById('review');
    box.textContent = '';
    if (!asked) {
      box.appendChild(web.button('Review my game', function () {
        asked = { seq: view.seq, state: 'working' };
        draw(view, api);
        ask(view, api);
      }, { class: 'review-button', id: 'review-button' }));
    } else if (asked.state === 'working') {
      var p = make('p', { class: 'working' }, 'Reviewing your game\u2026 the search bot judges each of your decisions, one review at a time.');
      p.setAttribute('role', 'status');
      p.id = 'review-working';
      box.appendChild(p);
    } else if (asked.state === 'failed') {
      var f = make('p', { class: 'error' }, (asked.body && asked.body.error) || 'The review failed.');
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
