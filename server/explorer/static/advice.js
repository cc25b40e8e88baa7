// The Advice 牌效 view (RULES.md section 15): a holding of 13 or 14 tiles less 3 per meld sent to
// Advise; shown are its shanten (向听数), its paths (per qualifying pattern and suit), and either
// its useful tiles (有效牌) and waits (13 tiles) or its discard options in order (14 tiles), each
// useful tile with its live count from the `seen` field. The words are `shmj advise`'s
// (rules_core.vocabulary's terms); every number is the server's. It uses explorer.js's helpers.

// Each notation field of the form, as /explorer/notation reads it.
const ADVICE_NOTATION = [["hand", "#advice-hand"], ["melds", "#advice-melds"], ["flowers", "#advice-flowers"],
  ["seen", "#advice-seen"], ["dice", "#advice-dice"]];
const ADVICE_NUMBERS = [["seat", "#advice-seat"], ["dealer", "#advice-dealer"], ["huangfan", "#advice-huangfan"]];

function adviceState() {
  const state = { view: "advice", profile: $("#advice-profile").value };
  for (const [key, selector] of ADVICE_NOTATION) state[key] = $(selector).value.trim();
  for (const [key, selector] of ADVICE_NUMBERS) state[key] = integer(selector);
  state.overrides = $("#advice-overrides").value.trim();
  return state;
}

function setAdviceState(state) {
  $("#advice-profile").value = state.profile || "classic";
  for (const [key, selector] of ADVICE_NOTATION) $(selector).value = state[key] || "";
  for (const [key, selector] of ADVICE_NUMBERS) $(selector).value = state[key] || 0;
  $("#advice-overrides").value = state.overrides || "";
  $("#advice-overrides-box").open = Boolean(state.overrides);
}

