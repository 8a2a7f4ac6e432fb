// The live page and the overlay of one table: draws the state (embedded in the page, then each
// Server-Sent Event) with textContent only. Names can hold anything: nothing is parsed as markup.
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("live-data").textContent);
  const W = data.words;
  const root = document.getElementById("live");
  const isOverlay = document.body.classList.contains("overlay");
  const SIDES = ["a", "b"];
  let source = null;
  let retry = 1000;

  function el(tag, cls, text, kids) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    (kids || []).forEach(function (kid) { if (kid) node.appendChild(kid); });
    return node;
  }

  function header(state) {
    const place = el("div", "place", W.table + " " + state.table + " · " + state.venue);
    const m = state.match;
    const match = m ? el("div", "match", null, [
      el("span", "team", m.home), el("span", "team-score", m.points.home + " : " + m.points.away),
      el("span", "team", m.away),
      el("span", "partie", W.partie + " " + m.partie + " " + W.of + " " + m.partie_count)]) : null;
    return el("header", m ? "with-match" : null, null, [place, match]);
  }

  function team(state, side) {
    const m = state.match;
    if (!m || !m.home_side) return null;
    return el("div", "team-name", side === m.home_side ? m.home : m.away);
  }

  function carom(state) {
    const s = state.summary, c = s.counter;
    const players = SIDES.map(function (side) {
      const p = s.players[side];
      const at = c.at_table === side;
      const facts = el("div", "facts", W.average + " " + p.average + " · " + W.best + " " + p.best_series);
      return el("section", "player " + side + (at ? " at" : "") + (s.result === side ? " winner" : ""), null, [
        el("div", "name", p.name), team(state, side), el("div", "points", p.points), facts]);
    });
    const mid = [el("div", "inning", c.inning + " / " + s.innings_limit, []), el("div", "label", W.inning)];
    if (!s.finished) mid.push(el("div", "left", W.innings_left + " " + c.innings_left));
    const lines = [];
    if (!s.finished && c.at_table) {
      const name = s.players[c.at_table].name;
      lines.push(el("div", "series", W.series + " " + c.series + " · " + name + " " + W.at_table));
      if (c.points_left[c.at_table] <= 20) lines.push(el("div", "to-go", name + ": " + c.points_left[c.at_table] + " " + W.to_go));
      if (c.equalising) lines.push(el("div", "flag", W.equalising));
      if (c.frozen) lines.push(el("div", "flag", W.frozen));
      if (c.last_two) mid[0].classList.add("last-two");
    }
    if (s.finished) lines.push(el("div", "result", caromResult(s)));
    return [el("div", "board", null, [players[0], el("section", "mid", null, mid), players[1]]),
            el("div", "lines", null, lines)];
  }

  function caromResult(s) {
    if (s.forfeit) return W.end + " · " + s.players[s.forfeit].name + " " + W.forfeit;
    if (s.result === "draw") return W.end + " · " + W.draw;
    return W.end + " · " + W.wins + " " + s.players[s.result].name;
  }

  function eightball(state) {
    const s = state.summary, c = s.current;
    const players = SIDES.map(function (side) {
      const group = c.groups[side];
      const chips = [];
      if (group) chips.push(el("div", "group " + group, W[group] + " · " + W.balls_left + " " + c.left[group]));
      const pocket = c.eight_pocket[side];
      if (pocket) chips.push(el("div", "pocket", W.pocket8 + " " + pocket));
      if (c.pocket_choice[side]) chips.push(el("div", "pocket", W.pocket_choice));
      const at = !s.finished && c.shooter === side;
      return el("section", "player " + side + (at ? " at" : "") + (s.winner === side ? " winner" : ""), null, [
        el("div", "name", s.names[side]), team(state, side), el("div", "points", s.games[side]),
        el("div", "facts", W.sets + " " + s.sets[side]), el("div", "chips", null, chips)]);
    });
    const mid = [el("div", "inning", W.set + " " + s.set), el("div", "label", W.games),
                 el("div", "left", s.games_to_win + " / " + s.sets_to_win), el("div", "label", W.race)];
    const lines = [];
    if (s.finished) {
      const who = s.forfeit ? s.names[s.forfeit] + " " + W.forfeit : s.names[s.winner] + " " + W.won_match;
      lines.push(el("div", "result", W.end + " · " + who));
    } else {
      lines.push(el("div", "series", s.names[c.shooter] + " " + W.shooting));
      [["break_shot", "break"], ["ball_in_hand", "in_hand"], ["open_table", "open"],
       ["open_shot", "open_shot"], ["must_choose", "choose"]].forEach(function (pair) {
        if (c[pair[0]]) lines.push(el("div", "flag", W[pair[1]]));
      });
    }
    return [el("div", "board", null, [players[0], el("section", "mid", null, mid), players[1]]),
            el("div", "lines", null, lines)];
  }

  function matchResult(state) {
    const rows = (state.partie || []).map(function (line) { return el("li", null, line); });
    return [el("h1", null, W.result), el("div", "board", null, [
      el("section", "player a", null, [el("div", "name", state.home), el("div", "points", state.points.home)]),
      el("section", "mid", null, [el("div", "inning", ":")]),
      el("section", "player b", null, [el("div", "name", state.away), el("div", "points", state.points.away)])]),
      el("ol", "partie-list", null, rows)];
  }

  function lotdraw(state) {
    const rows = (state.pairs || []).map(function (pair) {
      return el("li", null, pair.partie + ". " + pair.home + " – " + pair.away);
    });
    return [el("h1", null, W.lotdraw), el("div", "facts", W.seed + " " + state.seed), el("ol", "partie-list", null, rows)];
  }

  const VIEWS = {
    carom: carom, "8ball": eightball, match: matchResult, lotdraw: lotdraw,
    ready: function () { return [el("p", "waiting", W.ready)]; },
    waiting: function () { return [el("p", "waiting", W.waiting)]; }
  };

  let lastMessage = null;
  function message(state) {
    const m = state.message;
    if (!m || m.n === lastMessage) return null;
    lastMessage = m.n;
    return el("div", "message", m.text);
  }

  function draw(state) {
    const view = VIEWS[state.view] || VIEWS.waiting;
    const parts = view(state);
    const toast = message(state);
    root.replaceChildren.apply(root, [header(state)].concat(parts, toast ? [toast] : []));
    root.dataset.view = state.view;
    document.body.dataset.seq = state.seq;
  }

  function offline(on) {
    document.body.classList.toggle("offline", on);
    let banner = document.getElementById("offline");
    if (on && !banner) {
      banner = el("div", "offline-banner", W.offline);
      banner.id = "offline";
      document.body.appendChild(banner);
    } else if (!on && banner) {
      banner.remove();
    }
  }

  // EventSource retries by itself after a dropped stream, but gives up on an HTTP error (a full
  // device answers 503): then this reconnects, waiting longer each time up to 30 s.
  function connect() {
    source = new EventSource("/events");
    source.addEventListener("state", function (event) {
      draw(JSON.parse(event.data));
    });
    source.onopen = function () { retry = 1000; offline(false); };
    source.onerror = function () {
      offline(true);
      if (source.readyState === EventSource.CLOSED) {
        setTimeout(connect, retry);
        retry = Math.min(retry * 2, 30000);
      }
    };
  }

  // /overlay?x=40&y=940&w=900: where the score bug sits on a 1920x1080 browser source, its width.
  function place() {
    const query = new URLSearchParams(location.search);
    const limits = {x: [0, 1920, 510], y: [0, 1080, 950], w: [200, 1920, 900]};
    Object.keys(limits).forEach(function (key) {
      const lim = limits[key], value = Number(query.get(key));
      const px = query.has(key) && isFinite(value) ? Math.min(lim[1], Math.max(lim[0], value)) : lim[2];
      document.documentElement.style.setProperty("--" + key, px + "px");
    });
  }

  if (isOverlay) place();
  draw(data.state);
  connect();
})();
