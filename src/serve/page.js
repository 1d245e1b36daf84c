// The sunfold table page. The server sends what to show and which
// decisions are legal now, each as the event to post; this script lays
// them out and posts the one tapped. The stream tells it what changed in
// its page with each entry appended; it fetches only the drawings it
// lacks, by hash, from addresses the browser's cache keeps. It implements
// no rule.
(function () {
  'use strict';
  var token = web.hashToken();
  // Where this table's API is: the page's own path, so that one server
  // can host several tables, each under a path of its own.
  var base = location.pathname.replace(/\/+$/, '');
  var api = web.client(token, base);
  var $ = web.byId;
  var say = web.sayer('message');
  var button = web.button;
  /** @type {TableView | null} */
  var view = null;
  var selected = null;
  var seq = -1;
  // The seq of the last entry this page posted, as its answer said: a
  // view older than it was drawn before the post, and offers what was
  // just posted, so it is never shown.
  var posted = -1;
  // A post is under way: a view answered meanwhile may predate it, and
  // the post's own reload follows, so none is shown until then.
  var posting = false;
  // The player the referee records for (a seat without a phone).
  var actingAs = null;
  // "Take back" was tapped once: the page asks before posting the undo.
  var confirming = false;
  // The box to give focus back to once a value is posted.
  var returnTo = null;
  // Whether the last view offered this page a decision: a new one gets a
  // cue in the title and, where the browser allows, a vibration.
  var hadChoices = false;
  // The last id of the stream's events, sent back on a reconnect.
  var lastEventId = null;
  // The card in hand chosen for a play (Summertime): its cells light up.
  var selectedCard = null;
  // The drawings this page holds, by hash, each in the layouts fetched
  // (`svg` wide, `phone`): an update asks only for the panels that
  // changed, and takes the others from here.
  var drawings = {};
  // The page as the stream tells it: each event's `view` holds the fields
  // that changed since the last one (all of them after a reconnect).
  var streamed = null;
  // The stream is open and tells this page what changed.
  var live = false;
  // Updates are shown one after another, in the order they came.
  var queue = Promise.resolve();
  // After a post: a reload, if the stream has not told its entry by then.
  var fallback = null;
  // A phone's narrow screen: each drawing in its phone layout, every word
  // legible at the screen's width, and one sheet shown at a time.
  var narrow = window.matchMedia ? window.matchMedia('(max-width: 600px)') : { matches: false };
  // The name of the sheet shown on a phone, when the page holds several.
  var shown = null;
  // The width of the phone layout's page, in millimetres: its drawing
  // fills the panel's width, and a wider one scrolls inside its panel
  // (the phone sheet's PHONE_WIDTH and the phone table's, with margins).
  var PHONE_MM = { soleils: 101, summertime: 100 };

  // Words for a screen reader only, spoken without moving focus.
  function announce(text) {
    $('announce').textContent = text;
  }

  function focusQuietly(el) {
    if (!el) return false;
    try { el.focus({ preventScroll: true }); } catch (e) { el.focus(); }
    return document.activeElement === el;
  }

  // What the fixed header, picker and dock cover: scrolling a box into
  // view (by the browser, a keyboard or a tap) keeps it clear of them.
  function clearOfBars() {
    var root = document.documentElement.style;
    var picker = $('picker');
    var dock = $('dock');
    var bottom = Math.max(picker.hidden ? 0 : picker.offsetHeight, dock.hidden ? 0 : dock.offsetHeight);
    root.scrollPaddingTop = (document.querySelector('header').offsetHeight + 8) + 'px';
    root.scrollPaddingBottom = (bottom + 8) + 'px';
  }

  function boxes() {
    return Array.prototype.slice.call(document.querySelectorAll('#panels [data-key][tabindex]'));
  }

  function boxFor(key) {
    return boxes().filter(function (g) { return g.getAttribute('data-key') === key; })[0] || null;
  }

  // After a value is posted or the picker closed: back to that box if it
  // still takes a value, else to the next box that does, else to it.
  function focusAfter(key) {
    var all = boxes();
    var open = all.filter(function (g) { return g.classList.contains('open'); });
    var at = all.map(function (g) { return g.getAttribute('data-key'); }).indexOf(key);
    var same = boxFor(key);
    if (same && same.classList.contains('open')) return focusQuietly(same);
    var next = open.filter(function (g) { return all.indexOf(g) > at; })[0] || open[0];
    if (next) return focusQuietly(next);
    // No box takes a value now: on to the next decision, such as the sun.
    var decision = $('actions').querySelector('button:not([disabled])');
    return focusQuietly(decision || same || $('who'));
  }

  // Where focus is, in terms that survive a redraw.
  function focusMark() {
    var a = document.activeElement;
    if (!a || a === document.body) return null;
    var section = a.closest('section, figure');
    if (a.hasAttribute('data-key')) return { key: a.getAttribute('data-key') };
    if (a.id) return { id: a.id };
    return { label: a.textContent, section: section ? section.id : null, tag: a.tagName };
  }

  // Puts focus back where `mark` says, if a redraw took it away; a live
  // update never moves it elsewhere.
  function refocus(mark) {
    if (!mark) return;
    var now = document.activeElement;
    if (now && now !== document.body && document.contains(now)) return;
    var el = null;
    if (mark.key) el = boxFor(mark.key);
    else if (mark.id) el = $(mark.id);
    else if (mark.section) {
      var holder = $(mark.section);
      if (holder) {
        el = Array.prototype.filter.call(holder.querySelectorAll(mark.tag || 'button'), function (b) {
          return b.textContent === mark.label;
        })[0] || holder;
      }
    }
    focusQuietly(el);
  }

  // Whether the view shown may be older than this page's own last post:
  // its choices are withdrawn until a newer one comes.
  function stale() { return posting || seq < posted; }

  function post(event) {
    if (stale()) return Promise.resolve();
    say('Sending…');
    returnTo = selected;
    document.querySelectorAll('button').forEach(function (b) { b.disabled = true; });
    document.querySelectorAll('#panels [data-key].open').forEach(function (g) { g.classList.remove('open'); });
    posting = true;
    return api('POST', '/api/events', { body: event }).then(function (r) {
      return r.json().then(function (body) {
        if (r.ok) {
          if (typeof body.seq === 'number') posted = Math.max(posted, body.seq);
          say(body.said || ('Recorded entry ' + body.seq));
        } else say(body.error || ('Refused (' + r.status + ')'), true);
      });
    }).catch(function () {
      say('The table server cannot be reached.', true);
    }).then(function () {
      posting = false;
      selected = null;
      selectedCard = null;
      confirming = false;
      $('picker').hidden = true;
      // The stream brings the page after the post; a reload only when it
      // cannot, or is late.
      if (!live || actingAs || !streamed) return load();
      if (streamed.seq >= posted) return update(streamed);
      return new Promise(function (done) {
        var timer = setTimeout(function () { fallback = null; load().then(done); }, 3000);
        fallback = function () { clearTimeout(timer); done(); };
      });
    }).then(function () {
      if (returnTo) focusAfter(returnTo);
      returnTo = null;
    });
  }

  function group(title, choices) {
    var box = document.createElement('div');
    box.className = 'group';
    box.setAttribute('role', 'group');
    var h = document.createElement('h2');
    h.textContent = title;
    box.appendChild(h);
    choices.forEach(function (c) {
      var onClick = c.group === 'undo'
        ? function () { confirming = c; renderActions(); focusQuietly($('confirm-yes')); }
        : function () { post(c.event); };
      box.appendChild(button(c.label, onClick, c.group === 'sun' ? { class: 'value' } : null));
    });
    return box;
  }

  // "Take back" asks first: a mistaken tap costs nothing.
  function confirmUndo(c) {
    var box = document.createElement('div');
    box.className = 'group confirm';
    box.setAttribute('role', 'group');
    var h = document.createElement('h2');
    h.textContent = c.label + '?';
    box.appendChild(h);
    var yes = button('Yes, take it back', function () { post(c.event); });
    yes.id = 'confirm-yes';
    box.appendChild(yes);
    var no = button('No, keep it', function () {
      confirming = false;
      renderActions();
      var undo = Array.prototype.filter.call($('actions').querySelectorAll('button'), function (b) {
        return b.textContent === c.label;
      })[0];
      focusQuietly(undo);
    });
    no.id = 'confirm-no';
    box.appendChild(no);
    return box;
  }

  var titles = {
    sun: 'Sun track', crab: 'Crab copy', bonus: 'Bonus digit', undo: 'Undo', roll: 'Roll',
    buy: 'Buy a face-up card', play: 'Play a card from your hand', turn: 'Your turn',
    reveal: 'Reveal a card', discard: 'Discard', place: 'Write a value'
  };

  // The referee records for a player without a phone: the player's own
  // page, with the same taps and the same checks.
  function recordAs() {
    var box = document.createElement('div');
    box.className = 'group';
    box.setAttribute('role', 'group');
    if (view.recording_as) {
      var p = document.createElement('p');
      p.className = 'acting';
      p.textContent = 'Recording as ' + view.recording_as + ': each tap is written to the log for ' +
        view.recording_as + ', with the same checks as their own phone.';
      box.appendChild(p);
      var back = button('Back to the referee\u2019s page', function () { actAs(null); });
      back.id = 'record-back';
      box.appendChild(back);
      return box;
    }
    var h = document.createElement('h2');
    h.textContent = 'Record for a player without a phone';
    box.appendChild(h);
    view.players.forEach(function (p) {
      box.appendChild(button('Record as ' + p.name + '\u2026', function () { actAs(p.name); }));
    });
    return box;
  }

  function actAs(name) {
    actingAs = name;
    selected = null;
    confirming = false;
    $('picker').hidden = true;
    load().then(function () {
      focusQuietly(name ? $('record-back') : $('who'));
    });
  }

  function renderActions() {
    var actions = $('actions');
    actions.textContent = '';
    var loose = {};
    var order = [];
    if (view.recording_as) actions.appendChild(recordAs());
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
    if (view.choices.some(function (c) { return c.key && !c.hand; })) {
      var hint = document.createElement('p');
      hint.textContent = 'Tap a highlighted box on your sheet to write in it.';
      actions.appendChild(hint);
    }
    var undo = confirming && view.choices.filter(function (c) {
      return c.group === 'undo' && JSON.stringify(c.event) === JSON.stringify(confirming.event);
    })[0];
    if (!undo) confirming = false;
    order.forEach(function (g) {
      if (g === 'undo' && undo) actions.appendChild(confirmUndo(undo));
      else actions.appendChild(group(titles[g] || g, loose[g]));
    });
    if (view.dice_form) actions.appendChild(diceForm());
    if (view.role === 'referee' && !view.over) actions.appendChild(recordAs());
  }

  // What a Summertime player holds, and the cards they may play, in a
  // dock kept in view: tap a card, then a highlighted cell of the grid.
  function renderDock() {
    var dock = $('dock');
    dock.textContent = '';
    var cards = [];
    view.choices.forEach(function (c) {
      if (c.hand && cards.indexOf(c.hand) < 0) cards.push(c.hand);
    });
    if (cards.indexOf(selectedCard) < 0) selectedCard = null;
    dock.hidden = !view.holding && !cards.length;
    if (dock.hidden) return;
    var me = view.players.filter(function (p) { return p.name === view.name; })[0];
    if (view.holding) {
      var p = document.createElement('p');
      p.className = 'holding';
      p.textContent = view.holding + (me ? ' Score: ' + me.score + '.' : '');
      dock.appendChild(p);
    }
    if (!cards.length) return;
    var box = document.createElement('div');
    box.className = 'group';
    box.setAttribute('role', 'group');
    var h = document.createElement('h2');
    h.textContent = selectedCard ? 'Now tap a highlighted cell of the grid' : 'Play a card: tap it, then a cell';
    box.appendChild(h);
    cards.forEach(function (card) {
      var b = button(card, function () {
        selectedCard = selectedCard === card ? null : card;
        render();
        // The first cell it may go to, in sight above the dock.
        var cell = document.querySelector('#panels [data-key].open');
        if (cell) cell.scrollIntoView({ block: 'nearest' });
        var count = view.choices.filter(function (c) { return c.hand === selectedCard; }).length;
        if (selectedCard) announce(card + ': ' + count + (count === 1 ? ' cell' : ' cells') + ' highlighted on the grid.');
      }, { class: 'card' });
      b.setAttribute('aria-pressed', String(card === selectedCard));
      box.appendChild(b);
    });
    dock.appendChild(box);
  }

  function diceForm() {
    var box = document.createElement('div');
    box.className = 'group';
    box.setAttribute('role', 'group');
    var h = document.createElement('h2');
    h.textContent = 'Dice rolled at the table';
    box.appendChild(h);
    var inputs = [0, 1, 2].map(function (i) {
      var input = document.createElement('input');
      input.type = 'number';
      input.min = '1';
      input.max = '6';
      input.className = 'die';
      input.id = 'die-' + (i + 1);
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

  // The box's visible words (its id, what is written in it), then what it
  // is: a screen reader's name starts with what the eye reads.
  function visible(g) {
    return Array.prototype.map.call(g.querySelectorAll('text'), function (t) {
      return t.textContent.trim();
    }).filter(function (t) { return t; }).join(' ');
  }

  function closePicker() {
    var key = selected;
    $('picker').hidden = true;
    selected = null;
    render();
    if (key) focusAfter(key);
  }

  // The values a box takes, in a panel fixed to the bottom of the screen,
  // where the player is looking whatever the scroll.
  function pick(key, byHand) {
    if (stale()) return;
    selected = key;
    var picker = $('picker');
    picker.textContent = '';
    picker.hidden = false;
    document.querySelectorAll('[data-key].selected').forEach(function (g) { g.classList.remove('selected'); });
    var g = boxFor(key);
    if (g) g.classList.add('selected');
    var id = key.replace(/^box:/, '');
    var h = document.createElement('h2');
    h.id = 'picker-title';
    h.textContent = 'Box ' + id;
    picker.appendChild(h);
    var choices = view.choices.filter(function (c) {
      return c.key === key && (!c.hand || c.hand === selectedCard);
    });
    // A card and a cell make the play: nothing more to ask.
    if (byHand && choices.length === 1 && choices[0].hand) {
      picker.hidden = true;
      post(choices[0].event);
      return;
    }
    var first = null;
    if (choices.length) {
      var row = document.createElement('div');
      row.className = 'group';
      row.setAttribute('role', 'group');
      row.setAttribute('aria-labelledby', 'picker-title');
      choices.forEach(function (c) {
        var b = button(c.label, function () { post(c.event); }, c.group === 'crab' ? null : { class: 'value' });
        if (!first) first = b;
        row.appendChild(b);
      });
      picker.appendChild(row);
      if (byHand) {
        announce('Box ' + id + ': ' + choices.length + (choices.length === 1 ? ' choice: ' : ' choices: ') +
          choices.map(function (c) { return c.label; }).join(', '));
      }
    } else {
      var p = document.createElement('p');
      p.className = 'reason';
      p.textContent = view.refused[key] || 'Nothing can be written here now.';
      picker.appendChild(p);
      if (byHand) announce('Box ' + id + ': ' + p.textContent);
    }
    var close = button('Close', closePicker);
    close.id = 'picker-close';
    picker.appendChild(close);
    if (byHand) focusQuietly(first || close);
    clearOfBars();
    // The box stays in sight above the picker, which covers the bottom.
    if (byHand && g) {
      var over = g.getBoundingClientRect().bottom - picker.getBoundingClientRect().top;
      if (over > 0) window.scrollBy(0, over + 8);
    }
  }

  // On a phone, with several sheets: a choice of the one shown.
  function sheetPicker(names) {
    var box = document.createElement('div');
    box.className = 'sheet-picker';
    var label = document.createElement('label');
    label.setAttribute('for', 'sheet-shown');
    label.textContent = 'Sheet shown';
    var select = document.createElement('select');
    select.id = 'sheet-shown';
    names.forEach(function (name) {
      var option = document.createElement('option');
      option.value = name;
      option.textContent = name;
      option.selected = name === shown;
      select.appendChild(option);
    });
    select.addEventListener('change', function () {
      shown = select.value;
      renderPanels();
      focusQuietly($('sheet-shown'));
    });
    box.appendChild(label);
    box.appendChild(select);
    return box;
  }

  function renderPanels() {
    var panels = $('panels');
    panels.textContent = '';
    var phone = narrow.matches;
    var names = view.panels.map(function (p) { return p.name; });
    var several = phone && view.panels.length > 1;
    if (names.indexOf(shown) < 0) shown = names[0];
    panels.classList.toggle('one', view.panels.length === 1 || several);
    if (several) panels.appendChild(sheetPicker(names));
    var keys = {};
    view.choices.forEach(function (c) {
      if (c.key && (!c.hand || c.hand === selectedCard)) keys[c.key] = true;
    });
    view.panels.forEach(function (panel, i) {
      if (several && panel.name !== shown) return;
      var figure = document.createElement('figure');
      figure.className = 'panel';
      figure.id = 'panel-' + i;
      var caption = document.createElement('figcaption');
      caption.textContent = panel.name;
      caption.id = 'panel-name-' + i;
      figure.appendChild(caption);
      var holder = document.createElement('div');
      holder.className = 'scroll';
      holder.id = 'scroll-' + i;
      // The sheet may be wider than a phone: its scrolling panel takes
      // focus, so a keyboard can reach and scroll it.
      holder.setAttribute('tabindex', '0');
      holder.setAttribute('role', 'region');
      holder.setAttribute('aria-labelledby', 'panel-name-' + i);
      var held = drawings[panel.hash] || {};
      var mobile = phone && held.phone !== undefined;
      holder.innerHTML = (mobile ? held.phone : held.svg) || '';
      if (mobile) {
        holder.classList.add('phone');
        var svg = holder.querySelector('svg');
        var box = svg && svg.viewBox && svg.viewBox.baseVal;
        var mm = PHONE_MM[view.game];
        if (box && box.width && mm) svg.style.width = Math.max(100, 100 * box.width / mm) + '%';
      }
      figure.appendChild(holder);
      panels.appendChild(figure);
    });
    if (view.role !== 'player') return;
    panels.querySelectorAll('[data-key]').forEach(function (g) {
      var key = g.getAttribute('data-key');
      var title = g.querySelector('title');
      var words = visible(g);
      var name = (words ? words + ', ' : '') + (title ? title.textContent : key);
      if (keys[key]) {
        g.classList.add('open');
        g.setAttribute('aria-label', name + (selectedCard ? ': play ' + selectedCard + ' here' : ': choose a value'));
      } else if (view.refused[key]) {
        g.classList.add('closed');
        g.setAttribute('aria-label', name + ': closed now');
      } else {
        return;
      }
      g.setAttribute('tabindex', '0');
      g.setAttribute('role', 'button');
      g.addEventListener('click', function () { pick(key, true); });
      g.addEventListener('keydown', function (e) {
        if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); pick(key, true); }
      });
    });
  }

  function renderPlayers() {
    var list = $('players');
    list.textContent = '';
    view.players.forEach(function (p) {
      var li = document.createElement('li');
      var name = document.createElement('span');
      // A seat a bot plays says which bot, and why it could not decide
      // when it could not (the referee may then record for it).
      var bot = (view.bots || []).filter(function (b) { return b.name === p.name; })[0];
      name.textContent = p.name + (p.name === view.name ? (view.recording_as ? ' (recording)' : ' (you)') : '') +
        (bot ? ' (bot: ' + bot.bot + ')' : '');
      var waiting = document.createElement('span');
      waiting.className = 'waiting';
      waiting.textContent = bot && bot.problem ? 'the bot could not decide: ' + bot.problem :
        (p.waiting ? 'to decide: ' + p.waiting : '');
      var score = document.createElement('span');
      score.className = 'score';
      score.textContent = String(p.score);
      li.appendChild(name);
      li.appendChild(waiting);
      li.appendChild(score);
      list.appendChild(li);
    });
  }

  // The end of the game: the winner and the standings, best first, for
  // everyone.
  function renderOutcome() {
    var box = $('outcome');
    box.textContent = '';
    var outcome = view.outcome;
    box.hidden = !outcome;
    if (!outcome) return;
    var h = document.createElement('h2');
    h.textContent = 'Game over';
    box.appendChild(h);
    var winners = document.createElement('p');
    winners.className = 'winner';
    var best = outcome.players.filter(function (s) { return s.rank === 1; });
    winners.textContent = best.length === 1
      ? best[0].player + ' wins with ' + best[0].score + ' points.'
      : 'A tie: ' + best.map(function (s) { return s.player; }).join(' and ') + ' win with ' +
        (best[0] ? best[0].score : 0) + ' points each.';
    box.appendChild(winners);
    if (outcome.ended) {
      var ended = document.createElement('p');
      ended.textContent = 'Ended ' + outcome.ended + '.';
      box.appendChild(ended);
    }
    var list = document.createElement('ol');
    list.className = 'standings';
    outcome.players.slice().map(function (s, i) { return [s, i]; }).sort(function (a, b) {
      return a[0].rank - b[0].rank || a[1] - b[1];
    }).forEach(function (pair) {
      var s = pair[0];
      var li = document.createElement('li');
      li.textContent = s.rank + '. ' + s.player + ': ' + s.score;
      list.appendChild(li);
    });
    box.appendChild(list);
  }

  function render() {
    var mark = focusMark();
    var who = view.recording_as ? 'Referee, recording as ' + view.recording_as
      : view.role === 'referee' ? 'Referee' : view.name;
    $('who').textContent = who;
    var mine = view.choices.some(function (c) { return c.group !== 'undo'; });
    // Served by a room: the event, its round and the table, on every
    // page; the game's own turns are in its progress.
    var room = view.room;
    var place = room ? 'Event ' + room.event + ' \u00B7 round ' + room.round + ' \u00B7 table ' + room.table : '';
    document.title = (mine ? '\u25B6 Your move \u00B7 ' : '') + who + ' \u00B7 ' + (place || 'sunfold table');
    if (mine && !hadChoices) {
      announce('Your move.');
      // Browsers allow a vibration only once the page has been touched.
      var touched = navigator.userActivation && navigator.userActivation.hasBeenActive;
      if (navigator.vibrate && touched) navigator.vibrate(150);
    }
    hadChoices = mine;
    $('place').textContent = place;
    $('place').hidden = !room;
    $('progress').textContent = view.progress;
    renderOutcome();
    window.sunfoldReview(view, api);
    renderActions();
    renderDock();
    renderPanels();
    renderPlayers();
    if (selected && view.choices.concat([]).some(function (c) { return c.key === selected; })) pick(selected, false);
    else { $('picker').hidden = true; selected = null; }
    document.body.classList.toggle('player', view.role === 'player');
    document.body.setAttribute('data-game', view.game);
    document.body.setAttribute('data-seq', String(view.seq));
    clearOfBars();
    refocus(mark);
  }

  // The drawings `panels` lack in the layout shown, fetched by hash from
  // their immutable addresses: the browser's cache answers those it holds.
  function fetchLacking(panels) {
    var phone = narrow.matches;
    var field = phone ? 'phone' : 'svg';
    var lacking = panels.filter(function (p) {
      return !(drawings[p.hash] && drawings[p.hash][field] !== undefined);
    });
    return Promise.all(lacking.map(function (p) {
      // Kept by the browser's cache, as its address never changes.
      var path = '/api/panels/' + p.hash + '/' + (phone ? 'phone' : 'wide');
      return api('GET', path, { cache: 'default' }).then(function (r) {
        if (!r.ok) throw new Error('no drawing ' + p.hash);
        return r.text();
      }).then(function (svg) {
        (drawings[p.hash] = drawings[p.hash] || {})[field] = svg;
      });
    }));
  }

  // Shows `body`, a whole view, once the drawings it lacks are fetched;
  // never one older than this page's own post or than the view shown.
  /** @param {TableView} body */
  function show(body) {
    return fetchLacking(body.panels).then(function () {
      // A view from before this page's own post, or answered while it
      // is under way, would offer again what was posted: never shown.
      if (posting || body.seq < posted) return;
      // A stale page never replaces a newer one of the same holder.
      if (view && body.seq < seq && (body.recording_as || null) === (view.recording_as || null)) return;
      // Only what the page shows now is kept, and asked about.
      var held = {};
      body.panels.forEach(function (panel) { held[panel.hash] = drawings[panel.hash]; });
      drawings = held;
      view = body;
      seq = view.seq;
      if (fallback && seq >= posted) {
        var told = fallback;
        fallback = null;
        told();
      }
      // Reached again: an old "cannot be reached" no longer holds.
      say.reached();
      render();
    });
  }

  // The page as the stream last told it, shown in turn.
  function update(body) {
    queue = queue.then(function () {
      return show(JSON.parse(JSON.stringify(body)));
    }).catch(function () { return load(); });
    return queue;
  }

  // The whole view, as a page that holds drawings asks for it (`?have=`);
  // an old page reloads it on each event.
  function load() {
    var query = [];
    if (actingAs) query.push('as=' + encodeURIComponent(actingAs));
    var have = Object.keys(drawings).filter(function (h) {
      return drawings[h] && drawings[h].svg !== undefined && drawings[h].phone !== undefined;
    });
    if (have.length) query.push('have=' + have.join(','));
    var path = '/api/view' + (query.length ? '?' + query.join('&') : '');
    return api('GET', path).then(function (r) {
      return r.json().then(function (body) {
        if (!r.ok) { say(body.error || ('Error ' + r.status), true); return; }
        body.panels.forEach(function (panel) {
          if (panel.svg === undefined) return;
          drawings[panel.hash] = { svg: panel.svg, phone: panel.phone };
          delete panel.svg;
          delete panel.phone;
        });
        return show(body);
      });
    }).catch(function () { say('The table server cannot be reached.', true); });
  }

  // The live stream: server-sent events read through fetch, which can
  // send the token in a header as EventSource cannot. A reconnect sends
  // the last event's id back, and the server replays what was missed.
  function listen() {
    var extra = lastEventId !== null ? { 'Last-Event-ID': lastEventId } : null;
    api('GET', '/api/stream?view=1', { headers: extra || {} }).then(function (r) {
      if (!r.ok || !r.body) throw new Error('no stream');
      var reader = r.body.getReader();
      var decoder = new TextDecoder();
      var buffer = '';
      // A new stream tells the whole page with its first event.
      streamed = null;
      live = true;
      // What was appended between the page's first load and this stream
      // is in neither: a stream that does not catch up from an event's id
      // loads the page once more, now that it hears every later one.
      if (!extra) load();
      function read() {
        return reader.read().then(function (chunk) {
          if (chunk.done) throw new Error('closed');
          buffer += decoder.decode(chunk.value, { stream: true });
          var parts = buffer.split('\n\n');
          buffer = parts.pop();
          var reload = false;
          var changed = false;
          parts.forEach(function (p) {
            var id = /^id: ?(.*)$/m.exec(p);
            if (id) lastEventId = id[1];
            if (/^event: lagged/m.test(p)) { reload = true; return; }
            if (!/^event: appended/m.test(p)) return;
            var data = /^data: ?(.*)$/m.exec(p);
            var event = null;
            try { event = data && JSON.parse(data[1]); } catch (e) { event = null; }
            if (!event || !event.view) { reload = true; return; }
            streamed = streamed || {};
            Object.keys(event.view).forEach(function (k) {
              if (event.view[k] === null) delete streamed[k];
              else streamed[k] = event.view[k];
            });
            changed = true;
          });
          // Recording for a player: the view of their seat, reloaded.
          if (reload || (changed && actingAs)) load();
          else if (changed && streamed.panels) update(streamed);
          return read();
        });
      }
      return read();
    }).catch(function () {
      live = false;
      setTimeout(function () { load(); listen(); }, 2000);
    });
  }

  document.addEventListener('keydown', function (e) {
    if (e.key === 'Escape' && !$('picker').hidden) { e.preventDefault(); closePicker(); }
  });

  // Turned, or resized across a phone's width: the other layout.
  if (narrow.addEventListener) {
    narrow.addEventListener('change', function () {
      if (view) fetchLacking(view.panels).then(render, load);
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
