// The league's /live page: every table playing now, drawn with textContent only (names can hold
// anything), kept current by Server-Sent Events from /live/events. Its words come from the page
// (the table's data-words, in the reader's language: server/site/pages.py live_words).
"use strict";
(function () {
  const tables = new Map();
  const body = document.querySelector("#live-tables tbody");
  const W = JSON.parse(document.getElementById("live-tables").dataset.words);
  const none = document.getElementById("live-none");
  const status = document.getElementById("live-status");
  const key = function (t) { return JSON.stringify([t.venue, t.table]); };

  // a cell of text lines: the first as it is, each further one small on a line of its own
  function cell(text, cls) {
    const td = document.createElement("td");
    if (cls) td.className = cls;
    const lines = Array.isArray(text) ? text : [text];
    td.textContent = lines[0] === null || lines[0] === undefined ? "–" : String(lines[0]);
    lines.slice(1).forEach(function (line) {
      const small = document.createElement("small");
      small.className = "muted";
      small.textContent = String(line);
      td.append(document.createElement("br"), small);
    });
    return td;
  }

  function sideOf(x) { return x === "a" || x === "b" ? x : null; }      // (the data is a device's: checked)
  function opponent(x) { return x === "a" ? "b" : x === "b" ? "a" : null; }
  const LAST = 20;          // the counter shows the points left to the limit within the last 20 (RULES 1.7)

  // what the wall counter says of one carom player (RULES 1.7) and how the partie ended for them;
  // a fact an older device's snapshot does not carry is left out
  function caromPlayer(s, side, winner) {
    const p = s.players[side], c = s.counter || {};
    const facts = [];
    if (s.finished) {
      if (s.forfeit === side) facts.push(W.forfeited);
      else if (winner === side) facts.push(W.winner);
    } else if (c.at_table === side) {
      facts.push(W.at_table + " " + c.series);
    }
    if (typeof p.innings === "number") facts.push(W.innings + " " + p.innings);
    const left = c.points_left ? c.points_left[side] : null;
    if (!s.finished && typeof left === "number" && left > 0 && left <= LAST) facts.push(W.left + " " + left);
    return facts.length ? [p.name, facts.join(" · ")] : p.name;
  }

  function caromState(s, winner) {
    const c = s.counter || {};
    if (s.finished) {
      if (s.result === "draw") return W.end + " · " + W.draw;
      if (!winner) return W.end;
      return W.end + " · " + W.winner + " " + s.players[winner].name + (s.forfeit ? " " + W.forfeit : "");
    }
    const state = W.inning + " " + c.inning + " / " + s.innings_limit;
    if (c.equalising) return [state, W.equalising];
    if (c.last_two) return [state, W.last_two];
    return state;
  }

  function score(t) {
    const s = t.summary;
    if (t.view === "carom" && s) {
      // the winner: the result, or (a forfeit, whatever the points) the forfeiter's opponent
      const winner = sideOf(s.result) || opponent(s.forfeit);
      return [caromPlayer(s, "a", winner), s.players.a.points + " : " + s.players.b.points, caromPlayer(s, "b", winner),
              caromState(s, winner)];
    }
    if (t.view === "8ball" && s) {
      const winner = sideOf(s.winner) || opponent(s.forfeit);
      const end = winner ? W.end + " · " + W.winner + " " + s.names[winner] + (s.forfeit ? " " + W.forfeit : "") : W.end;
      return [s.names.a, s.games.a + " : " + s.games.b + " (" + W.sets + " " + s.sets.a + " : " + s.sets.b + ")",
              s.names.b, s.finished ? end : W.set + " " + s.set];
    }
    const words = {match: W.match, lotdraw: W.lotdraw, ready: W.ready};
    return [null, words[t.view] || t.view, null, null];
  }

  // "út 13. 10. 19:05" ("Tue 13 Oct 19:05"): the receive time (UTC ISO in the data) in the
  // league's zone, Europe/Prague
  const DAYS = W.days;
  const PRAGUE = new Intl.DateTimeFormat("en-GB", {timeZone: "Europe/Prague", year: "numeric", month: "numeric",
                                                   day: "numeric", hour: "2-digit", minute: "2-digit",
                                                   hourCycle: "h23"});
  function when(iso) {
    const moment = new Date(iso);
    if (!iso || isNaN(moment.getTime())) return iso;
    const part = {};
    PRAGUE.formatToParts(moment).forEach(function (p) { part[p.type] = p.value; });
    const weekday = DAYS[new Date(Date.UTC(+part.year, +part.month - 1, +part.day)).getUTCDay()];
    const date = W.months ? (+part.day) + " " + W.months[+part.month - 1] : (+part.day) + ". " + (+part.month) + ".";
    return weekday + " " + date + " " + part.hour + ":" + part.minute;
  }

  function row(t) {
    const tr = document.createElement("tr");
    tr.dataset.key = key(t);
    const parts = score(t);
    const m = t.match;
    let match = m ? m.home + " – " + m.away + " " + m.points.home + " : " + m.points.away : null;
    if (m && m.partie && m.partie_count) match = [match, W.partie + " " + m.partie + " / " + m.partie_count];
    [cell(t.venue, "name"), cell(t.table), cell(parts[0], "name"), cell(parts[1]), cell(parts[2], "name"),
     cell(parts[3]), cell(match, "name")].forEach(function (td) { tr.appendChild(td); });
    const received = cell(when(t.received));
    if (t.received) {
      const time = document.createElement("time");
      time.dateTime = t.received;
      time.textContent = received.textContent;
      received.replaceChildren(time);
    }
    if (t.record_url) {
      const a = document.createElement("a");
      a.href = t.record_url;
      a.textContent = W.record;
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
  source.onopen = function () { status.textContent = W.live; };
  source.onerror = function () { status.textContent = W.broken; };
}());