// The input a field violation of Advise names ("hand.concealed", "seen", "dealerSeat"): the melds
// and flowers typed in their own inputs are named as the hand's by the server.
function adviceInputOf(field) {
  const typed = (selector) => $(selector).value.trim() !== "";
  if (/^seen\b/.test(field)) return "#advice-seen";
  if (/^hand\.melds\b/.test(field) && typed("#advice-melds")) return "#advice-melds";
  if (/^hand\.flowers\b/.test(field) && typed("#advice-flowers")) return "#advice-flowers";
  if (/^hand\b/.test(field)) return "#advice-hand";
  return { seat: "#advice-seat", dealerSeat: "#advice-dealer", dice: "#advice-dice", huangfanCount: "#advice-huangfan",
    profile: "#advice-profile", overrides: "#advice-overrides" }[field.split(/[.[]/)[0]] || null;
}

function clearAdviceMarks() {
  for (const [, selector] of [...ADVICE_NOTATION, ...ADVICE_NUMBERS, ["overrides", "#advice-overrides"]]) {
    $(selector).removeAttribute("aria-invalid");
  }
  $("#advice-fields-error").replaceChildren();
  $("#advice-error").replaceChildren();
}

async function advise() {
  const state = adviceState();
  writeHash(state);
  clearAdviceMarks();
  const fields = Object.fromEntries(ADVICE_NOTATION.map(([key]) => [key, state[key]]));
  const answer = await readNotation(fields);
  for (const e of answer.errors) {
    $(ADVICE_NOTATION.find(([key]) => key === e.field)[1]).setAttribute("aria-invalid", "true");
    $("#advice-fields-error").append(notationError(e.field, fields[e.field], e.position, e.message));
  }
  let overrides = null;
  if (state.overrides) {
    try {
      overrides = JSON.parse(state.overrides);
    } catch (error) {
      $("#advice-overrides").setAttribute("aria-invalid", "true");
      $("#advice-fields-error").append(el("div", { class: "overrides-error", "data-field": "overrides",
        text: `规则修改 overrides: 不是JSON not JSON: ${error.message}` }));
    }
  }
  if ($("#advice-fields-error").childElementCount) {
    $("#advice-result").replaceChildren(); // the last answer is not this hand's
    return;
  }
  const request = { profile: state.profile, seat: state.seat, dealerSeat: state.dealer,
    huangfanCount: state.huangfan, hand: answer.hand, seen: answer.seen };
  if (answer.dice) request.dice = answer.dice;
  if (overrides) request.overrides = overrides;
  try {
    const response = await call("Advise", request);
    $("#advice-result").replaceChildren(adviceView(response, answer.hand, answer.seen));
  } catch (error) {
    $("#advice-result").replaceChildren();
    const violations = error.violations || [];
    $("#advice-error").replaceChildren(el("p", { text: failureLine(error, violations) }),
      ...violations.map((v) => el("div", { class: "violation", "data-field": v.field }, el("code", { text: v.field }),
        `: ${v.description}`)));
    for (const v of violations) {
      const input = adviceInputOf(v.field);
      if (input) $(input).setAttribute("aria-invalid", "true");
    }
  }
}

// ---- the answer -----------------------------------------------------------------------------
// "0 听牌 ready", "-1 和了 a legal win", "2".
function shantenWords(shanten) {
  const meaning = { "-1": "a_legal_win", 0: "ready" }[shanten];
  return meaning ? `${shanten} ${term(meaning)}` : String(shanten);
}

// "清一色 Full flush 筒 dots"; the path ORDINARY as "垃圾胡 Ordinary hand".
function pathWords(path) {
  const pattern = path.pattern || "PATTERN_UNSPECIFIED";
  const said = pattern === "PATTERN_UNSPECIFIED" ? term("ordinary_path") : patternWords(pattern);
  const suit = path.suit && path.suit !== "SUIT_UNSPECIFIED" ? ` ${enumWords(path.suit)}` : "";
  return said + suit;
}

// A useful tile drawn with its live count under it; a dead one (0 live, 听死) greyed.
function usefulTile(useful) {
  const live = Number(useful.live || 0);
  return el("span", { class: `useful${live ? "" : " dead"}`, "data-tile": tileParts(useful.tile).notation,
    "data-live": live, title: `${tileParts(useful.tile).notation}: ${live} ${term("live")}` },
  tile(useful.tile), el("small", { text: String(live) }));
}

function usefulLine(useful) {
  return useful.length ? el("span", { class: "useful-tiles" }, useful.map(usefulTile)) : el("span", { text: term("none") });
}

function pathsTable(paths) {
  return el("section", { class: "advice-paths" }, el("h3", { text: term("paths") }),
    el("table", {}, el("thead", {}, el("tr", {}, el("th", { text: "路线 Path" }), el("th", { text: term("shanten") }))),
      el("tbody", {}, paths.map((p) => el("tr", { "data-pattern": p.pattern || "PATTERN_UNSPECIFIED", "data-suit": p.suit || "" },
        el("td", { text: pathWords(p) }), el("td", { class: "num", text: String(p.shanten || 0) }))))));
}

// "7s 2 × V 6": each winning tile, its live count and its value as a self-draw.
function waitsCell(waits) {
  return el("span", { class: "advice-waits" }, waits.map((w) => el("span", { class: "wait", "data-tile": tileParts(w.tile).notation },
    tile(w.tile), ` ${Number(w.live || 0)} × V ${number(w.value)}`)));
}

function optionsTable(options) {
  const head = [term("discard_tile"), term("shanten_after"), `${term("useful_tiles")} (${term("live")})`, term("total"),
    `${term("waits")} (${term("live")} × V)`, term("live_value")];
  const rows = options.map((o) => el("tr", { class: o.best ? "best" : "", "data-tile": tileParts(o.tile).notation },
    el("td", {}, tile(o.tile), o.best ? el("span", { class: "best-mark", text: term("best") }) : null),
    el("td", { class: "num shanten", text: String(o.shanten || 0) }),
    el("td", {}, usefulLine(o.useful || [])),
    el("td", { class: "num total", text: String(o.liveTotal || 0) }),
    el("td", {}, (o.waits || []).length ? waitsCell(o.waits) : ""),
    el("td", { class: "num live-value", text: (o.waits || []).length ? number(o.liveValue) : "" })));
  return el("section", { class: "advice-options scroll" }, el("h3", { text: `打牌选择 Discard options: ${options.length}, ${term("best")} first` }),
    el("table", {}, el("thead", {}, el("tr", {}, head.map((h) => el("th", { text: h })))), el("tbody", {}, rows)));
}

function waitsTable(waits, liveValue) {
  return el("section", { class: "advice-wait-list" },
    el("h3", { text: `${term("waits")}: ${waits.length} · ${term("live_value")} ${number(liveValue)}` }),
    el("table", {}, el("thead", {}, el("tr", {}, el("th", { text: "Tile 牌" }), el("th", { text: term("live") }),
      el("th", { text: term("value_per_share") }))),
    el("tbody", {}, waits.map((w) => el("tr", { "data-tile": tileParts(w.tile).notation },
      el("td", {}, tile(w.tile)), el("td", { class: "num", text: String(w.live || 0) }),
      el("td", { class: "num", text: number(w.value) }))))));
}

function adviceView(response, hand, seen) {
  const parts = [handPicture(hand)];
  if (seen.length) {
    parts.push(el("div", { class: "tiles-line seen" }, el("span", { class: "group seen" }, sortTiles(seen).map((t) => tile(t)), // replay.js: in tile order
      el("small", { text: "seen 已见牌" }))));
  }
  if (!response.reachable) {
    parts.push(el("h3", { class: "shanten dead", text: `${term("shanten")}: ${term("dead_holding")}` }),
      el("p", { class: "dead-holding", text: term("no_path") }));
    return el("div", { class: "advice" }, parts);
  }
  const shanten = Number(response.shanten || 0);
  parts.push(el("h3", { class: "shanten", "data-shanten": shanten, text: `${term("shanten")}: ${shantenWords(shanten)}` }));
  const options = response.options || [];
  if (options.length) {
    parts.push(optionsTable(options));
  } else {
    const useful = response.useful || [];
    parts.push(el("section", { class: "advice-useful" },
      el("h3", { text: `${term("useful_tiles")} (${term("live")}): ${useful.length} · ${term("total")} ${response.liveTotal || 0}` }),
      usefulLine(useful)));
    if ((response.waits || []).length) parts.push(waitsTable(response.waits, response.liveValue));
  }
  parts.push(pathsTable(response.paths || []));
  return el("div", { class: "advice" }, parts);
}

document.addEventListener("DOMContentLoaded", () => {
  $("#advice-form").addEventListener("submit", (event) => { event.preventDefault(); advise(); });
});
