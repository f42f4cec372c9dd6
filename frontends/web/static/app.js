// The page: one WebSocket to the web server (which relays to your daemon), the newest view
// of the table, and what clicks and keys do. What may be done always comes from the view's
// legal_actions; the page only remembers the cursor, the selection and your rack order.
"use strict";

(() => {
  const { h } = Views;
  const $ = (id) => document.getElementById(id);
  // Replace a node's children, leaving out the parts a view does not have (null).
  const put = (node, ...parts) => node.replaceChildren(...parts.flat(2)
    .filter((p) => p !== null && p !== undefined && p !== false && p !== ""));
  // Redraw a part of the page only when what it shows changed (``signature``): a discard
  // changes one seat's row and the centre, and redrawing the whole table for it would keep
  // the player's computer busy for nothing (and lose a click or a drag under the pointer).
  const drawnWith = new WeakMap();
  const redraw = (node, signature, parts) => {
    if (drawnWith.get(node) === signature) return;
    drawnWith.set(node, signature);
    put(node, ...parts());
  };
  const rows = new WeakMap();   // a discard row: the codes it shows
  const meldCounts = new WeakMap();   // a seat's exposed part: how many melds it showed
  const setText = (node, text) => { if (node.textContent !== text) node.textContent = text; };
  const setData = (node, key, value) => { if (node.dataset[key] !== value) node.dataset[key] = value; };
  const LETTERS = "abcdefghijklmnopqrstuvwxyz";
  const COMMAND_LETTERS = { t: "T", n: "N", h: "H" };   // when no rack tile has that letter

  const state = {
    socket: null, nextId: 1, waiting: new Map(), retry: 500,
    hello: null, table: null, event: null, receivedAt: 0, members: [], tables: null,
    cursor: 0, selected: new Set(), menu: 0, overlay: null, showHints: true, answered: null,
    order: null, sheet: null, sheetProblem: "", keys: null, connected: false, stopped: "",
    menuAimed: false, events: null, eventName: null, decisionShownAt: 0,
    fromEvent: null, tablesTaken: new Set(),   // a tournament's tables the page took us to
  };

  // -- the connection ----------------------------------------------------------------------

  // The page can act only while the web server answers it and our daemon runs (``live``).
  // When either goes away the page keeps the table in sight, greyed, with every action
  // disabled and no countdown (a dead page kept a clickable Next and "Next hand in 0 s").
  function live() {
    return state.connected && document.body.dataset.daemon !== "lost";
  }

  function connect() {
    const socket = new WebSocket(`ws://${location.host}/ws`);
    state.socket = socket;
    socket.addEventListener("open", () => {
      state.retry = 500;
      state.connected = true;
      state.stopped = "";
      document.body.dataset.connected = "yes";
      render();
    });
    socket.addEventListener("message", (m) => receive(JSON.parse(m.data)));
    socket.addEventListener("close", (e) => {
      const was = state.connected;
      state.connected = false;
      document.body.dataset.connected = "no";
      for (const done of state.waiting.values()) done({ ok: false, error: "the connection closed" });
      state.waiting.clear();
      // the server says it is stopping (Ctrl-C on `fourwinds web`); a connection that
      // breaks, or cannot be made again, means the same on this machine's own address
      if (e.code === 1001 || !was) {
        state.stopped = "the fourwinds web server stopped: this page can do nothing now. " +
          "Run `fourwinds web` (or `fourwinds play --web`) again and open the address it " +
          "prints; this page tries to reconnect meanwhile";
      } else {
        state.stopped = "the connection to the fourwinds web server broke; reconnecting...";
      }
      say(state.stopped);
      render();
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

  function receive(message) {
    if (message.type === "reply") {
      const done = state.waiting.get(message.id);
      state.waiting.delete(message.id);
      if (done) done(message);
    } else if (message.type === "hello") {
      state.hello = message;
      say(`connected as ${message.name || "you"}`);
      start(message);
    } else if (message.type === "view") {
      onEvent(message);
    } else if (message.type === "link") {
      daemonLink(message.state);
    }
  }

  // Our daemon stopped (``lost``) or runs again (``back``: the web server found it and
  // subscribed again; the table is opened anew, which also restarts its bot seats).
  function daemonLink(linkState) {
    document.body.dataset.daemon = linkState;
    render();
    if (linkState === "lost") {
      say("your fourwinds daemon stopped; waiting for it to run again (`fourwinds play` starts it)");
    } else {
      say("your fourwinds daemon is back");
      if (state.table) openTable(state.table);
      else if (document.body.dataset.screen === "lobby") refreshTables().then(renderLobby);
    }
  }

  // "Host a table" lists the rule sets the daemon plays (its ``rulesets``: built-in ones
  // first, then any FOURWINDS_RULESETS loaded), so the page names none itself; the window
  // of a pre-play exchange is labelled with what the rule sets call theirs (the Charleston).
  async function fillRules() {
    const select = $("host-rules");
    if (select.options.length) return;
    const answer = await ask({ type: "rulesets" });
    if (!answer.ok || select.options.length) return;
    for (const r of answer.rulesets || []) {
      select.append(h("option", { value: String(r.name), text: String(r.title || r.name) }));
    }
    const exchanges = (answer.rulesets || []).map((r) => r.exchange_title).filter(Boolean);
    if (exchanges.length) $("host-exchange-label").textContent = `${exchanges.join(" / ")} window`;
  }

  async function start(hello) {
    await fillRules();
    const eventName = new URLSearchParams(location.hash.slice(1)).get("event");
    if (eventName) return showEvent(eventName);
    const wanted = new URLSearchParams(location.hash.slice(1)).get("table");
    const table = wanted || state.table || hello.table;
    if (table) return openTable(table);
    const tables = await refreshTables();
    // a director's daemon also sits at its event's bot seats: never opened for the player
    const mine = ((tables && tables.tables) || []).filter((t) => !t.bot_seat);
    if (mine.length === 1) return openTable(mine[0].table);
    return showLobby();
  }

  // Q at a table: back where the player came from: a tournament's screen when the page
  // took them to their table of a round (showEvent), else the lobby.
  function backFromTable() {
    const from = state.fromEvent;
    state.fromEvent = null;
    return from ? showEvent(from) : showLobby();
  }

  async function openTable(table) {
    state.table = table;
    const answer = await ask({ type: "open", table });
    if (!answer.ok) {
      say(`cannot open table ${table}: ${answer.error}`);
      return showLobby();
    }
    if (answer.event) onEvent(answer.event, true);
    return null;
  }

  function isOurs(event) {
    const t = String(event.table || "");
    return state.table !== null && (t.startsWith(state.table) || event.name === state.table);
  }

  // -- a new view ----------------------------------------------------------------------------

  function onEvent(event, force) {
    if (!force && !isOurs(event)) return;
    const old = state.event;
    const view = event.view || {};
    state.table = String(event.table || state.table);
    if (location.hash !== `#table=${state.table}`) history.replaceState(null, "", `#table=${state.table}`);
    if (!old || (old.view || {}).hand_number !== view.hand_number || old.table !== event.table) {
      state.order = loadOrder(event);
    }
    const before = rackCodes(old);
    state.event = event;
    state.receivedAt = performance.now();
    const now = rackCodes(event);
    if (before.join() !== now.join()) state.selected.clear();
    state.cursor = Math.min(state.cursor, Math.max(0, now.length - 1));
    const menu = menuActions(event);
    // the player's highlight stays while the same decision is asked (another seat's answer
    // or a refreshed countdown is a new view of the same question); a new one starts at its default
    if (!old || decisionKey(old) !== decisionKey(event) || state.menu >= menu.length) {
      state.menu = Math.max(0, menu.findIndex((a) => a.default));
    }
    // a new decision puts the cursor on the default discard's tile (its rightmost copy: the
    // tile just drawn when it is that one), as the terminal does: Enter at once does what the
    // page calls the default, not a discard of the leftmost tile
    if (!old || decisionKey(old) !== decisionKey(event)) {
      state.decisionShownAt = performance.now();
      const marked = (event.legal_actions || []).find((a) => a.default && tileBound(a, now));
      if (marked) state.cursor = now.lastIndexOf(marked.tiles[0]);
      // a default in the menu (Mahjong, a flower laid out): Enter does it, not a discard of
      // the tile under the cursor, until the player points at the rack (as the terminal)
      state.menuAimed = menu.some((a) => a.default);
    }
    if (state.answered !== decisionKey(event)) state.answered = null;
    render();
    if (!old || decisionKey(old) !== decisionKey(event)) announce(promptOf(event));
  }

  // -- the tab's title and the sounds: what the view's ``prompt`` says the table asks of us --

  const SOUND_KEY = "fourwinds-sound";
  const SOUND_NOTES = { turn: [523.25, 783.99], call: [659.25, 880, 987.77] };   // Hz
  const sound = { on: readSound(), context: null, played: 0 };

  function readSound() {
    try {
      return localStorage.getItem(SOUND_KEY) !== "off";
    } catch (error) {
      return true;
    }
  }

  function promptOf(event) {
    return live() && event && state.table !== null ? ((event.view || {}).prompt || null) : null;
  }

  // The tab's title says "Your turn" (or "Call?") while the page is in the background and
  // the table waits for us, so a player in another tab sees it; "fourwinds" otherwise.
  function updateTitle() {
    const prompt = promptOf(state.event);
    const asked = prompt === "call" ? "Call?" : prompt ? "Your turn" : "";
    const title = document.hidden && asked ? `${asked} - fourwinds` : "fourwinds";
    if (document.title !== title) document.title = title;
  }

  // A new decision for us: a short chime for our turn, a brighter one for a call offered
  // (made with the Web Audio API: no sound files), unless the player turned sounds off.
  function announce(prompt) {
    updateTitle();
    const notes = SOUND_NOTES[prompt];
    if (!notes || !sound.on) return;
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    if (!sound.context) sound.context = new Context();
    const ctx = sound.context;
    if (ctx.state === "suspended") ctx.resume().catch(() => {});
    notes.forEach((freq, i) => {
      const start = ctx.currentTime + 0.02 + i * 0.13;
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = "sine";
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, start);
      gain.gain.exponentialRampToValueAtTime(0.18, start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.28);
      osc.connect(gain).connect(ctx.destination);
      osc.start(start);
      osc.stop(start + 0.3);
    });
    sound.played += 1;
    setData(document.body, "sounds", String(sound.played));
    setData(document.body, "lastSound", prompt);
  }

  function showSound() {
    const button = $("sound-button");
    setText(button, sound.on ? "Sound: on" : "Sound: off");
    button.setAttribute("aria-pressed", sound.on ? "true" : "false");
    setData(document.body, "sound", sound.on ? "on" : "off");
  }

  function toggleSound() {
    sound.on = !sound.on;
    try {
      localStorage.setItem(SOUND_KEY, sound.on ? "on" : "off");
    } catch (error) {
      // (a browser that keeps nothing: the choice lasts until the page closes)
    }
    showSound();
    say(sound.on ? "sounds on: a chime for your turn and for a call offered" : "sounds off");
  }

  function decisionKey(event) {
    const view = (event && event.view) || {};
    if ("step" in view) {
      return JSON.stringify(["step", view.step, (event.legal_actions || []).map((a) => a.id)]);
    }
    return JSON.stringify(["seq", event && event.seq]);
  }

  // -- the rack and the actions (as the curses table reads them) ----------------------------

  function orderKey(event) {
    return `fourwinds-order:${event.table}:${(event.view || {}).hand_number}`;
  }

  function loadOrder(event) {
    try {
      return JSON.parse(sessionStorage.getItem(orderKey(event)) || "null");
    } catch (error) {
      return null;
    }
  }

  // Is the rack's last tile the one just drawn, to be set apart? The view says so: its
  // ``rack`` puts ``drawn`` at the right end (protocol/table/views/contract_view.py).
  function drawnApart(view, rack) {
    return !!view.drawn && Array.isArray(view.rack) && rack.length > 0 &&
      rack[rack.length - 1] === view.drawn;
  }

  // Our concealed tiles in the order shown: the view's ``rack`` (the tile just drawn last;
  // a daemon without it: the sorted ``hand``), or the player's own (dragged) order kept for
  // the tiles still there, new ones at the end; the tile just drawn stays at the right end.
  function rackCodes(event) {
    const view = (event && event.view) || {};
    const hand = Array.isArray(view.rack) ? view.rack : view.hand;
    if (!Array.isArray(hand)) return [];
    if (!state.order || !event || event !== state.event) return hand.map(String);
    const left = hand.map(String);
    const drawn = drawnApart(view, left) ? left.pop() : null;
    const out = [];
    for (const code of state.order) {
      const i = left.indexOf(code);
      if (i >= 0) { out.push(code); left.splice(i, 1); }
    }
    return out.concat(left, drawn === null ? [] : [drawn]);
  }

  function showsRack() { return screenOf(state.event) === "table"; }

  function tileBound(action, rack) {
    const tiles = action.tiles || [];
    return action.type === "discard" && !("choose" in action) && tiles.length === 1 &&
      rack.includes(tiles[0]);
  }

  function menuActions(event) {
    const rack = rackCodes(event);
    return ((event && event.legal_actions) || []).filter((a) => !tileBound(a, rack));
  }

  function checkChoice(action, chosen) {
    const want = Number(action.choose || 0);
    if (chosen.length !== want) {
      return `${action.label}: select ${want} tile(s), you selected ${chosen.length}`;
    }
    const allowed = [...(action.tiles || [])];
    for (const code of chosen) {
      const i = allowed.indexOf(code);
      if (i < 0) return `${action.label}: ${code} cannot be chosen`;
      allowed.splice(i, 1);
    }
    return null;
  }

  async function act(action) {
    const event = state.event;
    if (!event) return;
    if (!live()) { say(state.stopped || "your fourwinds daemon stopped: nothing can be done now"); return; }
    const key = decisionKey(event);
    if (state.answered === key) { say("sent; waiting for the table"); return; }
    const rack = rackCodes(event);
    const request = { type: "act", table: event.table, seq: event.seq, action: action.id,
      expected: action };
    if ("choose" in action) {
      const chosen = [...state.selected].sort((a, b) => a - b).map((i) => rack[i]);
      const problem = checkChoice(action, chosen);
      if (problem) { say(problem); return; }
      request.tiles = chosen;
    }
    const label = action.label || action.type;
    const final = action.type !== "more_time";
    if (final) state.answered = key;
    const sent = ask(request);   // sent before the page redraws: the table waits for it
    say(`sending: ${label}`);
    render();
    const answer = await sent;
    if (answer.ok) {
      if (final) state.selected.clear();
      say(`sent: ${label}`);
    } else {
      if (state.answered === key) state.answered = null;
      say(`refused: ${answer.error || "no reason given"}`);
    }
    render();
  }

  function discardAt(index) {
    const rack = rackCodes(state.event);
    const code = rack[index];
    const action = ((state.event || {}).legal_actions || [])
      .find((a) => tileBound(a, rack) && a.tiles[0] === code);
    if (action) act(action);
    else say(code ? `you may not discard ${code} now` : "no tile there");
  }

  function toggle(index) {
    if (state.selected.has(index)) state.selected.delete(index);
    else state.selected.add(index);
  }

  function choosing() {
    return ((state.event || {}).legal_actions || []).some((a) => "choose" in a);
  }

  // -- keys -----------------------------------------------------------------------------------

  function onKey(e) {
    if (e.target.closest && e.target.closest("input, select, textarea")) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    let key = e.key;
    if (key === "Escape" && state.overlay) { closeOverlay(); e.preventDefault(); return; }
    if (state.overlay) {
      closeOverlay();
      e.preventDefault();
      return;
    }
    const rack = showsRack() ? rackCodes(state.event) : [];
    if (key in COMMAND_LETTERS && LETTERS.indexOf(key) >= rack.length) key = COMMAND_LETTERS[key];
    if (handleKey(key, rack)) e.preventDefault();
  }

  function handleKey(key, rack) {
    const pages = { "?": "help", S: "scores", H: "history", C: "sheet" };
    if (pages[key]) { openOverlay(pages[key]); return true; }
    if (key === "Q") { backFromTable(); return true; }
    if (key === "Tab") { state.showHints = !state.showHints; render(); return true; }
    const event = state.event;
    if (!event || screenOf(event) === "lobby-screen") return false;
    if (key === "L" && screenOf(event) === "waiting") { leaveTable(); return true; }
    const legal = event.legal_actions || [];
    const menu = menuActions(event);
    // a key that would say "next" within a second of a hand's end was meant for the discard
    // before it (the terminal's RESULT_GUARD_S, frontends/terminal/table_keys.py)
    if ((key === "Enter" || key === "N" || /^[1-9]$/.test(key)) && state.event
        && screenOf(state.event) === "result" && performance.now() - state.decisionShownAt < 1000) {
      say("the hand has just ended: look at the result, then press n to go on");
      return true;
    }
    if (key === "T" || key === "N") {
      const kinds = key === "T" ? ["more_time"] : ["next", "ready"];
      const action = legal.find((a) => kinds.includes(a.type));
      if (action) act(action);
      else say(key === "T" ? "more time is not offered now" : "the table is not waiting for you to go on");
      return true;
    }
    if (key === "ArrowLeft" || key === "ArrowRight") {
      if (rack.length) state.cursor = Math.max(0, Math.min(rack.length - 1, state.cursor + (key === "ArrowLeft" ? -1 : 1)));
      state.menuAimed = false;
      render();
      return true;
    }
    if (key.length === 1 && LETTERS.includes(key)) {
      const index = LETTERS.indexOf(key);
      if (index >= rack.length) { say(`no tile '${key}' in your rack`); return true; }
      state.cursor = index;
      state.menuAimed = false;
      if (choosing()) toggle(index);
      render();
      return true;
    }
    if (key === " ") {
      if (rack.length) { toggle(state.cursor); render(); }
      return true;
    }
    if (key === "ArrowUp" || key === "ArrowDown") {
      if (menu.length) state.menu = (state.menu + (key === "ArrowUp" ? -1 : 1) + menu.length) % menu.length;
      state.menuAimed = true;
      render();
      return true;
    }
    if (/^[1-9]$/.test(key)) {
      const action = menu[Number(key) - 1];
      if (action) act(action);
      else say(`no action ${key}`);
      return true;
    }
    if (key === "Enter") {
      const bound = legal.filter((a) => tileBound(a, rack));
      if (state.menuAimed && menu.length) { act(menu[Math.min(state.menu, menu.length - 1)]); return true; }
      if (bound.length && rack.length) {
        const code = rack[Math.min(state.cursor, rack.length - 1)];
        const match = bound.find((a) => a.tiles[0] === code);
        if (match) { act(match); return true; }
        if (!menu.length) { say(`you may not discard ${code} now`); return true; }
      }
      if (menu.length) act(menu[Math.min(state.menu, menu.length - 1)]);
      else say("nothing to do now");
      return true;
    }
    return false;
  }

  // -- screens --------------------------------------------------------------------------------

  // The screen a view is drawn on. A hand's table only from a view that has our seat: while
  // the dice seat the players and the wall is built the view has none (our wind is not
  // known yet), and the page says what the table is doing instead of drawing a table.
  function screenOf(event) {
    if (!event) return "lobby-screen";
    // the daemon's seat view decides the screen (protocol/table/views/screens.py): "lobby" is
    // this page's "waiting" (the page's own lobby lists tables), and so is "reconnecting"
    // (our daemon catching up after a restart: what it holds is stale, so no table)
    const screen = (event.view || {}).screen;
    return screen === "lobby" || screen === "reconnecting" ? "waiting" : screen || "table";
  }

  function show(screen) {
    setData(document.body, "screen", screen);
    for (const id of ["lobby", "waiting", "dealing", "table", "result", "tournament"]) {
      if ($(id).hidden !== (id !== screen)) $(id).hidden = id !== screen;
    }
  }

  function deadlineLeft(view) {
    if (!live()) return null;   // no countdown on a page that cannot act
    let deadline = view.deadline;
    if (deadline === null || deadline === undefined) deadline = (view.next || {}).deadline;
    if (deadline === null || deadline === undefined) return null;
    return Math.max(0, Number(deadline) - (performance.now() - state.receivedAt) / 1000);
  }

  function render() {
    const event = state.event;
    if (!event || state.table === null) return;
    const view = event.view || {};
    const screen = screenOf(event);
    // the last "sent: ..." answered a decision of its phase: it goes when the phase does
    const phaseKey = `${view.phase === "claim" ? "play" : view.phase}/${view.hand_number}`;
    if (state.phaseKey !== undefined && state.phaseKey !== phaseKey) say("");
    state.phaseKey = phaseKey;
    setData(document.body, "phase", view.phase || "");
    setData(document.body, "reconnecting", view.reconnecting ? "yes" : "no");
    setData(document.body, "answered", state.answered ? "yes" : "no");
    const rules = (view.ruleset && view.ruleset.title) || view.rules || "";
    setText($("info"), [`table ${event.name || view.table || ""}`,
      rules + (view.practice ? " practice" : "") + (view.flowers === false ? " without flowers" : ""),
      screen === "waiting" ? `${view.hands_in_match} hands` : `hand ${view.hand_number}/${view.hands_in_match}`,
      view.prevalent_wind !== null && view.prevalent_wind !== undefined ? `prevalent ${Views.WINDS[view.prevalent_wind]}` : null,
      Number.isInteger(view.seat) && screen !== "waiting" ? `you: ${Views.WINDS[view.seat]}` : null]
      .filter(Boolean).join(" \u00b7 "));
    const thinking = (view.players || []).filter((p) => p.thinking).map((p) => `${p.name} is thinking`);
    setText($("phase"), [view.phase_detail || view.phase || "", ...thinking, view.paused || ""]
      .filter(Boolean).join(" \u00b7 "));
    show(screen);
    if (screen === "waiting") renderWaiting(event, view);
    else if (screen === "dealing") {
      setText($("dealing-title"), `Hand ${view.hand_number} of ${view.hands_in_match}: ` +
        `${view.phase_detail || "the hand is being dealt"}`);
    } else if (screen === "result") renderResult(event, view);
    else renderTable(event, view);
    tick();
    updateTitle();
    if (state.overlay) fillOverlay();
  }

  // The lobby and the end of a hand are drawn again only when what they show changed: a view
  // arrives every few seconds, and a button replaced under the pointer loses its click.
  function renderWaiting(event, view) {
    setText($("waiting-title"), `Table ${event.name || ""}: ${view.phase_detail || "waiting for players"}`);
    if (view.reconnecting) {   // no places, timers or actions until the daemon holds the table again
      redraw($("places"), "reconnecting", () => []);
      setText($("timers"), "");
      $("private-code").hidden = true;
      redraw($("waiting-actions"), "reconnecting", () => [h("p", { id: "reconnecting",
        text: "The table comes back as soon as your daemon holds what the other seats hold." })]);
      return;
    }
    redraw($("places"), JSON.stringify([view.players, view.seat, state.members]),
      () => Views.places(view, state.members));
    setText($("timers"), Views.windowsText(view));
    // a private table's host: the code friends need, while places are free (the daemon says)
    setText($("private-code"), event.code
      ? `Private table: code ${event.code}; friends join with fourwinds play --join ${event.name || "TABLE"} --code ${event.code}`
      : "");
    $("private-code").hidden = !event.code;
    const legal = event.legal_actions || [];
    redraw($("waiting-actions"), JSON.stringify([legal, state.menu, live()]), () => {
      const leave = h("button", { id: "lobby-leave-button", class: "leave", disabled: !live(),
        text: "Leave the table", title: "give up your place for good (key L)" });
      leave.addEventListener("click", leaveTable);
      return [...actionButtons(event, []), legal.length ? null
        : h("p", { text: "The match starts when all four players are seated and ready." }),
      h("div", { class: "actions" }, leave)];
    });
  }

  function renderResult(event, view) {
    const legal = event.legal_actions || [];
    const ourNext = live() && legal.some((a) => a.type === "next");
    const left = deadlineLeft(view);
    const next = view.next || {};
    redraw($("result"), JSON.stringify([view.phase, view.hand_number, view.result,
      view.standings, view.players, next.waiting, view.waiting_for, legal, state.menu,
      left === null, live()]), () => {
      const parts = [...Views.result(view), ...Views.nextLines(view, left, ourNext),
        h("div", { class: "actions" }, actionButtons(event, []))];
      if (view.phase === "match_over") {
        const leave = h("button", { id: "leave-button", text: "Leave the table", disabled: !live() });
        leave.addEventListener("click", leaveTable);
        parts.push(h("div", { class: "actions" }, leave));
      }
      return [h("section", { class: "panel" }, parts)];
    });
  }

  function renderTable(event, view) {
    const places = Views.seatPlaces(view);
    const bySeat = Views.players(view);
    const last = view.last_discard || null;
    for (const [where, seatNo] of Object.entries(places)) {
      const node = $(`seat-${where}`);
      renderSeat(node, view, bySeat[seatNo], seatNo, last && last.seat === seatNo ? last.index : null);
      if (node.classList.contains("turn") !== (view.turn === seatNo)) node.classList.toggle("turn");
    }
    const left = deadlineLeft(view);   // (the countdown's figure is tick's to keep)
    redraw($("center"), JSON.stringify([view.wall_remaining, view.turn, view.seat, last,
      view.unreachable, (view.players || []).map((p) => p.name), left !== null]),
    () => Views.center(view, left));
    redraw($("hints"), JSON.stringify([state.showHints, view.rules, view.hints]),
      () => (state.showHints ? Views.hints(view) : []));
    const noHints = !state.showHints || !(view.hints || []).length;
    if ($("hints").hidden !== noHints) $("hints").hidden = noHints;
    const rack = rackCodes(event);
    const legal = event.legal_actions || [];
    const bound = legal.filter((a) => tileBound(a, rack));
    const chooser = legal.find((a) => "choose" in a);
    // the view's news: a call of ours that lost, who stopped the Charleston, the tiles received
    const news = view.news || [];
    redraw($("news"), JSON.stringify(news), () => news.map((text) => h("li", { text })));
    if ($("news").hidden !== !news.length) $("news").hidden = !news.length;
    const received = receivedPlaces(view, rack);
    const apart = drawnApart(view, rack);
    setText($("rack-title"), `Your hand (${Views.WINDS[view.seat] || "?"}): ${rack.length} tiles` +
      (view.drawn ? `, drew ${view.drawn}` + (apart ? " (at the right)" : "") : "") +
      (received.size ? " (tiles received marked new)" : "") +
      (Views.liveWins(view) ? ` \u00b7 ${Views.liveWins(view)}` : ""));
    // redrawn only when it changed: a click or a drag is never lost to a redraw
    const signature = JSON.stringify([rack, state.cursor, [...state.selected],
      bound.map((a) => [a.tiles[0], !!a.default]), chooser ? chooser.tiles : null, [...received],
      apart]);
    redraw($("rack"), signature, () => rack.map((code, i) =>
      rackTile(code, i, bound, chooser, received, apart && i === rack.length - 1)));
    const notes = [];
    if (bound.length) {
      const d = bound.find((a) => a.default);
      notes.push(h("p", { class: "note", text: "Your discard: double-click a tile (or Enter on the cursor)" +
        (d ? `; default ${d.tiles[0]}` : "") }));
    }
    if (chooser) {
      notes.push(h("p", { class: "note", text: `${chooser.label}: select ${chooser.choose} ` +
        `tile${chooser.choose === 1 ? "" : "s"} (${state.selected.size} selected), then press it` }));
    }
    if (!legal.length) notes.push(h("p", { class: "note", text: "Nothing to do now." }));
    const actionsSignature = JSON.stringify([legal, state.menu, state.selected.size, live()]);
    redraw($("actions"), actionsSignature, () => [...notes, ...actionButtons(event, rack)]);
  }

  // A seat's head, exposures and discards, each redrawn only when it changed; a discard
  // adds one tile to its row rather than drawing the row again. ``claimable``: the place in
  // this seat's row of the discard the others may claim now (the view's last_discard.index),
  // the one tile outlined; null when it is not this seat's.
  function renderSeat(node, view, player, seatNo, claimable) {
    if (node.children.length !== 3) {
      put(node, h("div", { class: "seat-head" }), h("div", { class: "exposed" }),
        h("div", { class: "discards" }));
    }
    const [head, exposed, discards] = node.children;
    if (!player) {
      for (const part of [head, exposed]) redraw(part, "", () => []);
      rows.set(discards, []);
      put(discards);
      return;
    }
    // (the seat's wind too: at a new hand the winds move on while name, score and count can
    // stay the same, and the head kept the last hand's wind)
    redraw(head, JSON.stringify([player.seat, player.name, player.score, player.concealed_count,
      view.seat === seatNo, view.dealer === seatNo, view.turn === seatNo, player.dead,
      player.connected, player.thinking, (view.waiting_for || []).includes(seatNo)]),
    () => Views.seatHead(view, player));
    const melds = (player.exposures || []).length;
    const known = meldCounts.get(exposed);
    meldCounts.set(exposed, melds);
    redraw(exposed, JSON.stringify([player.exposures, player.flowers]), () => {
      const parts = Views.exposed(player);
      // a call just made: its meld (the last) is laid down with a short animation, only when
      // the count grew while the page watched (not on a first draw or a reload)
      if (known !== undefined && melds > known) {
        const laid = parts[0].slice(known);
        for (const meld of laid) meld.classList.add("called");
      }
      return parts;
    });
    const codes = (player.discards || []).map(String);
    const watched = rows.has(discards);   // false on the page's first draw of this seat
    const was = rows.get(discards) || [];
    rows.set(discards, codes);
    if (was.length <= codes.length && was.every((code, i) => code === codes[i])) {
      // a new discard lands in the pond (a short animation, played once: the tile is added,
      // never drawn again, so a later view that changes nothing here replays nothing)
      const fresh = codes.slice(was.length).map((code) => Tiles.svg(code, "small"));
      if (watched) for (const tile of fresh) tile.classList.add("fresh");
      discards.append(...fresh);
    } else {
      put(discards, ...codes.map((code) => Tiles.svg(code, "small")));
    }
    const marked = Number.isInteger(claimable) ? discards.children[claimable] || null : null;
    for (const tile of discards.querySelectorAll("svg.tile.last")) {
      if (tile !== marked) tile.classList.remove("last");
    }
    if (marked && !marked.classList.contains("last")) marked.classList.add("last");
  }

  // The rack places of the tiles the last pass brought us (the view's ``received``: codes),
  // each code marking one tile of that code, as the terminal table marks them (+).
  function receivedPlaces(view, rack) {
    const out = new Set();
    for (const code of view.received || []) {
      const i = rack.findIndex((c, j) => c === code && !out.has(j));
      if (i >= 0) out.add(i);
    }
    return out;
  }

  function rackTile(code, index, bound, chooser, received, drawn) {
    const classes = ["rack-tile"];
    if (drawn) classes.push("drawn");   // set apart at the right end: the tile just drawn
    if (index === state.cursor) classes.push("cursor");
    if (received && received.has(index)) classes.push("received");
    if (state.selected.has(index)) classes.push("selected");
    const discard = bound.find((a) => a.tiles[0] === code);
    if (discard) classes.push("discardable");
    if (discard && discard.default && rackCodes(state.event).lastIndexOf(code) === index) {
      classes.push("default");   // one tile marked, not every tile of that kind
    }
    if (chooser && !(chooser.tiles || []).includes(code)) classes.push("dim");
    const node = h("div", { class: classes.join(" "), draggable: "true", "data-index": String(index),
      title: drawn ? "the tile you just drew" : null,
      "data-code": code, role: "option", "aria-selected": state.selected.has(index) ? "true" : "false" },
    Tiles.svg(code, "big"), h("span", { class: "letter", text: LETTERS[index] || "" }));
    node.addEventListener("click", () => {
      state.cursor = index;
      state.menuAimed = false;
      if (choosing()) toggle(index);
      render();
    });
    node.addEventListener("dblclick", () => { state.cursor = index; discardAt(index); });
    node.addEventListener("dragstart", (e) => { e.dataTransfer.setData("text/plain", String(index)); });
    node.addEventListener("dragover", (e) => e.preventDefault());
    node.addEventListener("drop", (e) => {
      e.preventDefault();
      moveTile(Number(e.dataTransfer.getData("text/plain")), index);
    });
    return node;
  }

  function moveTile(from, to) {
    const rack = rackCodes(state.event);
    if (!(from >= 0 && from < rack.length) || from === to) return;
    const [code] = rack.splice(from, 1);
    rack.splice(to, 0, code);
    state.order = rack;
    state.selected.clear();
    state.cursor = to;
    sessionStorage.setItem(orderKey(state.event), JSON.stringify(rack));
    render();
  }

  function actionButtons(event, rack) {
    const menu = (event.legal_actions || []).filter((a) => !tileBound(a, rack));
    return menu.map((action, i) => {
      const label = action.label || action.type;
      const showTiles = !("choose" in action) && (action.tiles || []).length &&
        !(action.tiles || []).every((t) => label.includes(t));
      const button = h("button", { class: `action${i === state.menu ? " highlight" : ""}` +
        (action.default ? " default" : ""), "data-id": String(action.id), "data-type": action.type,
      "data-default": action.default ? "yes" : null, disabled: !live(),
      title: live() ? (action.default ? "taken for you when the time runs out" : "") : state.stopped || "your daemon stopped" },
      h("span", { class: "key", text: i < 9 ? String(i + 1) : "" }), label,
      "choose" in action ? ` (select ${action.choose})` : "",
      showTiles ? h("span", { class: "tiles" }, (action.tiles || []).map((t) => Tiles.svg(t, "small"))) : null,
      action.default ? h("span", { class: "flag", text: "default" }) : null);
      button.addEventListener("click", () => { state.menu = i; act(action); });
      return button;
    });
  }

  function tick() {
    const event = state.event;
    if (!event) { setText($("clock"), ""); return; }
    const view = event.view || {};
    const left = deadlineLeft(view);
    // past another seat's window, or a seat unreachable: whom the table waits for, not "0 s"
    const held = view.waiting && view.waiting.text ? view.waiting.text : null;
    setText($("clock"), held !== null ? held : left === null ? "" : `time ${Math.ceil(left)} s`);
    const urgent = held === null && left !== null && left < 5;
    if ($("clock").classList.contains("urgent") !== urgent) $("clock").classList.toggle("urgent");
    const screen = screenOf(event);   // (the hidden table keeps its own countdown)
    const countdown = document.querySelector(`#${screen} .countdown`);
    if (countdown && held !== null) setText(countdown, held);
    else if (countdown && left !== null) {
      const then = (view.next && view.next.then) || "Next hand";   // the view says which
      setText(countdown, screen === "result" ? `${then} in ${Math.ceil(left)} s` : `${Math.ceil(left)} s`);
    }
  }

  // -- pages on demand ---------------------------------------------------------------------------

  async function openOverlay(which) {
    state.overlay = which;
    $("overlay").hidden = false;
    const asking = which === "sheet" ? askSheet() : null;   // (forgets another table's first)
    fillOverlay();
    if (which === "help" && !state.keys) {   // the terminal's key table, from the server
      const answer = await ask({ type: "keys" });
      if (answer.ok) state.keys = answer.sections;
      if (state.overlay === "help") fillOverlay();
    }
    if (asking) await asking;
  }

  // The card (or fan list) from the daemon: the open table's; in the lobby, with no table
  // open, the one a table hosted from the lobby would play (the rules chosen there).
  async function askSheet() {
    const request = state.table ? { type: "sheet", table: state.table }
      : { type: "sheet", rules: $("host-rules").value };
    const key = JSON.stringify(request);
    if (state.sheetFor !== key) {
      state.sheetFor = key;
      state.sheet = null;
    }
    if (state.sheet) return;
    state.sheetProblem = "";
    const answer = await ask(request);   // (sent at once: the page is drawn meanwhile)
    if (state.sheetFor !== key) return;   // asked again for another table meanwhile
    if (answer.ok) state.sheet = answer.sheet;
    else state.sheetProblem = `The daemon has no card to show: ${answer.error || "no reason given"}`;
    if (state.overlay === "sheet") fillOverlay();
  }

  function fillOverlay() {
    const view = (state.event || {}).view || {};
    const which = state.overlay;
    const chosen = $("host-rules").selectedOptions[0];
    const lobbyRules = state.table ? null : chosen ? chosen.textContent : "";
    const body = which === "sheet" ? Views.sheet(state.sheet, state.sheetProblem, lobbyRules)
      : which === "history" ? Views.history(view) : which === "scores" ? Views.scores(view)
        : Views.help(state.keys);
    document.body.dataset.overlay = which;
    put($("overlay-body"), ...body);
  }

  function closeOverlay() {
    state.overlay = null;
    delete document.body.dataset.overlay;
    $("overlay").hidden = true;
  }

  // -- the lobby ----------------------------------------------------------------------------------

  async function refreshTables() {
    const events = await ask({ type: "tournament_list" });
    state.events = events.ok ? events : null;
    const answer = await ask({ type: "tables" });
    if (!answer.ok) return null;
    state.tables = answer;
    if (state.table) {
      const mine = (answer.tables || []).find((t) => String(t.table).startsWith(state.table) || t.name === state.table);
      state.members = mine ? mine.members || [] : [];
    }
    return answer;
  }

  async function showLobby() {
    state.table = null;
    state.event = null;
    state.sheet = null;
    updateTitle();
    closeOverlay();
    history.replaceState(null, "", location.pathname);
    document.body.dataset.phase = "";
    $("info").textContent = state.hello && state.hello.name ? `you: ${state.hello.name}` : "";
    $("phase").textContent = "Lobby: your tables, tables nearby, or host a new one";
    $("clock").textContent = "";
    show("lobby");
    await refreshTables();
    renderLobby();
  }

  function renderLobby() {
    const answer = state.tables || {};
    const mine = (answer.tables || []).map((t) => {
      const open = h("button", { class: "open", "data-table": t.table, text: "Open" });
      open.addEventListener("click", () => openTable(t.table));
      return h("div", { class: "row" }, open, ` ${t.name} \u00b7 ${t.rules_label || t.rules} \u00b7 ${t.seated}/4 seated` +
        (t.code ? ` \u00b7 code ${t.code}` : "") + ` \u00b7 ${String(t.table).slice(0, 8)}`);
    });
    for (const t of answer.set_aside || []) {
      mine.push(h("div", { class: "row", text: `${t.name} (${t.rules}): set aside, ${t.set_aside}` }));
    }
    put($("mine"), ...(mine.length ? mine : [h("p", { text: "You sit at no table." })]));
    const seen = (answer.seen || []).map((t) => {
      const code = h("input", { size: "8", placeholder: "code", "aria-label": "code" });
      const join = h("button", { text: "Join", disabled: t.compatible === false || t.free <= 0 });
      join.addEventListener("click", () => joinTable({ table: t.table, code: code.value.trim() }));
      return h("div", { class: "row" }, join, t.private ? code : null,
        ` ${t.name} \u00b7 ${t.rules_label || t.rules} \u00b7 ${t.free <= 0 ? "full" : `${t.free} free`}` +
        // the host by its player name: a key fingerprint is for pairing and whoami only
        `${t.private ? " \u00b7 private" : ""} \u00b7 host ${t.player ? `${t.player} ` : ""}at ${t.host}:${t.port}` +
        (t.compatible === false ? ` (protocol ${t.version}: cannot join)` : ""));
    });
    put($("seen"), ...(seen.length ? seen : [h("p", { text: "No other tables seen (yet)." })]));
    const held = ((state.events || {}).events || []).map((e) => {
      const open = h("button", { class: "open", text: "Show", "data-event": e.name });
      open.addEventListener("click", () => showEvent(e.name));
      return h("div", { class: "row" }, open, ` ${e.name} \u00b7 ${e.rules_label || e.rules} \u00b7 ` +
        `${e.entrants.length} entrants \u00b7 round ${e.rounds_started} of ${e.rounds}` +
        (e.director ? " \u00b7 you direct it" : ""));
    });
    const announced = ((state.events || {}).seen || []).map((e) => h("div", {
      class: "row", text: `${e.name} \u00b7 ${e.rules_label || e.rules} \u00b7 directed by ` +
        `${e.director || "a player"} at ${e.host}:${e.port} (fourwinds tournament join)` }));
    put($("events"), ...(held.length || announced.length ? [...held, ...announced]
      : [h("p", { text: "No tournaments here: fourwinds tournament create or join." })]));
  }

  // -- a tournament: the room's screen (a projector) and a player's ------------------------------

  // What the daemon's record of the event says, redrawn every 2 s while shown: the round's
  // clock (a timed event), its tables with their results, whom a round's seed waits for, the
  // standings. Only reads.
  async function showEvent(name) {
    state.table = null;
    state.event = null;
    state.eventName = name;
    closeOverlay();
    history.replaceState(null, "", `#event=${encodeURIComponent(name)}`);
    $("clock").textContent = "";
    $("phase").textContent = `Tournament ${name}`;
    $("event-room").href = `/room?event=${encodeURIComponent(name)}`;
    show("tournament");
    await refreshEvent();
  }

  async function refreshEvent() {
    const name = state.eventName;
    if (!name || document.body.dataset.screen !== "tournament") return;
    const [status, standings] = await Promise.all([
      ask({ type: "tournament_status", name }), ask({ type: "tournament_standings", name })]);
    if (name !== state.eventName || document.body.dataset.screen !== "tournament") return;
    if (!status.ok) { say(`cannot show ${name}: ${status.error}`); return; }
    renderEvent(status, standings.ok ? standings.standings : []);
    // the daemon's label: provisional while the round's tables play, after a round, final
    setText($("event-standings-state"), standings.ok && standings.state ? standings.state.label : "");
  }

  function renderEvent(event, standings) {
    setText($("event-title"), `${event.name}`);
    setText($("event-summary"), `${event.rules_label || event.rules}` +
      ` \u00b7 ${event.entrants.length} entrants \u00b7 round ${event.rounds_started} of ` +
      `${event.rounds} \u00b7 ${event.amount} ${event.amount === 1 ? event.length.slice(0, -1) : event.length} a round` +
      (event.entries_open ? " \u00b7 entries open" : ""));
    const round = event.round;
    let you = event.director ? "You direct this event." : "";
    if (round && round.my_table) you = `Round ${round.round}: you are ${round.my_wind} at table ${round.my_table}.`;
    setText($("event-you"), you);
    const parts = [];
    // our table of the round while its match is on (the daemon says which: my_table_open):
    // the page takes the player there once, and offers it again after Q
    const playing = event.my_table_open;
    if (playing) {
      const go = () => { state.fromEvent = event.name; openTable(playing); };
      const button = h("button", { id: "event-go-table", text: "Go to my table" });
      button.addEventListener("click", go);
      parts.push(button);
      if (!state.tablesTaken.has(playing)) { state.tablesTaken.add(playing); go(); }
    }
    // the round clock in the daemon's words (tournament status says the same), for the room
    const clock = event.clock;
    if (clock && clock.says) {
      parts.push(h("p", { class: "event-clock", text: `Clock, round ${clock.round}: ${clock.says}` }));
    }
    if (round) {
      parts.push(h("h3", { text: `Round ${round.round}` }));
      round.tables.forEach((table, t) => {
        const scores = (round.scores || [])[t];
        const seats = table.map((name, w) => `${Views.WINDS[w]} ${name || "bot"}` +
          (scores ? ` ${scores[w]}` : "")).join(" \u00b7 ");
        parts.push(h("div", { class: "row event-table", "data-table": String(t + 1),
          text: `Table ${t + 1}: ${seats}${scores ? "" : " (playing)"}` }));
      });
      if ((round.byes || []).length) parts.push(h("p", { text: `Byes: ${round.byes.join(", ")}` }));
    }
    const seeding = event.seeding;
    if (seeding && (seeding.waiting_for || []).length) {
      const called = seeding.ahead ? "'s seed is made ahead" : " is called";
      parts.push(h("p", { text: `Round ${seeding.round}${called}: its seed waits for ` +
        `${seeding.waiting_for.join(", ")} (${seeding.step})` }));
    }
    for (const problem of event.problems || []) parts.push(h("p", { class: "problem", text: problem }));
    put($("event-round"), ...parts);
    const head = h("tr", {}, ...["Rank", "Player", "Points", "Score", "Played"].map(
      (t) => h("th", { text: t })));
    const rows = standings.map((row) => h("tr", { class: "standing" },
      ...[row.rank, row.name, row.points_text ?? row.points, row.score, row.played].map(
        (v) => h("td", { text: String(v) }))));
    put($("event-standings"), head, ...rows);
  }

  async function joinTable(request) {
    say(`joining ${request.table}... (up to 30 s)`);
    const answer = await ask({ type: "join", ...request });
    if (!answer.ok) { say(`cannot join: ${answer.error}`); return; }
    say(`joined ${request.table}`);
    openTable(answer.table);
  }

  function number(id) {
    const text = $(id).value.trim();
    return text === "" ? null : Number(text);
  }

  async function hostTable() {
    const options = { hands: number("host-hands") || 0, auto_pass: $("host-autopass").checked };
    if ($("host-deck").value) options.deck = $("host-deck").value;
    if (!$("host-flowers").checked) options.rules = { flowers: false };  // MCR's own option
    for (const [id, key] of [["host-call", "call_window"], ["host-turn", "turn_window"],
      ["host-exchange", "exchange_window"], ["host-next", "next_window"]]) {
      if (number(id) !== null) options[key] = number(id);
    }
    const bots = Number($("host-bots").value);
    $("host-button").disabled = true;
    say(bots ? `hosting, and seating ${bots} bot${bots > 1 ? "s" : ""} (each its own daemon)...` : "hosting...");
    const answer = await ask({ type: "host", name: $("host-name").value.trim(), rules: $("host-rules").value,
      private: $("host-private").checked, bots, bot_level: $("host-bot-level").value || null, options });
    $("host-button").disabled = false;
    if (!answer.ok) { say(`cannot host: ${answer.error}`); return; }
    say(`hosting ${answer.name}` + (answer.code ? `: players join with code ${answer.code}` : ""));
    openTable(answer.table);
  }

  async function addPeer() {
    const text = $("peer-address").value.trim();
    const match = /^(.+):(\d+)$/.exec(text);
    if (!match) { say("give the address as HOST:PORT, e.g. 10.0.4.17:7420"); return; }
    const answer = await ask({ type: "peer", host: match[1], port: Number(match[2]) });
    say(answer.ok ? `asking ${text}` : `cannot add ${text}: ${answer.error}`);
    refreshTables().then(renderLobby);
  }

  // Leave the table for good. What it does to the others comes from the daemon (the table
  // summary's leave_warning: a started match cannot go on, a hosted lobby closes); with one,
  // the player confirms first, as `fourwinds leave` asks on a terminal.
  async function leaveTable() {
    const tables = await refreshTables();
    const mine = ((tables && tables.tables) || []).find((t) => String(t.table).startsWith(state.table) || t.name === state.table);
    const warning = mine ? mine.leave_warning || "" : "";
    if (warning && !window.confirm(`${warning[0].toUpperCase()}${warning.slice(1)}. Leave the table for good?`)) {
      say("you still sit at the table");
      return;
    }
    const answer = await ask({ type: "leave", table: state.table, force: !!warning });
    if (!answer.ok) { say(`cannot leave: ${answer.error}`); return; }
    say("you left the table");
    showLobby();
  }

  function say(text) { $("message").textContent = text; }

  // -- wiring -----------------------------------------------------------------------------------

  document.addEventListener("keydown", onKey);
  document.addEventListener("visibilitychange", updateTitle);
  $("sound-button").addEventListener("click", toggleSound);
  showSound();
  for (const button of document.querySelectorAll("#tools button[data-key]")) {
    button.addEventListener("click", () => {
      const key = button.dataset.key;
      if (state.overlay) closeOverlay();
      handleKey(key, showsRack() ? rackCodes(state.event) : []);
    });
  }
  $("overlay-close").addEventListener("click", closeOverlay);
  $("overlay").addEventListener("click", (e) => { if (e.target === $("overlay")) closeOverlay(); });
  $("host-button").addEventListener("click", hostTable);
  $("join-button").addEventListener("click", () => {
    const table = $("join-table").value.trim();
    if (table) joinTable({ table, code: $("join-code").value.trim() });
    else say("name the table to join (or its id)");
  });
  $("peer-button").addEventListener("click", addPeer);
  $("event-back").addEventListener("click", () => { state.eventName = null; showLobby(); });
  setInterval(refreshEvent, 2000);
  setInterval(tick, 250);
  setInterval(async () => {
    const screen = document.body.dataset.screen;
    if (screen !== "lobby" && screen !== "waiting") return;
    await refreshTables();
    if (screen === "lobby" && document.body.dataset.screen === "lobby") renderLobby();
    else if (state.event && screenOf(state.event) === "waiting") render();
  }, 2000);
  connect();
})();
