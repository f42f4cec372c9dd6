// The room screen (room.html): an event on a projector, for the whole room. It asks the
// daemon (through the web server's /ws, as the table page does) for the event and its
// standings every REFRESH_MS and shows, large: the round's clock (counting down between
// answers), the seating by name and by table, the standings of every entrant with their
// label (provisional until the round's last table ends) and the director's penalties. No
// controls: it only reads. A list longer than its panel pages by itself every PAGE_MS.
"use strict";

(() => {
  const REFRESH_MS = 2000;
  const PAGE_MS = 8000;
  const WINDS = ["East", "South", "West", "North"];
  const $ = (id) => document.getElementById(id);
  const name = new URLSearchParams(location.search).get("event") || "";
  const state = { socket: null, nextId: 1, waiting: new Map(), event: null, standings: null,
    fetchedAt: 0, page: 0, retry: 500 };

  const cell = (text, num) => {
    const td = document.createElement("td");
    td.textContent = text === null || text === undefined ? "" : String(text);
    if (num) td.className = "num";
    return td;
  };
  const row = (...cells) => {
    const tr = document.createElement("tr");
    tr.append(...cells);
    return tr;
  };
  const setText = (node, text) => { if (node.textContent !== text) node.textContent = text; };

  function connect() {
    const socket = new WebSocket(`ws://${location.host}/ws`);
    state.socket = socket;
    socket.addEventListener("open", () => {
      state.retry = 500;
      document.body.dataset.connected = "yes";
      refresh();
    });
    socket.addEventListener("message", (m) => {
      const message = JSON.parse(m.data);
      if (message.type !== "reply") return;  // views of tables: not the room's
      const done = state.waiting.get(message.id);
      state.waiting.delete(message.id);
      if (done) done(message);
    });
    socket.addEventListener("close", () => {
      document.body.dataset.connected = "no";
      for (const done of state.waiting.values()) done({ ok: false, error: "closed" });
      state.waiting.clear();
      setTimeout(connect, state.retry);
      state.retry = Math.min(5000, state.retry * 2);
    });
  }

  function ask(message) {
    return new Promise((done) => {
      if (!state.socket || state.socket.readyState !== WebSocket.OPEN) {
        done({ ok: false, error: "not connected" });
        return;
      }
      const id = state.nextId++;
      state.waiting.set(id, done);
      state.socket.send(JSON.stringify({ ...message, id }));
    });
  }

  async function refresh() {
    if (!name) {
      setText($("room-event"), "no event named: open /room?event=NAME");
      return;
    }
    const [event, standings] = await Promise.all([
      ask({ type: "tournament_status", name }), ask({ type: "tournament_standings", name })]);
    if (!event.ok) {
      setText($("room-event"), `${name}: ${event.error}`);
      return;
    }
    state.event = event;
    state.standings = standings.ok ? standings : null;
    state.fetchedAt = Date.now();
    render();
  }

  // The clock in the daemon's words: minutes left of a timed round (counted down here
  // between answers), or how many of the round's tables are in.
  function clockText(event) {
    const clock = event.clock;
    if (clock && clock.seconds_left !== null && clock.seconds_left !== undefined) {
      const left = Math.max(0, clock.seconds_left - (Date.now() - state.fetchedAt) / 1000);
      const m = Math.floor(left / 60);
      const s = Math.floor(left % 60);
      return `${m}:${String(s).padStart(2, "0")}`;
    }
    if (clock && clock.time_called) return "Time";
    const last = event.round;
    if (!last) return "Soon";
    const scores = last.scores || [];
    const tables = (last.tables || []).length;
    const done = scores.filter((s) => s !== null).length;
    return done < tables ? `${done}/${tables} tables` : "Round over";
  }

  function roundText(event) {
    const started = event.rounds_started || 0;
    const last = event.round;
    if (!last) return `round 1 of ${event.rounds}: when the director starts it`;
    const scores = last.scores || [];
    const over = (last.tables || []).length > 0 && scores.every((s) => s !== null);
    if (over && started < event.rounds) {
      return `round ${last.round} of ${event.rounds} is over; round ${started + 1}: when the director starts it`;
    }
    if (over) return `round ${last.round} of ${event.rounds}: the last, and it is over`;
    return `round ${last.round} of ${event.rounds}`;
  }

  // Rows into a panel's table, one page of them: as many as fit, the page turning by
  // itself; the page number is shown when there is more than one.
  function paged(body, pageLabel, rows) {
    body.replaceChildren();
    if (!rows.length) { setText(pageLabel, ""); return; }
    body.append(rows[0]);
    const height = rows[0].getBoundingClientRect().height || 1;
    const panel = body.closest(".room-panel");
    const room = panel.getBoundingClientRect().bottom - body.getBoundingClientRect().top;
    const per = Math.max(1, Math.floor(room / height));
    const pages = Math.ceil(rows.length / per);
    const page = state.page % pages;
    body.replaceChildren(...rows.slice(page * per, (page + 1) * per));
    setText(pageLabel, pages > 1 ? `page ${page + 1} of ${pages}` : "");
  }

  function render() {
    const event = state.event;
    if (!event) return;
    setText($("room-event"), event.name);
    setText($("room-clock"), clockText(event));
    setText($("room-round"), roundText(event));
    const last = event.round || { tables: [], byes: [], scores: [] };
    const seated = [];
    (last.tables || []).forEach((table, t) => table.forEach((who, w) => {
      if (who !== null) seated.push([String(who), t + 1, WINDS[w]]);
    }));
    seated.sort((a, b) => a[0].localeCompare(b[0], undefined, { sensitivity: "base" }));
    const byName = seated.map(([who, t, wind]) => row(cell(who), cell(`table ${t}`), cell(wind)));
    for (const who of last.byes || []) byName.push(row(cell(who), cell("a bye"), cell("")));
    paged($("room-seating"), $("room-by-name-page"), byName);
    const byTable = (last.tables || []).map((table, t) => {
      const scores = (last.scores || [])[t];
      const seats = table.map((who, w) => `${WINDS[w][0]} ${who === null ? "(bot)" : who}` +
        (scores ? ` ${scores[w]}` : ""));
      return row(cell(`${t + 1}`, true), cell(seats.join("  ")));
    });
    paged($("room-tables"), $("room-tables-page"), byTable);
    const standings = state.standings;
    setText($("room-standings-state"), standings && standings.state ? standings.state.label : "");
    const ranks = (standings ? standings.standings : []).map((r) => row(
      cell(r.rank, true), cell(r.name), cell(r.points_text ?? r.points, true), cell(r.score, true)));
    paged($("room-standings"), $("room-standings-page"), ranks);
    const notes = [];
    for (const item of event.adjustments || []) {
      if (item.kind === "penalty") {
        notes.push(`penalty, round ${item.round}: ${item.player} -${item.points_text ?? item.points}: ${item.reason}`);
      }
    }
    for (const lapse of event.lapses || []) {
      notes.push(`round ${lapse.round} seated without ${lapse.players.join(", ")}: ${lapse.reason}`);
    }
    setText($("room-notes"), notes.join("   \u00b7   "));
  }

  connect();
  setInterval(refresh, REFRESH_MS);
  setInterval(() => { if (state.event) setText($("room-clock"), clockText(state.event)); }, 250);
  setInterval(() => { state.page += 1; render(); }, PAGE_MS);
})();
