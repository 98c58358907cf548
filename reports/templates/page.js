/* The filter above the failing cases: hides the cases whose id, op, dtype,
   verdicts and variants do not contain every word typed.  The page reads the
   same without it; it only hides. */
(function () {
  var input = document.getElementById("case-filter");
  var count = document.getElementById("case-filter-count");
  if (!input || !count) {
    return;
  }
  var cards = document.querySelectorAll("[data-search]");
  input.addEventListener("input", function () {
    var words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
    var shown = 0;
    for (var i = 0; i < cards.length; i++) {
      var text = cards[i].getAttribute("data-search");
      var match = words.every(function (w) { return text.indexOf(w) >= 0; });
      cards[i].hidden = !match;
      if (match) {
        shown++;
      }
    }
    count.textContent = words.length ? shown + " of " + cards.length + " shown" : "";
  });
})();
