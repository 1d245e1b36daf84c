// The sunfold replay viewer. Rust computed every picture and number; this
// script only shows the event asked for: it swaps the SVG items that
// changed, moves the highlight and fills in the given scores. It knows no
// rule of either game.
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('replay-data').textContent);
  var frames = data.frames;
  var last = frames.length - 1;
  var items = Array.prototype.slice.call(document.querySelectorAll('#events li'));
  var pages = Array.prototype.map.call(document.querySelectorAll('.panel-svg'), function (svg) {
    return Array.prototype.filter.call(svg.children, function (c) {
      return c.classList.contains('page');
    });
  });
  var figures = Array.prototype.slice.call(document.querySelectorAll('.panel'));
  var rows = Array.prototype.slice.call(document.querySelectorAll('#scores tbody tr'));
  var slider = document.getElementById('slider');
  var marker = document.getElementById('marker');
  var original = new Map(); // slot -> its element at the first event
  var shown = new Map(); // slot -> the fragment it shows, when not the original
  var parsed = []; // fragment -> its element, parsed once, cloned to show
  var current = -1;

  function slot(key) {
    var k = key.split('/');
    return pages[+k[0]][+k[1]].children[+k[2] + 1];
  }

  function fragment(f) {
    if (!parsed[f]) {
      var holder = document.createElementNS('http://www.w3.org/2000/svg', 'g');
      holder.innerHTML = data.frags[f];
      parsed[f] = holder.firstElementChild;
    }
    return parsed[f].cloneNode(true);
  }

  // Every slot as it stands after event i: the last change at or before it.
  function showSlots(i) {
    var want = new Map();
    for (var f = 1; f <= i; f++) {
      var changes = frames[f].d;
      for (var j = 0; j < changes.length; j++) {
        var c = changes[j];
        want.set(c[0] + '/' + c[1] + '/' + c[2], c[3]);
      }
    }
    shown.forEach(function (f, key) {
      if (!want.has(key)) {
        slot(key).replaceWith(original.get(key));
        shown.delete(key);
      }
    });
    want.forEach(function (f, key) {
      if (shown.get(key) !== f) {
        var element = slot(key);
        if (!original.has(key)) original.set(key, element);
        element.replaceWith(fragment(f));
        shown.set(key, f);
      }
    });
  }

  function text(id, value) {
    document.getElementById(id).textContent = value;
  }

  function go(i, from) {
    i = Math.max(0, Math.min(last, i | 0));
    if (i === current) return;
    var frame = frames[i];
    showSlots(i);
    if (current >= 0) {
      items[current].removeAttribute('aria-current');
      items[current].classList.remove('current');
    }
    var item = items[i];
    item.setAttribute('aria-current', 'step');
    item.classList.add('current');
    if (from !== 'list') {
      // Keep the current event in view inside the list, without moving
      // the page.
      var box = item.parentNode;
      var top = item.offsetTop;
      if (top < box.scrollTop || top + item.offsetHeight > box.scrollTop + box.clientHeight) {
        box.scrollTop = top - box.clientHeight / 2;
      }
    }
    current = i;
    slider.value = String(i);
    slider.setAttribute('aria-valuetext', 'event ' + frame.s + ' of ' + frames[last].s);
    var line = item.querySelector('.line').textContent;
    text('position', item.classList.contains('illegal')
      ? 'Refused ' + line + ' (event ' + frame.s + ')'
      : 'Event ' + frame.s + ' of ' + frames[last].s + ' · ' + line);
    text('now', item.querySelector('.text').textContent);
    text('status', frame.p);
    rows.forEach(function (row, p) {
      row.querySelector('.score').textContent = String(frame.c[p]);
      row.classList.toggle('actor', frame.a === p);
      var claim = row.querySelector('.claim');
      if (claim) {
        var c = frame.k >= 0 ? data.claims[frame.k][p] : null;
        claim.textContent = c ? c[0] + ' (' + c[1] + ')' : '';
        claim.classList.toggle('differs', !!c && c[1] !== 'agrees');
      }
    });
    figures.forEach(function (figure) {
      figure.classList.toggle('actor', frame.a >= 0 && +figure.getAttribute('data-player') === frame.a);
    });
    var x = data.chart.x0 + i * data.chart.dx;
    marker.setAttribute('x1', String(x));
    marker.setAttribute('x2', String(x));
    document.getElementById('first').disabled = i === 0;
    document.getElementById('prev').disabled = i === 0;
    document.getElementById('prev-section').disabled = i === 0;
    document.getElementById('next').disabled = i === last;
    document.getElementById('next-section').disabled = i === last;
    document.getElementById('last').disabled = i === last;
    document.body.classList.toggle('at-failure', item.classList.contains('illegal'));
    var hash = frame.l ? '#line=' + frame.l : '#seq=' + frame.s;
    if (location.hash !== hash) {
      try {
        history.replaceState(null, '', hash);
      } catch (e) {
        location.hash = hash;
      }
    }
  }

  // The first event of the section (round or turn) before or after.
  function section(direction) {
    var here = frames[current].r;
    var i = current;
    if (direction < 0) {
      while (i > 0 && frames[i - 1].r === here) i--;
      if (i < current) return i;
      if (i === 0) return 0;
      var before = frames[i - 1].r;
      while (i > 0 && frames[i - 1].r === before) i--;
      return i;
    }
    while (i < last && frames[i].r === here) i++;
    return i;
  }

  function fromHash() {
    var line = /line=(\d+)/.exec(location.hash);
    if (line && frames[last].l === +line[1]) return last;
    var match = /seq=(\d+)/.exec(location.hash);
    if (!match) return -1;
    var seq = +match[1];
    for (var i = 0; i <= last; i++) if (frames[i].s === seq && !frames[i].l) return i;
    return -1;
  }

  document.getElementById('first').addEventListener('click', function () { go(0); });
  document.getElementById('prev').addEventListener('click', function () { go(current - 1); });
  document.getElementById('next').addEventListener('click', function () { go(current + 1); });
  document.getElementById('last').addEventListener('click', function () { go(last); });
  document.getElementById('prev-section').addEventListener('click', function () { go(section(-1)); });
  document.getElementById('next-section').addEventListener('click', function () { go(section(1)); });
  slider.addEventListener('input', function () { go(+slider.value, 'slider'); });
  items.forEach(function (item, i) {
    item.querySelector('a').addEventListener('click', function (event) {
      event.preventDefault();
      go(i, 'list');
    });
  });
  window.addEventListener('hashchange', function () {
    var i = fromHash();
    if (i >= 0) go(i);
  });
  document.addEventListener('keydown', function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var onSlider = event.target === slider;
    var to = null;
    switch (event.key) {
      case 'ArrowLeft': if (!onSlider) to = current - 1; break;
      case 'ArrowRight': if (!onSlider) to = current + 1; break;
      case 'Home': if (!onSlider) to = 0; break;
      case 'End': if (!onSlider) to = last; break;
      case 'PageUp': to = section(-1); break;
      case 'PageDown': to = section(1); break;
    }
    if (to !== null) {
      event.preventDefault();
      go(to);
    }
  });
  figures.forEach(function (figure) {
    var button = figure.querySelector('.enlarge');
    button.addEventListener('click', function () {
      var large = !figure.classList.contains('large');
      figures.forEach(function (other) {
        other.classList.remove('large');
        other.querySelector('.enlarge').setAttribute('aria-pressed', 'false');
        other.querySelector('.enlarge .verb').textContent = 'Show large';
      });
      figure.classList.toggle('large', large);
      button.setAttribute('aria-pressed', String(large));
      button.querySelector('.verb').textContent = large ? 'Show small' : 'Show large';
      if (large) figure.scrollIntoView({ block: 'start' });
    });
  });

  // The jump buttons: to the sheets, the scores, the events.
  Array.prototype.forEach.call(document.querySelectorAll('.jump'), function (button) {
    button.addEventListener('click', function () {
      var target = document.getElementById(button.getAttribute('data-to'));
      target.scrollIntoView({ block: 'start' });
    });
  });
  // The side column stands below the controls, whatever their height.
  var controls = document.querySelector('.controls');
  function measure() {
    document.documentElement.style.setProperty('--controls', controls.offsetHeight + 'px');
  }
  window.addEventListener('resize', measure);
  measure();

  var start = fromHash();
  go(start >= 0 ? start : data.start);
  document.body.classList.add('ready');
})();
