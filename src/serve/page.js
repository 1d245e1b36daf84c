// The sunfold table page. The server sends what to show and which
// decisions are legal now, each as the event to post; this script lays
// them out, posts the one tapped, and reloads when the stream says the
// log grew. It implements no rule.
(function () {
  'use strict';
  var match = /token=([0-9a-fA-F]+)/.exec(location.hash);
  var token = match ? match[1] : null;
  var view = null;
  var selected = null;
  var seq = -1;

  function $(id) { return document.getElementById(id); }

  function say(text, error) {
    var message = $('message');
    message.textContent = text || '';
    message.classList.toggle('error', !!error);
  }

  function api(method, path, body) {
    var headers = { 'Authorization': 'Bearer ' + token };
    if (body) headers['Content-Type'] = 'application/json';
    return fetch(path, { method: method, headers: headers, body: body, cache: 'no-store' });
  }

  function button(label, onClick, className) {
    var b = document.createElement('button');
    b.type = 'button';
    b.textContent = label;
    if (className) b.className = className;
    b.addEventListener('click', onClick);
    return b;
  }

  function post(event) {
    say('Sending…');
    document.querySelectorAll('button').forEach(function (b) { b.disabled = true; });
    return api('POST', '/api/events', JSON.stringify(event)).then(function (r) {
      return r.json().then(function (body) {
        if (r.ok) say(body.said || ('Recorded event ' + body.seq));
        else say(body.error || ('Refused (' + r.status + ')'), true);
      });
    }).catch(function () {
      say('The table server cannot be reached.', true);
    }).then(function () {
      selected = null;
      return load();
    });
  }

  function group(title, choices) {
    var box = document.createElement('div');
    box.className = 'group';
    var h = document.createElement('h2');
    h.textContent = title;
    box.appendChild(h);
    choices.forEach(function (c) {
      box.appendChild(button(c.label, function () { post(c.event); }, c.group === 'sun' ? 'value' : ''));
    });
    return box;
  }

  var titles = {
    sun: 'Sun track', crab: 'Crab copy', bonus: 'Bonus digit', undo: 'Undo', roll: 'Roll',
    buy: 'Buy a face-up card', play: 'Play a card from your hand', turn: 'Your turn',
    reveal: 'Reveal a card', discard: 'Discard', place: 'Write a value'
  };

  function renderActions() {
    var actions = $('actions');
    actions.textContent = '';
    var loose = {};
    var order = [];
    view.choices.forEach(function (c) {
      if (c.key) return; // chosen by tapping the sheet
      if (!loose[c.group]) { loose[c.group] = []; order.push(c.group); }
      loose[c.group].push(c);
    });
    if (view.waiting) {
      var p = document.createElement('p');
      p.textContent = view.waiting;
      actions.appendChild(p);
    }
    if (view.choices.some(function (c) { return c.key; })) {
      var hint = document.createElement('p');
      hint.textContent = 'Tap a highlighted box on your sheet to write in it.';
      actions.appendChild(hint);
    }
    order.forEach(function (g) { actions.appendChild(group(titles[g] || g, loose[g])); });
    if (view.dice_form) actions.appendChild(diceForm());
  }

  function diceForm() {
    var box = document.createElement('div');
    box.className = 'group';
    var h = document.createElement('h2');
    h.textContent = 'Dice rolled at the table';
    box.appendChild(h);
    var inputs = [0, 1, 2].map(function (i) {
      var input = document.createElement('input');
      input.type = 'number';
      input.min = '1';
      input.max = '6';
      input.className = 'die';
      input.setAttribute('aria-label', 'Die ' + (i + 1));
      box.appendChild(input);
      return input;
    });
    box.appendChild(button('Roll these dice', function () {
      var dice = inputs.map(function (i) { return +i.value; });
      if (dice.some(function (d) { return !(d >= 1 && d <= 6); })) {
        say('Type the three dice thrown, each 1 to 6.', true);
        return;
      }
      post({ type: 'rolled', dice: dice });
    }));
    return box;
  }

  function pick(key) {
    selected = key;
    var picker = $('picker');
    picker.textContent = '';
    picker.hidden = false;
    document.querySelectorAll('[data-key].selected').forEach(function (g) { g.classList.remove('selected'); });
    var g = document.querySelector('[data-key="' + key + '"]');
    if (g) g.classList.add('selected');
    var id = key.replace(/^box:/, '');
    var h = document.createElement('h2');
    h.textContent = 'Box ' + id;
    picker.appendChild(h);
    var choices = view.choices.filter(function (c) { return c.key === key; });
    if (choices.length) {
      var row = document.createElement('div');
      row.className = 'group';
      choices.forEach(function (c) {
        row.appendChild(button(c.label, function () { post(c.event); }, c.group === 'crab' ? '' : 'value'));
      });
      picker.appendChild(row);
    } else {
      var p = document.createElement('p');
      p.className = 'reason';
      p.textContent = view.refused[key] || 'Nothing can be written here now.';
      picker.appendChild(p);
    }
    picker.appendChild(button('Close', function () { picker.hidden = true; selected = null; render(); }));
  }

  function renderPanels() {
    var panels = $('panels');
    panels.textContent = '';
    panels.classList.toggle('one', view.panels.length === 1);
    var keys = {};
    view.choices.forEach(function (c) { if (c.key) keys[c.key] = true; });
    view.panels.forEach(function (panel) {
      var figure = document.createElement('figure');
      figure.className = 'panel';
      var caption = document.createElement('figcaption');
      caption.textContent = panel.name;
      figure.appendChild(caption);
      var holder = document.createElement('div');
      holder.innerHTML = panel.svg;
      figure.appendChild(holder);
      panels.appendChild(figure);
    });
    if (view.role !== 'player') return;
    panels.querySelectorAll('[data-key]').forEach(function (g) {
      var key = g.getAttribute('data-key');
      var title = g.querySelector('title');
      var name = title ? title.textContent : key;
      if (keys[key]) {
        g.classList.add('open');
        g.setAttribute('tabindex', '0');
        g.setAttribute('role', 'button');
        g.setAttribute('aria-label', name + ': choose a value');
      } else if (view.refused[key]) {
        g.classList.add('closed');
        g.setAttribute('tabindex', '0');
        g.setAttribute('role', 'button');
        g.setAttribute('aria-label', name + ': closed now');
      } else {
        return;
      }
      g.addEventListener('click', function () { pick(key); });
      g.addEventListener('keydown', function (e) {
        if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); pick(key); }
      });
    });
  }

  function renderPlayers() {
    var list = $('players');
    list.textContent = '';
    view.players.forEach(function (p) {
      var li = document.createElement('li');
      var name = document.createElement('span');
      name.textContent = p.name + (p.name === view.name ? ' (you)' : '');
      var waiting = document.createElement('span');
      waiting.className = 'waiting';
      waiting.textContent = p.waiting ? 'to decide: ' + p.waiting : '';
      var score = document.createElement('span');
      score.className = 'score';
      score.textContent = String(p.score);
      li.appendChild(name);
      li.appendChild(waiting);
      li.appendChild(score);
      list.appendChild(li);
    });
  }

  function render() {
    $('who').textContent = view.role === 'referee' ? 'Referee' : view.name;
    document.title = ($('who').textContent) + ' · sunfold table';
    $('progress').textContent = 'Event ' + view.seq + ' · ' + view.progress;
    renderActions();
    renderPanels();
    renderPlayers();
    if (selected && view.choices.concat([]).some(function (c) { return c.key === selected; })) pick(selected);
    else { $('picker').hidden = true; selected = null; }
    document.body.classList.toggle('player', view.role === 'player');
    document.body.setAttribute('data-seq', String(view.seq));
  }

  function load() {
    return api('GET', '/api/view').then(function (r) {
      return r.json().then(function (body) {
        if (!r.ok) { say(body.error || ('Error ' + r.status), true); return; }
        // A stale page never replaces a newer one.
        if (view && body.seq < seq) return;
        view = body;
        seq = view.seq;
        // Reached again: an old "cannot be reached" no longer holds.
        if ($('message').classList.contains('error') && /cannot be reached/.test($('message').textContent)) say('');
        render();
      });
    }).catch(function () { say('The table server cannot be reached.', true); });
  }

  // The live stream: server-sent events read through fetch, which can
  // send the token in a header as EventSource cannot.
  function listen() {
    api('GET', '/api/stream').then(function (r) {
      if (!r.ok || !r.body) throw new Error('no stream');
      var reader = r.body.getReader();
      var decoder = new TextDecoder();
      var buffer = '';
      function read() {
        return reader.read().then(function (chunk) {
          if (chunk.done) throw new Error('closed');
          buffer += decoder.decode(chunk.value, { stream: true });
          var parts = buffer.split('\n\n');
          buffer = parts.pop();
          var grew = parts.some(function (p) { return /^event: (appended|lagged)/m.test(p); });
          if (grew) load();
          return read();
        });
      }
      return read();
    }).catch(function () {
      setTimeout(function () { load(); listen(); }, 2000);
    });
  }

  // Another link opened in this tab: start again as its holder.
  window.addEventListener('hashchange', function () { location.reload(); });

  if (!token) {
    say('This page needs the join link with its token: ask the table for yours.', true);
    return;
  }
  load().then(listen);
})();
