// The sunfold room's board: every table of the round, who is waiting for
// whom, the results and the standings, read from the server every two
// seconds. It decides nothing: the server seats, audits and attaches.
(function () {
  'use strict';
  var token = web.hashToken();
  var api = web.client(token);
  var $ = web.byId;
  var make = web.make;
  var say = web.sayer('message');
  /** @type {RoomBoard | null} */
  var board = null;
  // The ETag of the board as last drawn.
  var tag = null;

  // How long the board waits after an answer before it asks again.
  var POLL_MS = 2000;
  // How long it waits for an answer before it counts it a failure.
  var ANSWER_MS = 30000;

  function link(path, key, label) {
    var a = make('a', null, label);
    a.href = path + '#token=' + key;
    a.target = '_blank';
    a.rel = 'noopener';
    return a;
  }

  /** @param {BoardTable} t */
  function table(t) {
    var box = make('article', { class: 'table' + (t.done ? ' done' : '') + (t.problem ? ' problem' : '') });
    box.setAttribute('aria-label', 'Table ' + t.table);
    var h = make('h3');
    h.appendChild(make('span', null, 'Table ' + t.table));
    h.appendChild(make('span', { class: 'state' + (t.done ? '' : ' playing') }, t.done ? 'done' : 'playing'));
    box.appendChild(h);
    var list = make('ol');
    t.players.forEach(function (p) {
      var li = make('li');
      li.appendChild(document.createTextNode(p.name));
      if (p.score !== null && p.score !== undefined) {
        li.appendChild(make('span', { class: 'score' }, p.score + ' (rank ' + p.rank + ')'));
      }
      list.appendChild(li);
    });
    box.appendChild(list);
    box.appendChild(make('p', { class: 'progress' }, t.progress));
    t.pending.forEach(function (line) { box.appendChild(make('p', { class: 'pending' }, 'Waiting for ' + line)); });
    if (t.problem) box.appendChild(make('p', { class: 'why' }, t.problem));
    var links = make('p', { class: 'links' });
    links.appendChild(link(t.path, t.referee, 'Open as referee'));
    t.players.forEach(function (p) {
      links.appendChild(document.createTextNode(' · '));
      links.appendChild(link(t.path, p.token, p.name + '\u2019s link'));
    });
    box.appendChild(links);
    return box;
  }

  // Points as every sunfold output prints them, from the exact fraction
  // the standings give ("40/3"): whole (216) or mixed (13 1/3, 1/2).
  function points(exact) {
    var parts = String(exact).split('/');
    if (parts.length !== 2) return parts[0];
    var n = parseInt(parts[0], 10);
    var d = parseInt(parts[1], 10);
    var sign = n < 0 ? '-' : '';
    var whole = Math.floor(Math.abs(n) / d);
    var part = Math.abs(n) % d;
    return sign + (whole ? whole + ' ' : '') + part + '/' + d;
  }

  // The columns after the points: the event's tie-breaks in its order
  // (the draw, which only orders, left out), then the tables played.
  var TIE_BREAKS = {
    score: ['Score', false],
    buchholz: ['Opponents\u2019 points', true],
    buchholz_cut1: ['Opponents\u2019 points, less the lowest', true],
    margin: ['Margin', false],
    head_to_head: ['Head to head', true]
  };

  /** @param {Standings} s */
  function standings(s) {
    var t = $('standings');
    t.textContent = '';
    var columns = s.tie_breaks.filter(function (k) { return TIE_BREAKS[k]; });
    var head = make('tr');
    ['Rank', 'Player', 'Points'].concat(columns.map(function (k) { return TIE_BREAKS[k][0]; }), ['Played', 'Byes']).forEach(function (c) {
      var th = make('th', null, c);
      th.scope = 'col';
      head.appendChild(th);
    });
    var thead = make('thead');
    thead.appendChild(head);
    t.appendChild(thead);
    var body = make('tbody');
    s.rows.forEach(function (r) {
      var tr = make('tr', r.dropped ? { class: 'dropped' } : null);
      var cells = [r.rank, r.name + (r.dropped ? ' (dropped)' : ''), points(r.points_exact)];
      columns.forEach(function (k) { cells.push(TIE_BREAKS[k][1] ? points(r[k + '_exact']) : r[k]); });
      cells.push(r.played, r.byes);
      cells.forEach(function (v) {
        tr.appendChild(make('td', null, String(v)));
      });
      body.appendChild(tr);
    });
    t.appendChild(body);
  }

  function render() {
    var b = board;
    // "Round" is the event's alone here: each table's game counts turns.
    $('title').textContent = 'Event ' + b.event + ' \u00B7 ' + (b.round ? 'round ' + b.round + ' of ' + b.rounds : 'no round seated yet');
    document.title = 'Event ' + b.event + (b.round ? ' \u00B7 round ' + b.round : '') + ' \u00B7 sunfold room';
    var done = b.tables.filter(function (t) { return t.done; }).length;
    $('progress').textContent = b.closed ? 'The event is closed.'
      : b.round ? done + ' of ' + b.tables.length + (b.tables.length === 1 ? ' table done; ' : ' tables done; ') + b.standings.rounds_complete + (b.standings.rounds_complete === 1 ? ' round' : ' rounds') + ' complete'
      : 'Seat the first round to begin.';
    $('seat').hidden = !b.can_seat;
    $('seat').textContent = 'Seat round ' + (b.round + 1);
    $('slips').hidden = !b.round;
    var tables = $('tables');
    tables.textContent = '';
    b.tables.forEach(function (t) { tables.appendChild(table(t)); });
    $('bye').hidden = !b.bye.length;
    $('bye').textContent = 'Sitting out (a bye): ' + b.bye.join(', ');
    $('out').hidden = !b.out.length;
    $('out').textContent = 'Not playing this round: ' + b.out.join(', ');
    standings(b.standings);
  }

  // The board `old` with what changed since (`delta`, an answer to
  // ?since=): its top-level fields that changed, the tables new or
  // changed, whole, and the numbers of those gone.
  /**
   * @typedef {Partial<RoomBoard> & { since: string, tables: Array<BoardTable>, gone: Array<number> }} RoomBoardSince
   * @param {RoomBoard} old
   * @param {RoomBoardSince} delta
   * @returns {RoomBoard}
   */
  function merged(old, delta) {
    var b = {};
    Object.keys(old).forEach(function (k) { b[k] = old[k]; });
    Object.keys(delta).forEach(function (k) {
      if (k !== 'since' && k !== 'tables' && k !== 'gone') b[k] = delta[k];
    });
    var changed = {};
    delta.tables.forEach(function (t) { changed[t.table] = t; });
    var tables = old.tables.filter(function (t) {
      return delta.gone.indexOf(t.table) < 0 && !changed[t.table];
    });
    b.tables = tables.concat(delta.tables).sort(function (x, y) { return x.table - y.table; });
    return b;
  }

  function load() {
    // Holding a board, the page asks only for what changed since it.
    var path = board && tag ? '/api/room?since=' + encodeURIComponent(tag.replace(/"/g, '')) : '/api/room';
    // `within`: how long to wait for the answer; If-None-Match: the ETag
    // of the board held, so that an unchanged board is answered 304 with
    // no body.
    var asked = { within: ANSWER_MS, headers: board && tag ? { 'If-None-Match': tag } : {} };
    return api('GET', path, asked).then(function (r) {
      // Nothing changed since the last answer: the board stays as drawn.
      if (r.status === 304 && board) return say.reached();
      return r.json().then(function (body) {
        if (!r.ok) throw new Error(body.error || r.status);
        board = body.since !== undefined && board ? merged(board, body) : body;
        tag = r.headers.get('ETag');
        say.reached();
        render();
      });
    }).catch(function (e) {
      say(e instanceof TypeError || e.name === 'AbortError' ? 'The room\u2019s server cannot be reached.' : String(e.message), true);
    });
  }

  $('seat').addEventListener('click', function () {
    $('seat').disabled = true;
    api('POST', '/api/seat').then(function (r) {
      return r.json().then(function (body) {
        if (!r.ok) throw new Error(body.error);
        say('Round ' + body.round + ' is seated. Print its join slips for the players.');
        return load();
      });
    }).catch(function (e) { say(String(e.message), true); })
      .then(function () { $('seat').disabled = false; });
  });

  $('slips').addEventListener('click', function () {
    api('GET', '/api/slips.pdf?round=' + board.round).then(function (r) {
      if (!r.ok) return r.json().then(function (body) { throw new Error(body.error); });
      return r.blob().then(function (blob) {
        var a = $('download');
        a.href = URL.createObjectURL(blob);
        a.download = board.event + '-round-' + board.round + '-slips.pdf';
        a.click();
      });
    }).catch(function (e) { say(String(e.message), true); });
  });

  if (!token) {
    say('This page needs the room\u2019s link, with its token: the one `sunfold serve --event` printed.', true);
    return;
  }
  // The board asks again two seconds after its last answer (or failure),
  // never while one is still under way: a busy server is not asked twice.
  function poll() {
    load().then(function () { setTimeout(poll, POLL_MS); });
  }
  poll();
  window.addEventListener('hashchange', function () { location.reload(); });
})();
