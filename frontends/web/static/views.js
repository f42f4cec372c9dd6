// Drawing the daemon's seat view (docs/LOCAL-API.md) into the page: seats, the centre, the
// end-of-hand screen, the table's lobby and the pages opened on demand (card, history,
// scores, help). Only presentation: app.js owns the connection, the keys and the clicks.
"use strict";

const Views = (() => {
  const WINDS = ["East", "South", "West", "North"];
  const RESULT_TITLES = { mahjong: "Mahjong", wall_game: "Wall game (no winner)",
    draw: "Draw (the wall ran out, no winner)",
    dead_hand: "Dead hand (no seat can win; no winner)",
    unfinished: "Unfinished when time was called (0 for everyone)" };

  function h(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (value !== undefined && value !== null && value !== false) {
        node.setAttribute(key, value === true ? "" : value);
      }
    }
    for (const child of children.flat()) {
      if (child !== null && child !== undefined) {
        node.append(typeof child === "string" ? document.createTextNode(child) : child);
      }
    }
    return node;
  }

  const tiles = (codes, extra) => (codes || []).map((c) => Tiles.svg(c, extra));
  const players = (view) => {
    const bySeat = {};
    (view.players || []).forEach((p, i) => { bySeat[p.seat ?? i] = p; });
    return bySeat;
  };
  const nameOf = (view, seat) => (players(view)[seat] || {}).name || "";
  const who = (view, seat) => {
    const wind = WINDS[seat] || `seat ${seat}`;
    const name = nameOf(view, seat);
    return name ? `${wind} (${name})` : wind;
  };
  const signed = (n) => (n > 0 ? `+${n}` : `${n}`);

  // The other seats in turn order after ours: right, across, left.
  function seatPlaces(view) {
    const me = view.seat;   // (the page draws a table only from a view with our seat)
    return { right: (me + 1) % 4, across: (me + 2) % 4, left: (me + 3) % 4, me };
  }

  function flags(view, player) {
    const out = [];
    if (player.seat === view.seat) out.push(["you", "you"]);
    if (player.seat === view.dealer) out.push(["dealer", "dealer"]);
    if (player.seat === view.turn) out.push(["turn", "turn"]);
    if (player.dead) out.push(["dead", "dead hand"]);
    if (player.connected === false) out.push(["offline", "offline"]);
    if (player.thinking) out.push(["thinking", "thinking"]);
    if ((view.waiting_for || []).includes(player.seat)) out.push(["waiting", "to act"]);
    return out.map(([cls, text]) => h("span", { class: `flag ${cls}`, text }));
  }

  // One seat, in three parts the page redraws each on its own: the head (name, wind, score,
  // tiles in hand, flags), the exposures and flowers, and the discards in order (with the
  // table's last discard marked: see app.js).
  function seatHead(view, player) {
    return [h("span", { class: "wind", text: WINDS[player.seat] || "?" }),
      h("span", { class: "name", text: player.name || "?" }),
      h("span", { class: "score", text: `${player.score ?? 0} pts` }),
      h("span", { class: "count", text: `${player.concealed_count ?? "?"} in hand` }),
      flags(view, player)];
  }

  function exposed(player) {
    const exposures = (player.exposures || []).map((meld) => h("span",
      { class: "meld", title: meld.label || "" }, tiles(meld.tiles, "small"),
      h("span", { class: "meld-label",
        text: (meld.label || "") + (meld.from !== null && meld.from !== undefined
          ? ` from ${WINDS[meld.from][0]}` : "") })));
    return [exposures, (player.flowers || []).length
      ? h("span", { class: "flowers" }, tiles(player.flowers, "small")) : null];
  }

  function center(view, left) {
    const last = view.last_discard;
    const turn = view.turn;
    return [
      h("div", { class: "wall", text: `Wall: ${view.wall_remaining ?? "?"} tiles` }),
      turn !== null && turn !== undefined
        ? h("div", { class: "turn", text: `Turn: ${turn === view.seat ? "you" : who(view, turn)}` })
        : null,
      left !== null ? h("div", { class: "countdown",
        text: `${Math.ceil(left)} s` }) : null,
      last ? h("div", { class: "last-discard" },
        h("span", { text: `Last discard by ${who(view, last.seat)}` }),
        Tiles.svg(last.tile, "last")) : null,
      (view.unreachable || []).map((u) => h("div", { class: "unreachable",
        text: `${u.name} unreachable for ${u.for_s} s` +
          (u.last_address ? `, last address ${u.last_address}` : "") })),
    ];
  }

  // "5 live tiles win for you: 6p 9p" from the view's live_wins (MCR, a ready hand: the
  // tiles that win and how many of them are unseen); "" when the view gives none.
  function liveWins(view) {
    const wins = view.live_wins;
    if (!wins || !(wins.tiles || []).length) return "";
    const left = Number(wins.left || 0);
    return `${left} live tile${left === 1 ? "" : "s"} win${left === 1 ? "s" : ""} for you: ` +
      wins.tiles.join(" ");
  }

  function hints(view) {
    const list = view.hints || [];
    if (!list.length) return [];
    return [h("h3", { text: (view.ruleset && view.ruleset.hints_title) || "Hints" }),
      h("ul", {}, list.map((text) => h("li", { text: String(text) })))];
  }

  // The end of a hand: headline, winning tile, the hand laid out, card line or fans,
  // payments and scores, the audit; the standings when the match is over.
  function result(view) {
    const r = view.result || {};
    const out = [];
    if (view.phase === "match_over" && (view.standings || []).length) {
      const me = nameOf(view, view.seat);
      out.push(h("section", { class: "standings" }, h("h2", { text: "Final standings" }),
        h("table", {}, view.standings.map((s) => h("tr",
          { class: s.name === me ? "you" : "" }, h("td", { text: `${s.rank}.` }),
          h("td", { text: s.name + (s.name === me ? " (you)" : "") }),
          h("td", { class: "num", text: String(s.score) }))))));
    }
    if (!view.result) return out;
    let title = RESULT_TITLES[r.kind] || String(r.kind || "?").replace("_", " ");
    if (r.winner !== null && r.winner !== undefined) title += ` by ${who(view, r.winner)}`;
    out.push(h("h2", { id: "result-title", text: `Hand ${view.hand_number ?? "?"} over: ${title}` }));
    if (r.winning_tile) {
      let text = `Winning tile ${r.winning_tile} (${Tiles.name(r.winning_tile)})`;
      if (r.self_drawn) text += ", self-drawn";
      else if (r.from_seat !== null && r.from_seat !== undefined) {
        text += `, discarded by ${WINDS[r.from_seat]}` + (r.from_name ? ` (${r.from_name})` : "");
      }
      out.push(h("p", { class: "winning" }, Tiles.svg(r.winning_tile, "last"), text));
    }
    const groups = [];
    if ((r.concealed || []).length) groups.push(r.concealed);
    (r.exposures || []).forEach((g) => groups.push(g));
    if (!groups.length && (r.tiles || []).length) groups.push(r.tiles);
    if (groups.length) {
      out.push(h("div", { class: "winning-hand" },
        groups.map((g) => h("span", { class: "meld" }, tiles(g))),
        (r.flowers || []).length ? h("span", { class: "meld flowers" }, tiles(r.flowers)) : null));
    }
    if (r.card_hand) {
      const c = r.card_hand;
      out.push(h("p", { class: "card-hand", text: `Card hand ${c.id}: ${c.pattern}` +
        ` (${c.section || ""}) value ${c.value}` + (c.jokerless ? ", jokerless" : "") }));
    } else if ((r.fans || []).length) {
      out.push(h("table", { class: "fans" }, r.fans.map((f) => h("tr", {},
        h("td", { text: f.name }), h("td", { class: "num",
          text: `${f.points}${f.count > 1 ? ` x${f.count}` : ""}` }))),
      h("tr", { class: "total" }, h("td", { text: "Total" }),
        h("td", { class: "num", text: `${r.total} points` }))));
    } else if (r.hand) {
      out.push(h("p", { text: `Hand: ${r.hand}` }));
    }
    out.push(...everyHand(view, r));
    const payments = r.payments || (r.payouts || []).map((amount, seatNo) =>
      ({ seat: seatNo, name: nameOf(view, seatNo), amount }));
    if (payments.length) {
      out.push(h("table", { class: "payments" },
        h("tr", {}, h("th", { text: "Player" }), h("th", { text: "This hand" }),
          h("th", { text: "Score" })),
        payments.map((p) => h("tr", {}, h("td", { text: `${WINDS[p.seat] || ""} ${p.name}` }),
          h("td", { class: "num", text: signed(p.amount) }),
          h("td", { class: "num", text: String((r.scores || [])[p.seat] ?? "") })))));
    }
    if (r.audit) {
      out.push(h("p", { class: r.audit === "ok" ? "audit" : "audit failed",
        text: r.audit === "ok" ? "Audit: ok (the wall and every seat's transcript check out)"
          : `Audit FAILED: ${r.audit}` }));
    }
    return out;
  }

  // Every seat's concealed tiles once the daemon reveals them (result.hands, by wind), one
  // seat under the other; until then its word on why not (result.hands_detail).
  function everyHand(view, r) {
    if (!Array.isArray(r.hands)) {
      return r.hands_detail ? [h("p", { class: "hands-detail", text: r.hands_detail })] : [];
    }
    return [h("section", { class: "every-hand", id: "every-hand" },
      h("h3", { text: "Every seat's tiles" }),
      r.hands.map((codes, seatNo) => h("div", { class: "seat-hand", "data-seat": seatNo },
        h("span", { class: "seat-hand-name", text: who(view, seatNo) }),
        (codes || []).length ? h("span", { class: "meld" }, tiles(codes, "small"))
          : h("span", { text: "(none concealed)" }))))];
  }

  function nextLines(view, left, ourNext) {
    if (view.phase === "match_over") return [h("p", { text: "The match is over." })];
    const nxt = view.next || {};
    const waiting = (nxt.waiting || view.waiting_for || []).filter((s) => s !== view.seat);
    return [
      left !== null ? h("p", { class: "countdown",
        text: `${nxt.then || "Next hand"} in ${Math.ceil(left)} s` }) : null,
      waiting.length ? h("p", { text: "Waiting for " + waiting.map((s) => who(view, s))
        .join(", ") + (left === null ? " (no time limit)" : "") }) : null,
      ourNext ? h("p", { text: `Press Enter or n when you are ready for the ${(nxt.then || "Next hand").toLowerCase()}.` }) : null,
    ];
  }

  function places(view, members) {
    const bySeat = players(view);
    // each member's place (a daemon before `leave` sends none: the join order)
    const byPlace = {};
    (members || []).forEach((m, i) => { byPlace[m.place === undefined ? i : m.place] = m; });
    const out = [];
    for (let place = 0; place < 4; place += 1) {
      const p = bySeat[place] || {};
      let name = p.name || "";
      const free = !name || /^seat \d+$/.test(name);
      if (free && byPlace[place]) name = byPlace[place].player || "a player (joining)";
      const marks = [];
      if (place === view.seat) marks.push("you");
      if (place === 0) marks.push("host");
      out.push(h("li", { class: free && !name ? "free" : "" },
        name && !/^seat \d+$/.test(name) ? name : "(free)",
        marks.length ? ` (${marks.join(", ")})` : "",
        p.ready ? h("span", { class: "flag ready", text: "ready" }) : null));
    }
    return out;
  }

  function windowsText(view) {
    const w = view.windows;
    if (!w) return "";
    const names = [["call", "call"], ["turn", "turn"], ["charleston", "Charleston"],
      ["next", "next hand"]];
    return "Timers: " + names.filter(([k]) => k in w).map(([k, label]) => (Number(w[k]) > 0
      ? `${label} ${w[k]} s` : `${label} ${k === "next" ? "waits for everyone" : "no limit"}`))
      .join(", ");
  }

  // ``lobbyRules``: in the lobby (no table open), the rules chosen under "Host a table",
  // whose sheet the daemon sent.
  function sheet(data, problem, lobbyRules) {
    if (!data) return [h("h2", { text: "The card" }), h("p", { text: problem || "Asking the daemon..." })];
    // the sheet's own words; an older daemon's sheet has none: fans in points when no entry
    // has a pattern, card hands otherwise
    const patterns = (data.entries || []).some((e) => e.pattern);
    const valueUnit = data.value_unit !== undefined ? data.value_unit : patterns ? "" : "pts";
    const note = lobbyRules ? h("p", { class: "note", text: `No table is open: this is what ` +
      `a table hosted from this lobby plays (${lobbyRules}, the rules chosen under "Host a ` +
      `table"). At a table, Card shows that table's own.` }) : null;
    const rows = [];
    let section = null;
    for (const e of data.entries || []) {
      if (e.section && e.section !== section) {
        rows.push(h("tr", { class: "section" }, h("th", { colspan: 4, text: e.section })));
      }
      section = e.section;
      rows.push(h("tr", {}, h("td", { text: e.id }), h("td", { class: "pattern", text: e.pattern || "" }),
        h("td", { class: "num", text: `${e.value}${valueUnit ? ` ${valueUnit}` : ""}` }),
        h("td", { text: e.concealed ? "concealed" : "" })));
    }
    return [h("h2", { text: data.title || "The card" }), note,
      h("table", { class: "sheet" }, rows)];
  }

  // History and Scores before there is a match to show: no table open (the lobby), or the
  // table's match not started (its lobby); null once it has.
  function noMatch(view, what) {
    if (!view.phase) {
      return h("p", { text: `No table is open: open one of your tables (or host one) to see ` +
        `${what}.` });
    }
    if (view.phase === "lobby") {
      return h("p", { text: `The match has not started yet: ${view.hands_in_match} ` +
        `hand${view.hands_in_match === 1 ? "" : "s"} once all four players are seated and ready.` });
    }
    return null;
  }

  function history(view) {
    const before = noMatch(view, "the hands of its match");
    if (before) return [h("h2", { text: "Hands of this match" }), before];
    const hands = view.history || [];
    return [h("h2", { text: `Hands of this match: ${hands.length} finished of ${view.hands_in_match}` }),
      hands.length ? h("ol", {}, hands.map((hand) => h("li", {},
        `Hand ${hand.hand_number}: ${RESULT_TITLES[hand.kind] || hand.kind}` +
        (hand.winner ? ` by ${hand.winner}` + (hand.self_drawn ? ", self-drawn"
          : hand.from ? `, off ${hand.from}'s discard` : "") : "") +
        (hand.summary ? ` - ${hand.summary}` : ""),
        h("div", { class: "pays", text: (hand.payments || []).map(([n, a]) => `${n} ${signed(a)}`)
          .join("   ") })))) : h("p", { text: "No hand has finished yet." })];
  }

  function scores(view) {
    const before = noMatch(view, "its scores and timers");
    if (before && !view.phase) return [h("h2", { text: "Scores" }), before];
    const list = [...(view.players || [])].sort((a, b) => (b.score ?? 0) - (a.score ?? 0));
    return [h("h2", { text: before ? "Scores" : `Scores: hand ${view.hand_number} of ${view.hands_in_match}` }),
      before,   // (before the match: no scores yet, and no winds to list them by)
      before ? null : h("table", {}, list.map((p, i) => h("tr", {}, h("td", { text: `${i + 1}.` }),
        h("td", { text: p.name + (p.seat === view.seat ? " (you)" : "") }),
        h("td", { text: WINDS[p.seat] }), h("td", { class: "num", text: String(p.score ?? 0) })))),
      h("p", { text: windowsText(view) })];
  }

  // The page's own clicks; the keys come from the server (frontends/terminal/table_help.py, the one
  // key table of the terminal, the README and this page).
  const CLICKS = [
    ["click a tile", "select it (the cursor); in a Charleston pass, choose it"],
    ["double-click a tile", "discard it, on your turn"],
    ["drag a tile", "move it in your rack (your order is kept)"],
    ["a button", "that action, as its number"],
  ];

  function help(sections) {
    const rows = (pairs) => h("table", {}, pairs.map(([k, t]) =>
      h("tr", {}, h("th", { text: k }), h("td", { text: t }))));
    return [h("h2", { text: "Keys and clicks" }), h("h3", { text: "Clicks" }), rows(CLICKS),
      ...(sections || []).flatMap((s) => [h("h3", { text: `${s.where}:` }), rows(s.keys)]),
      sections ? null : h("p", { text: "Asking the server for the keys..." }),
      h("p", { text: "Only legal actions are offered; the one marked 'default' is taken for " +
        "you when the countdown runs out." })];
  }

  return { h, seatHead, exposed, seatPlaces, center, hints, liveWins, result, nextLines, places, windowsText, sheet,
    history, scores, help, players, who, WINDS };
})();
