// The league's /live page: every table playing now, drawn with textContent only (names can hold
// anything), kept current by Server-Sent Events from /live/events.
"use strict";
(function () {
  const tables = new Map();
  const body = document.querySelector("#live-tables tbody");
  const none = document.getElementById("live-none");
  const status = document.getElementById("live-status");
  const key = function (t) { return JSON.stringify([t.venue, t.table]); };

  function cell(text, cls) {
    const td = document.createElement("td");
    if (cls) td.className = cls;
    td.textContent = text === null || text === undefined ? "–" : String(text);
    return td;
  }

  function score(t) {
    const s = t.summary;
    if (t.view === "carom" && s) {
      const c = s.counter || {};
      return [s.players.a.name, s.players.a.points + " : " + s.players.b.points, s.players.b.name,
              s.finished ? "konec" : "náběh " + c.inning + " / " + s.innings_limit];
    }
    if (t.view === "8ball" && s) {
      return [s.names.a, s.games.a + " : " + s.games.b + " (sety " + s.sets.a + " : " + s.sets.b + ")",
              s.names.b, s.finished ? "konec" : "set " + s.set];
    }
    const words = {match: "výsledek utkání", lotdraw: "los", ready: "připraveno"};
    return [null, words[t.view] || t.view, null, null];
  }

  function row(t) {
    const tr = document.createElement("tr");
    tr.dataset.key = key(t);
    const parts = score(t);
    const m = t.match;
    const match = m ? m.home + " – " + m.away + " " + m.points.home + " : " + m.points.away : null;
    [cell(t.venue, "name"), cell(t.table), cell(parts[0], "name"), cell(parts[1]), cell(parts[2], "name"),
     cell(parts[3]), cell(match, "name")].forEach(function (td) { tr.appendChild(td); });
    const received = cell(t.received);
    if (t.record_url) {
      const a = document.createElement("a");
      a.href = t.record_url;
      a.textContent = "zápis partie";
      received.append(" · ", a);
    }
    tr.appendChild(received);
    return tr;
  }

  function draw() {
    const sorted = Array.from(tables.values()).sort(function (x, y) { return key(x) < key(y) ? -1 : 1; });
    body.replaceChildren.apply(body, sorted.map(row));
    none.hidden = sorted.length > 0;
  }

  function all(list) { tables.clear(); list.forEach(function (t) { tables.set(key(t), t); }); draw(); }

  all(JSON.parse(document.getElementById("live-data").textContent));
  const source = new EventSource("/live/events");
  source.addEventListener("tables", function (e) { all(JSON.parse(e.data)); });
  source.addEventListener("table", function (e) { const t = JSON.parse(e.data); tables.set(key(t), t); draw(); });
  source.addEventListener("gone", function (e) { tables.delete(key(JSON.parse(e.data))); draw(); });
  source.onopen = function () { status.textContent = "Živě"; };
  source.onerror = function () { status.textContent = "Spojení přerušeno, připojuji znovu…"; };
}());
