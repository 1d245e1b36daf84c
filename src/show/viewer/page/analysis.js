// Added to a viewer written with --analyse. Rust judged the decisions and
// wrote each line; this only shows the line of the event shown, under the
// status, whenever the viewer's own script moves to another event.
(function () {
  'use strict';
  var marks = JSON.parse(document.getElementById('analysis-data').textContent);
  var better = document.getElementById('better');
  function show() {
    var item = document.querySelector('#events li.current');
    var mark = item ? marks[item.getAttribute('data-i')] : undefined;
    var text = mark ? mark.t : '';
    if (better.textContent !== text) better.textContent = text;
    better.classList.toggle('costly', !!mark && mark.c);
  }
  // The viewer writes the event shown into #now on every move.
  new MutationObserver(show).observe(document.getElementById('now'), {
    childList: true,
    characterData: true,
    subtree: true
  });
  show();
})();
