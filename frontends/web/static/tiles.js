// Tiles drawn by us, as SVG: suit, number, honours, flowers, jokers, the back of a tile.
// Colours are the Okabe-Ito palette (safe for the common colour blindnesses) and every suit
// also has its own shape (dots: rings, bams: sticks, craks: a knot), and every tile its code
// in the corner, so no tile is told apart by colour alone.
"use strict";

const Tiles = (() => {
  const NS = "http://www.w3.org/2000/svg";
  const COLOURS = { m: "#D55E00", p: "#0072B2", s: "#009E73", red: "#D55E00",
    green: "#009E73", white: "#0072B2", wind: "#1a1a1a", flower: "#CC79A7", joker: "#000" };
  const SUITS = { m: "Crak", p: "Dot", s: "Bam" };
  const WINDS = ["East", "South", "West", "North"];
  const BONUS = ["Plum", "Orchid", "Chrysanthemum", "Bamboo", "Spring", "Summer", "Autumn",
    "Winter"];

  function el(name, attrs, text) {
    const node = document.createElementNS(NS, name);
    for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // A plain English name for a code: "3 Crak", "East Wind", "Plum", "Joker".
  function name(code) {
    const m = /^([1-9])([mpszf])$/.exec(code);
    if (m && SUITS[m[2]]) return `${m[1]} ${SUITS[m[2]]}`;
    if (m && m[2] === "z") {
      const n = Number(m[1]);
      return n <= 4 ? `${WINDS[n - 1]} Wind` : ["White", "Green", "Red"][n - 5] + " Dragon";
    }
    if (m && m[2] === "f") return BONUS[Number(m[1]) - 1] || code;
    return { F: "Flower", J: "Joker", "?": "Hidden tile" }[code] || code;
  }

  function emblem(svg, suit, colour) {
    if (suit === "p") {
      svg.append(el("circle", { cx: 24, cy: 45, r: 8, fill: "none", stroke: colour,
        "stroke-width": 3 }), el("circle", { cx: 24, cy: 45, r: 2.5, fill: colour }));
    } else if (suit === "s") {
      for (const x of [17, 27]) {
        svg.append(el("rect", { x, y: 35, width: 5, height: 20, rx: 2, fill: colour }),
          el("line", { x1: x, x2: x + 5, y1: 45, y2: 45, stroke: "#fbf8ef", "stroke-width": 1.5 }));
      }
    } else {
      svg.append(el("path", { d: "M13 39 H35 M19 39 L16 55 M22 46 H31 Q33 52 27 56",
        fill: "none", stroke: colour, "stroke-width": 3, "stroke-linecap": "round" }));
    }
  }

  function flower(svg, colour) {
    for (let i = 0; i < 5; i += 1) {
      const a = (i * 72 - 90) * Math.PI / 180;
      svg.append(el("circle", { cx: 24 + 7 * Math.cos(a), cy: 30 + 7 * Math.sin(a), r: 5,
        fill: colour, opacity: 0.85, class: "petal" }));
    }
    svg.append(el("circle", { cx: 24, cy: 30, r: 3.5, fill: "#E69F00", class: "petal" }));
  }

  function face(svg, code) {
    const m = /^([1-9])([mpszf])$/.exec(code);
    const big = (text, colour, y = 32, size = 26) => svg.append(el("text", { x: 24, y,
      "text-anchor": "middle", "font-size": size, "font-weight": "bold", fill: colour,
      class: "face" }, text));
    const small = (text, colour) => svg.append(el("text", { x: 24, y: 51, "text-anchor": "middle",
      "font-size": 9, fill: colour }, text));
    if (m && SUITS[m[2]]) {
      big(m[1], COLOURS[m[2]], 29);
      emblem(svg, m[2], COLOURS[m[2]]);
      return;
    }
    if (m && m[2] === "z") {
      const n = Number(m[1]);
      if (n <= 4) {
        big("ESWN"[n - 1], COLOURS.wind, 37, 30);
        small(WINDS[n - 1].toLowerCase(), COLOURS.wind);
      } else if (n === 5) {
        svg.append(el("rect", { x: 11, y: 12, width: 26, height: 30, rx: 2, fill: "none",
          stroke: COLOURS.white, "stroke-width": 3 }));
        small("white", COLOURS.white);
      } else {
        const colour = n === 6 ? COLOURS.green : COLOURS.red;
        big(n === 6 ? "G" : "R", colour, 37, 30);
        small(n === 6 ? "green" : "red", colour);
      }
      return;
    }
    if (code === "J") {
      svg.append(el("rect", { x: 4, y: 4, width: 40, height: 52, rx: 4, fill: "#F0E442" }));
      big("\u2605", COLOURS.joker, 31, 22);
      small("JOKER", COLOURS.joker);
      return;
    }
    if (code === "F" || (m && m[2] === "f")) {
      flower(svg, COLOURS.flower);
      // the number in the top left corner, clear of the petals (they span x 12-36, y 18-41)
      if (m) {
        svg.append(el("text", { x: 5, y: 13, "text-anchor": "start", "font-size": 11,
          "font-weight": "bold", fill: COLOURS.wind, class: "face number" }, m[1]));
      }
      small(m ? name(code).slice(0, 7).toLowerCase() : "flower", COLOURS.flower);
      return;
    }
    if (code === "?") {
      svg.append(el("rect", { x: 4, y: 4, width: 40, height: 52, rx: 4, fill: "#56B4E9" }),
        el("path", { d: "M8 8 L40 52 M40 8 L8 52", stroke: "#0072B2", "stroke-width": 2 }));
      return;
    }
    big(code, COLOURS.wind, 34, 14);
  }

  // Each code's tile is drawn once and copied after: a table shows some 150 tiles and
  // redraws a row at every discard, and a copy costs a fraction of drawing it anew.
  const drawn = new Map();

  // One tile as an <svg class="tile">, its code in data-code and in the corner.
  function svg(code, extra) {
    code = String(code);
    if (!drawn.has(code)) drawn.set(code, draw(code));
    const tile = drawn.get(code).cloneNode(true);
    tile.setAttribute("class", "tile " + (extra || ""));
    return tile;
  }

  function draw(code) {
    const tile = el("svg", { viewBox: "0 0 48 64", class: "tile",
      "data-code": code, role: "img", "aria-label": name(code) });
    tile.append(el("title", {}, `${name(code)} (${code})`));
    tile.append(el("rect", { x: 1, y: 3, width: 46, height: 60, rx: 6, fill: "#b9b2a0" }),
      el("rect", { x: 1, y: 1, width: 46, height: 58, rx: 6, fill: "#fbf8ef",
        stroke: "#6b6b6b", "stroke-width": 1 }));
    face(tile, code);
    if (code !== "?") {
      tile.append(el("text", { x: 44, y: 57, "text-anchor": "end", "font-size": 8,
        fill: "#555", class: "code" }, code));
    }
    return tile;
  }

  return { svg, name };
})();
