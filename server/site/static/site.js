// The league site's progressive enhancement: every page works without it.
// - table.sortable: each column heading becomes a button that sorts the rows (numbers as numbers,
//   names in Czech order); aria-sort tells a screen reader the order.
// - input[data-filter]: typing hides the rows of the table it names that do not contain the text
//   (without regard to case or accents); the form still searches on the server without a script.
"use strict";
(function () {
  function value(cell) {
    const text = (cell.dataset.sort !== undefined ? cell.dataset.sort : cell.textContent).trim();
    const number = text.replace("−", "-").replace(",", ".");
    return /^[+-]?\d+(\.\d+)?$/.test(number) ? {n: parseFloat(number)} : {t: text};
  }

  function compare(a, b) {
    if (a.n !== undefined && b.n !== undefined) return a.n - b.n;
    if (a.n !== undefined) return -1;
    if (b.n !== undefined) return 1;
    return a.t.localeCompare(b.t, "cs");
  }

  function sortable(table) {
    const body = table.tBodies[0];
    const heads = table.tHead ? Array.from(table.tHead.rows[0].cells) : [];
    heads.forEach(function (th, column) {
      const button = document.createElement("button");
      button.type = "button";
      button.append.apply(button, Array.from(th.childNodes));
      th.appendChild(button);
      button.addEventListener("click", function () {
        const rows = Array.from(body.rows);
        const first = rows.length ? value(rows[0].cells[column]) : {};
        const descending = th.getAttribute("aria-sort") === "ascending" ||
          (!th.hasAttribute("aria-sort") && first.n !== undefined && !th.classList.contains("place"));
        heads.forEach(function (other) { other.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", descending ? "descending" : "ascending");
        rows.sort(function (x, y) {
          const order = compare(value(x.cells[column]), value(y.cells[column]));
          return descending ? -order : order;
        });
        body.append.apply(body, rows);
      });
    });
  }

  function folded(text) {
    return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }

  function filter(input) {
    const table = document.getElementById(input.dataset.filter);
    if (!table) return;
    const count = document.getElementById(input.dataset.filter + "-count");
    input.addEventListener("input", function () {
      const wanted = folded(input.value.trim());
      let shown = 0;
      Array.from(table.tBodies[0].rows).forEach(function (row) {
        row.hidden = wanted !== "" && folded(row.textContent).indexOf(wanted) < 0;
        if (!row.hidden) shown += 1;
      });
      if (count) count.textContent = String(shown);
    });
  }

  document.querySelectorAll("table.sortable").forEach(sortable);
  document.querySelectorAll("input[data-filter]").forEach(filter);
}());
