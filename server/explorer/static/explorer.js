// The settlement explorer: a form over the service's Connect JSON endpoints.
// No framework and no build step; every answer shown is the server's.
"use strict";

const SERVICE = "/mahjong.shanghai.v1.ScoringService/";
const SEATS = [0, 1, 2, 3];
const HONOURS = { EAST: ["E", "東"], SOUTH: ["S", "南"], WEST: ["W", "西"], NORTH: ["N", "北"],
  RED: ["C", "中"], GREEN: ["F", "發"], WHITE: ["P", "白"] };
const SUITS = { M: ["m", "萬"], P: ["p", "筒"], S: ["s", "条"] };
const FLOWERS = ["SPRING", "SUMMER", "AUTUMN", "WINTER", "PLUM", "ORCHID", "BAMBOO", "CHRYSANTHEMUM"];
const FLOWER_ZH = ["春", "夏", "秋", "冬", "梅", "兰", "竹", "菊"];

let vocabulary = { enums: {}, patterns: {}, profileFields: {}, statuses: {}, terms: {} };

// ---- small helpers -------------------------------------------------------------------------
const $ = (selector, root = document) => root.querySelector(selector);
const $$ = (selector, root = document) => Array.from(root.querySelectorAll(selector));

function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function number(value) {
  const n = Number(value || 0);
  return Number.isInteger(n) ? String(n) : String(Math.round(n * 1e6) / 1e6);
}

function signed(value) {
  const n = Number(value || 0);
  return (n > 0 ? "+" : n < 0 ? "" : "+") + number(n);
}

async function call(method, body) {
  const reply = await fetch(SERVICE + method, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const data = await reply.json().catch(() => ({ code: "unknown", message: `HTTP ${reply.status}` }));
  if (!reply.ok) {
    const error = new Error(data.message || `HTTP ${reply.status}`);
    error.code = data.code;
    error.violations = (data.details || []).flatMap((d) => (d.debug && d.debug.fieldViolations) || []);
    throw error;
  }
  return data;
}

async function readNotation(fields) {
  const reply = await fetch("/explorer/notation", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(fields),
  });
  if (!reply.ok) throw new Error(await reply.text());
  return reply.json();
}

// ---- tiles as pictures ---------------------------------------------------------------------
function tileParts(name) {
  const key = String(name).replace(/^TILE_/, "");
  if (HONOURS[key]) return { notation: HONOURS[key][0], face: HONOURS[key][1], rank: "", kind: "honour " + key.toLowerCase() };
  const suit = SUITS[key[0]];
  return { notation: key[1] + suit[0], face: suit[1], rank: key[1], kind: "suit-" + suit[0] };
}

function tile(name, extra = "") {
  const parts = tileParts(name);
  return el("span", { class: `tile ${parts.kind} ${extra}`.trim(), "data-tile": parts.notation,
    title: parts.notation, role: "img", "aria-label": parts.notation },
  parts.rank ? el("b", { text: parts.rank }) : null, el("i", { text: parts.face }));
}

function flowerTile(name) {
  const index = FLOWERS.indexOf(String(name).replace(/^FLOWER_/, ""));
  return el("span", { class: "tile flower", "data-tile": `${index + 1}f`, title: `${index + 1}f`, role: "img",
    "aria-label": `${index + 1}f` }, el("b", { text: index + 1 }), el("i", { text: FLOWER_ZH[index] }));
}

function handPicture(hand) {
  const line = el("div", { class: "tiles-line" });
  const concealed = hand.concealed || [];
  const winAt = concealed.lastIndexOf(hand.winningTile); // the concealed tiles include the winning tile
  line.append(el("span", { class: "group concealed" }, concealed.map((t, i) => tile(t, i === winAt ? "win" : "")),
    el("small", { text: winAt >= 0 ? `concealed 暗牌 · winning tile 胡张 ${tileParts(hand.winningTile).notation}` : "concealed 暗牌" })));
  (hand.melds || []).forEach((meld) => {
    const concealedKong = meld.kind === "MELD_KIND_CONCEALED_KONG";
    const source = concealedKong ? "concealed 暗" : `from seat ${meld.fromSeat || 0}`;
    line.append(el("span", { class: "group meld", "data-from": concealedKong ? "" : meld.fromSeat || 0 },
      (meld.tiles || []).map((t) => tile(t)), el("small", { text: `${enumWords(meld.kind)} · ${source}` })));
  });
  if ((hand.flowers || []).length) {
    line.append(el("span", { class: "group flowers" }, hand.flowers.map(flowerTile), el("small", { text: "flowers 花" })));
  }
  if ((hand.dragonFlowers || []).length) { // 中发白 held as flowers (RULES.md section 14)
    line.append(el("span", { class: "group flowers dragon-flowers" }, hand.dragonFlowers.map((t) => tile(t, "flower")),
      el("small", { text: "dragon flowers 花牌中发白" })));
  }
  return line;
}

// ---- words -------------------------------------------------------------------------------
function patternWords(name) {
  const words = vocabulary.patterns[name];
  return words ? `${words.zh} ${words.en}` : name.replace(/^PATTERN_/, "");
}

// An enum value's words (rules_core.vocabulary): "点炮 discard"; its meaning in both languages.
function enumWords(name) {
  const words = vocabulary.enums[name];
  return words && words.zh ? `${words.zh} ${words.en}` : String(name || "").replace(/^[A-Z]+(_[A-Z]+)*?_(?=[A-Z]+$)/, "");
}

// A label the CLI prints too (rules_core.vocabulary.TERMS): "每份牌值 value per share V".
function term(key) {
  const words = vocabulary.terms[key];
  return words ? `${words.zh} ${words.en}` : key;
}

function enumMeaning(name) {
  const words = vocabulary.enums[name] || {};
  return [words.zhMeaning, words.meaning].filter(Boolean).join(" · ");
}

function unitWord(unit) {
  const words = vocabulary.enums[unit];
  return words ? words.zh : "";
}

// An item's effect: the server's words where it gave them (POST /explorer/why: a 番 that adds
// up, RULES.md section 14), else as today's rules make it (a 番 doubles).
function itemEffect(item, said = "") {
  if (said) return said;
  const amount = Number(item.contribution || 0);
  switch (item.kind) {
    case "ITEM_KIND_FLOWERS": case "ITEM_KIND_BASE": return `+${number(amount)}`;
    case "ITEM_KIND_FAN": return `x${2 ** Math.trunc(amount)} (${number(amount)} 番)`;
    case "ITEM_KIND_PATTERN": return `= ${number(amount)}`;
    case "ITEM_KIND_MULTIPLIER": return `x${number(amount)}`;
    default: return signed(amount);
  }
}

// ---- the form ----------------------------------------------------------------------------
const NOTATION_FIELDS = [["hand", ".w-hand"], ["win", ".w-win"], ["flowers", ".w-flowers"], ["passed", ".w-passed"]];

function addWinner(values = {}) {
  const node = $("#winner-template").content.firstElementChild.cloneNode(true);
  $("#winners").append(node);
  $(".w-seat", node).value = values.seat ?? 0;
  for (const [field, selector] of NOTATION_FIELDS) $(selector, node).value = values[field] || "";
  $(".w-replacement", node).checked = Boolean(values.replacement);
  $(".w-first", node).checked = Boolean(values.first);
  $(".w-last", node).checked = Boolean(values.last);
  $(".w-remove", node).addEventListener("click", () => { node.remove(); numberWinners(); });
  for (const [, selector] of NOTATION_FIELDS) {
    $(selector, node).addEventListener("input", () => {
      for (const stale of $$(".violation", node)) stale.remove();
      scheduleValidation(node);
    });
  }
  numberWinners();
  validateWinner(node);
  return node;
}

function numberWinners() {
  $$("#winners .winner").forEach((node, index) => {
    $(".winner-number", node).textContent = `#${index + 1}`;
    node.dataset.index = index;
  });
}

const timers = new WeakMap();
function scheduleValidation(node) {
  clearTimeout(timers.get(node));
  timers.set(node, setTimeout(() => validateWinner(node), 150));
}

function winnerFields(node) {
  const fields = {};
  for (const [field, selector] of NOTATION_FIELDS) fields[field] = $(selector, node).value;
  return fields;
}

// Asks the server to read the winner's notation; marks the bad token; returns the JSON or null.
async function validateWinner(node) {
  const fields = winnerFields(node);
  const answer = await readNotation(fields);
  if (JSON.stringify(winnerFields(node)) !== JSON.stringify(fields)) return null; // typed on meanwhile
  const errorBox = $(".w-error", node);
  // The server's field violations from the last settle stay: they go when the hand is edited.
  for (const stale of $$(".notation-error", errorBox)) stale.remove();
  for (const [, selector] of NOTATION_FIELDS) $(selector, node).removeAttribute("aria-invalid");
  for (const error of answer.errors) {
    const input = $(NOTATION_FIELDS.find(([f]) => f === error.field)[1], node);
    input.setAttribute("aria-invalid", "true");
    errorBox.append(notationError(error.field, fields[error.field], error.position, error.message));
  }
  $(".w-preview", node).replaceChildren(answer.errors.length ? "" : handPicture(answer.hand));
  if (answer.errors.length) $("#result").replaceChildren(); // the last answer is not this hand's
  return answer.errors.length ? null : answer;
}

// The notation fields as their inputs are labelled (the parser's message itself is English).
const NOTATION_FIELD_WORDS = { hand: "手牌 hand", win: "胡张 winning tile", flowers: "花 flowers", passed: "漏胡 passed",
  melds: "副露 melds", seen: "已见牌 seen", dice: "骰子 dice", declared: "已敲 knocked seats" };

// The text with the token around `position` marked, and the message: as the CLI points at it.
function notationError(field, text, position, message) {
  let start = position, end = position + 1;
  const open = text.lastIndexOf("[", position);
  if (open >= 0 && text.lastIndexOf("]", position - 1) < open) { // inside a meld: the whole meld
    start = open;
    end = text.indexOf("]", position) < 0 ? text.length : text.indexOf("]", position) + 1;
  } else { // a run of tiles between spaces and brackets
    while (start > 0 && !/[\s\]\[]/.test(text[start - 1])) start -= 1;
    while (end < text.length && !/[\s\]\[]/.test(text[end])) end += 1;
  }
  return el("div", { class: "notation-error", "data-field": field, "data-position": position },
    el("span", { class: "field-name", text: `${NOTATION_FIELD_WORDS[field] || field}: ` }),
    el("code", {}, text.slice(0, start), el("mark", { class: "bad-token", text: text.slice(start, end) || " " }),
      text.slice(end)),
    el("span", { class: "message", text: ` 记法有误 cannot read: ${message} (字符位置 ${position} at character ${position})` }));
}

function integer(id) {
  return Number.parseInt($(id).value || "0", 10) || 0;
}

function tableState() {
  return {
    profile: $("#profile").value, outcome: $("#outcome").value, dealer: integer("#dealer"),
    discarder: integer("#discarder"), abandoning: integer("#abandoning"), huangfan: integer("#huangfan"),
    dice: $("#dice").value.trim(), claims: $("#claims").value.trim(), overrides: $("#overrides").value.trim(),
    declared: $("#declared").value.trim(), compare: $("#compare").value,
    winners: $$("#winners .winner").map((node) => ({
      seat: Number.parseInt($(".w-seat", node).value || "0", 10) || 0, ...winnerFields(node),
      replacement: $(".w-replacement", node).checked, first: $(".w-first", node).checked,
      last: $(".w-last", node).checked,
    })),
  };
}

function setState(state) {
  $("#profile").value = state.profile || "classic";
  $("#outcome").value = state.outcome || "OUTCOME_SELF_DRAW";
  for (const key of ["dealer", "discarder", "abandoning", "huangfan"]) $(`#${key}`).value = state[key] || 0;
  for (const key of ["dice", "claims", "overrides", "declared"]) $(`#${key}`).value = state[key] || "";
  $("#compare").value = state.compare || "";
  if (state.overrides) $("#overrides-box").open = true;
  $("#winners").replaceChildren();
  (state.winners || []).forEach((w) => addWinner(w));
}

// The dice ("3,3" or "3 3"), claims ("1:2:3" or "1<2:3", the count 3 when left out; "1:2:3:kept"
// when the claimer's melds keep a pattern) and the knocked seats ("0,2") are read by the server
// (rules_core.table_notation), as the CLI reads them.
async function tableFields(state) {
  const errors = [];
  let dice = null, liabilities = [], declaredSeats = [];
  if (state.dice || state.claims || state.declared) {
    const answer = await readNotation({ dice: state.dice, claims: state.claims, declared: state.declared });
    dice = answer.dice;
    liabilities = answer.liabilities;
    declaredSeats = answer.declaredSeats || [];
    for (const e of answer.errors) errors.push(`${e.field}: ${e.message} (at character ${e.position + 1})`);
  }
  let overrides = null;
  if (state.overrides) {
    try { overrides = JSON.parse(state.overrides); } catch (e) { errors.push(`overrides: not JSON: ${e.message}`); }
  }
  return { dice, liabilities, declaredSeats, overrides, errors };
}

async function buildRequest(state) {
  const table = await tableFields(state);
  $("#table-error").textContent = table.errors.join("; ");
  const nodes = $$("#winners .winner");
  // Validated here and now: a check still pending from typing would come back after the
  // answer and clear the server's field violations from under their winner.
  for (const node of nodes) clearTimeout(timers.get(node));
  const answers = await Promise.all(nodes.map(validateWinner));
  if (table.errors.length || answers.some((a) => a === null)) return null;
  const request = {
    profile: state.profile, outcome: state.outcome, dealerSeat: state.dealer, huangfanCount: state.huangfan,
    discarderSeat: state.discarder, abandoningSeat: state.abandoning, liabilities: table.liabilities,
    winners: answers.map((answer, i) => ({
      seat: state.winners[i].seat, hand: answer.hand, passedTiles: answer.passedTiles,
      replacementDraw: state.winners[i].replacement, firstGoAround: state.winners[i].first,
      lastTile: Boolean(state.winners[i].last),
    })),
  };
  if (table.declaredSeats.length) request.declaredSeats = table.declaredSeats;
  if (table.dice) request.dice = table.dice;
  if (table.overrides) request.overrides = table.overrides;
  return request;
}

// ---- answers -----------------------------------------------------------------------------
// The patterns a winner holds that add no item row of their own (an item's code is its
// pattern's name without PATTERN_).
function silentPatterns(winner) {
  const itemised = new Set((winner.items || []).map((item) => `PATTERN_${item.code}`));
  return (winner.patterns || []).filter((pattern) => !itemised.has(pattern));
}

// The profile a request was settled under, its overrides applied (GetProfile): asked for only
// when a legal winner holds a pattern that adds nothing, to say why from the profile's lists.
async function silentProfile(response, request) {
  if (!(response.winners || []).some((w) => w.legal && silentPatterns(w).length)) return null;
  return (await call("GetProfile", { name: request.profile, overrides: request.overrides })).profile;
}

function fieldWords(field) {
  const words = vocabulary.profileFields[field] || {};
  return [words.zh, words.en].filter(Boolean).join(" ") || field;
}

// Why a held pattern adds nothing, from where it stands in the profile ("why doesn't Half
// flush count?"): a qualifying pattern only, a fixed value beaten by a higher one, a 番 that
// does not apply to a fixed value, a floor the value is above, or none of these.
function noValueLine(pattern, profile, unit, winner) {
  const named = (list) => (profile[list] || []).find((entry) => entry.pattern === pattern);
  const fixed = named("fixedValues"), fan = named("fan");
  const said = `${patternWords(pattern)} adds nothing here: in ${profile.name} `;
  let why;
  if (fixed) {
    why = `it is worth ${number(fixed.value)} ${unit} (${fieldWords("fixed_values")}), but only the highest fixed value`
      + ` counts (${fieldWords("combine_fixed")}). 只计最高的定值牌型。`;
  } else if (fan) {
    why = `its ${number(fan.value)} 番 does not apply to a fixed value (${fieldWords("fan_on_fixed")}: no). 定值牌型不再算番。`;
  } else if ((profile.floorPatterns || []).includes(pattern)) {
    why = `it raises a lower value to 1 喇 (${fieldWords("floor_patterns")}); this hand's value needed no raising. 本手牌值无需保底。`;
  } else if ((profile.qualifyingPatterns || []).includes(pattern)) {
    const fixedItem = (winner.items || []).find((item) => item.kind === "ITEM_KIND_PATTERN");
    why = `it makes a hand legal (${fieldWords("qualifying_patterns")}) but has no value of its own; ` + (fixedItem
      ? `the value is the fixed value of ${patternWords(`PATTERN_${fixedItem.code}`)}. 此牌型只使胡牌合法，牌值取定值牌型。`
      : "the hand is valued as an ordinary one, base and 花. 本规则中此牌型只使胡牌合法，不另计分。");
  } else {
    why = "it is neither a fixed value, a 番 nor a qualifying pattern: it counts for nothing in the value. 本规则中此牌型不计分。";
  }
  return el("p", { class: "no-value", "data-pattern": pattern.replace(/^PATTERN_/, "") }, said + why);
}

// values: the server's words for the winner's items and their sum ({effects, sum}), or null.
function winnerCard(winner, requestWinner, unit, profile, values = null) {
  const legal = Boolean(winner.legal);
  const card = el("article", { class: `winner-result ${legal ? "legal" : "illegal"}`, "data-seat": winner.seat || 0 },
    el("h3", {}, `Seat ${winner.seat || 0} `,
      el("span", { class: "verdict", text: term(legal ? "legal" : "not_legal") }),
      ` (${term("flowers")} ${winner.flowers || 0})`));
  if (requestWinner && requestWinner.hand) card.append(handPicture(requestWinner.hand));
  const patterns = winner.patterns || [];
  card.append(el("p", { class: "patterns" }, "Patterns 牌型: ",
    patterns.length ? patterns.map((p) => el("span", { class: "pattern", "data-pattern": p.replace(/^PATTERN_/, ""),
      title: enumMeaning(p) }, patternWords(p))) : el("span", { text: term("no_pattern") })));
  if (!legal) {
    card.append(el("ul", { class: "reasons" }, (winner.illegalReasons || []).map((r) =>
      el("li", { "data-reason": r.replace(/^ILLEGAL_REASON_/, "") }, el("strong", { text: enumWords(r) }),
        `: ${enumMeaning(r)}`))));
    return card;
  }
  const effects = (values && values.effects) || [];
  const rows = (winner.items || []).map((item, i) => el("tr", { "data-kind": item.kind, "data-code": item.code || "" },
    el("td", { text: (item.nameEn || "") + ((item.count || 1) > 1 ? ` x${item.count}` : "") }),
    el("td", { lang: "zh", text: item.nameZh || "" }),
    el("td", { class: "num", text: itemEffect(item, effects[i]), title: `${enumWords(item.kind)}: ${enumMeaning(item.kind)}` })));
  card.append(el("table", { class: "items" },
    el("thead", {}, el("tr", {}, el("th", { text: "Item" }), el("th", { text: "项目" }), el("th", { text: "Effect 效果" }))),
    el("tbody", {}, rows)));
  if (values && values.sum) card.append(el("p", { class: "value-sum", text: values.sum }));
  card.append(el("p", { class: "value" }, `${term("value_per_share")} = `,
    el("strong", { class: "value-number", text: number(winner.value) }), ` ${unit}`,
    `  (${term("before_multipliers")} ${number(winner.baseValue)})`));
  if (profile) silentPatterns(winner).forEach((pattern) => card.append(noValueLine(pattern, profile, unit, winner)));
  return card;
}

const SEAT_XY = [[160, 290], [290, 160], [160, 30], [30, 160]]; // seat 0 at the bottom, turns counter-clockwise
// Where 庄 goes from a seat's centre: beside the bottom and top seats, above the side ones
// (beside seat 1 it fell off the picture's right edge).
const DEALER_MARK = [[28, -14], [-6, -32], [28, -14], [-6, -32]];
// Each view's picture has an arrowhead of its own (`arrow-settle`, `arrow-replay`): with one id
// for both, Replay's arrows took Settle's, and a marker in a hidden view is not drawn.
function paymentsPicture(response, view) {
  const arrowId = `arrow-${view}`;
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 320 320");
  svg.setAttribute("class", "table-picture");
  svg.setAttribute("role", "img");
  const deltas = response.seatDeltas || [0, 0, 0, 0];
  const summary = (response.payments || []).map((p) => `seat ${p.fromSeat || 0} pays seat ${p.toSeat || 0} ${number(p.amount)}`);
  svg.setAttribute("aria-label", summary.length ? summary.join("; ") : "no payments");
  const add = (tag, attributes, text) => {
    const node = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attributes)) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    svg.append(node);
    return node;
  };
  const defs = add("defs", {});
  const marker = document.createElementNS(ns, "marker");
  for (const [k, v] of Object.entries({ id: arrowId, viewBox: "0 0 10 10", refX: "9", refY: "5", markerWidth: "7",
    markerHeight: "7", orient: "auto-start-reverse" })) marker.setAttribute(k, v);
  const head = document.createElementNS(ns, "path");
  head.setAttribute("d", "M0,0 L10,5 L0,10 z");
  head.setAttribute("class", "arrow-head");
  marker.append(head);
  defs.append(marker);
  add("rect", { x: 80, y: 80, width: 160, height: 160, rx: 12, class: "felt" });
  const sums = new Map();
  for (const p of response.payments || []) {
    const key = `${p.fromSeat || 0}>${p.toSeat || 0}`;
    sums.set(key, (sums.get(key) || 0) + Number(p.amount || 0));
  }
  for (const [key, amount] of sums) {
    const [from, to] = key.split(">").map(Number);
    const [x1, y1] = SEAT_XY[from], [x2, y2] = SEAT_XY[to];
    const dx = x2 - x1, dy = y2 - y1, length = Math.hypot(dx, dy);
    const nx = (-dy / length) * 8, ny = (dx / length) * 8; // two ways between one pair stay apart
    const sx = x1 + (dx / length) * 34 + nx, sy = y1 + (dy / length) * 34 + ny;
    const ex = x2 - (dx / length) * 34 + nx, ey = y2 - (dy / length) * 34 + ny;
    add("line", { x1: sx, y1: sy, x2: ex, y2: ey, class: "payment", "marker-end": `url(#${arrowId})`,
      "data-from": from, "data-to": to });
    // On the felt, not its edge: a third of the way from the arrow's middle to the centre.
    const mx = (sx + ex) / 2 + nx * 1.6, my = (sy + ey) / 2 + ny * 1.6;
    add("text", { x: mx + (160 - mx) / 3, y: my + (160 - my) / 3 + 4, class: "amount",
      "text-anchor": "middle" }, number(amount));
  }
  SEATS.forEach((seat) => {
    const [x, y] = SEAT_XY[seat];
    const isDealer = response.nextHand && seat === response.nextHand.dealerSeat;
    add("circle", { cx: x, cy: y, r: 26, class: `seat ${Number(deltas[seat]) > 0 ? "gain" : Number(deltas[seat]) < 0 ? "loss" : ""}` });
    add("text", { x, y: y - 4, "text-anchor": "middle", class: "seat-name" }, `seat ${seat}`);
    add("text", { x, y: y + 12, "text-anchor": "middle", class: "seat-delta", "data-seat": seat }, signed(deltas[seat]));
    if (isDealer) add("text", { x: x + DEALER_MARK[seat][0], y: y + DEALER_MARK[seat][1], class: "dealer-mark" }, "庄");
  });
  return svg;
}

// Which rules and engine made the answer (API.md, versioned answers): the digest to quote in a dispute.
function versionsLine(response) {
  return el("p", { class: "versions" }, "Rules 规则 ",
    el("code", { class: "profile-digest", text: response.profileDigest || "" }),
    " · engine 引擎 ", el("code", { class: "engine-version", text: response.engineVersion || "" }));
}

// shown: whys, the phrases saying why each liable or related seat pays (paymentsWhy); values,
// each winner's item words and sum (settlementWords); profile, the effective profile when a held
// pattern adds nothing (silentProfile); view, the view it is shown in ("settle" or "replay");
// record, the hand record a replay settled (for the ticket).
function settlementView(response, request, shown = {}) {
  const { whys = [], values = [], profile = null, view: shownIn = "settle", record = null } = shown;
  const unit = unitWord(response.unit);
  const view = el("div", { class: "settlement", "data-profile": response.profile });
  view.append(ticketButton(), ticketRecord(request, record));
  const unitWords = vocabulary.enums[response.unit] || {};
  view.append(el("p", { class: "profile-line" },
    `${term("profile")} ${response.profile} (${term("unit")}: ${[unitWords.zh, unitWords.en].filter(Boolean).join(" ")})`));
  (response.winners || []).forEach((w, i) => view.append(
    winnerCard(w, request && request.winners && request.winners[i], unit, profile, values[i] || null)));
  const payments = response.payments || [];
  const list = el("ul", { class: "payment-list" }, payments.map((p, i) => {
    const why = (whys && whys[i]) || [];
    return el("li", {}, `seat ${p.fromSeat || 0} → seat ${p.toSeat || 0}  ${number(p.amount)} ${unit}  `,
      el("span", { class: "reason", text: enumWords(p.reason), title: enumMeaning(p.reason) }),
      why.length ? el("span", { class: "why", text: ` (${why.join("; ")})` }) : null);
  }));
  const penalties = (response.penalties || []).map((p) => el("li", {}, `Penalty 逃跑: seat ${p.seat || 0} loses ${number(p.amount)}`));
  const deltas = el("p", { class: "deltas" }, "Seat deltas 输赢: ",
    (response.seatDeltas || []).map((d, seat) => el("span", { class: "delta", "data-seat": seat, text: signed(d) })));
  const next = response.nextHand
    ? el("p", { class: "next-hand" }, `Next hand 下一手: dealer 庄家 seat ${response.nextHand.dealerSeat || 0}, ${term("huangfan_count")} ${response.nextHand.huangfanCount || 0}`)
    : el("p", { class: "next-hand" }, "Next hand 下一手: none 无: no claimed win is legal, the hand goes on 无人合法胡牌，本手继续");
  view.append(el("section", { class: "payments" }, el("h3", { text: "Payments 付款" }), paymentsPicture(response, shownIn),
    el("div", {}, list, el("ul", {}, penalties), deltas,
      el("p", { class: "huangfan-after" }, `${term("huangfan_after_dice")} ${response.huangfanAfterDice || 0}`), next)));
  view.append(versionsLine(response));
  view.append(el("details", {}, el("summary", { text: "The answer in JSON 答复原文" }),
    el("pre", { class: "json", text: JSON.stringify(response, null, 2) })));
  return view;
}

// Each row of one side of a comparison: its label and its value, one string or several lines;
// every number with the side's unit (花 against 分 would otherwise read as the same scale).
function itemLine(item, said = "") {
  return `${item.nameEn || ""}${(item.count || 1) > 1 ? ` x${item.count}` : ""} ${item.nameZh || ""} ${itemEffect(item, said)}`;
}

// values: each winner's item words and sum from the server (settlementWords), or none.
function comparisonRows(response, values = []) {
  const unit = unitWord(response.unit);
  const unitWords = vocabulary.enums[response.unit] || {};
  const rows = [["Unit 单位", [unitWords.zh, unitWords.en].filter(Boolean).join(" ")]];
  (response.winners || []).forEach((w, i) => {
    const seat = w.seat || 0;
    const words = values[i] || {};
    rows.push([`Seat ${seat} legal 合法`, w.legal ? "legal 合法" : `not legal 不合法: ${(w.illegalReasons || []).map(enumWords).join(", ")}`]);
    rows.push([`Seat ${seat} patterns 牌型`, (w.patterns || []).map(patternWords).join(", ") || "none 无"]);
    rows.push([`Seat ${seat} V 每份牌值`, `${number(w.value)} ${unit}`]);
    rows.push([`Seat ${seat} items 项目`,
      [...(w.items || []).map((item, k) => itemLine(item, (words.effects || [])[k])), ...(words.sum ? [words.sum] : [])]]);
  });
  rows.push(["Seat deltas 输赢", `${(response.seatDeltas || []).map(signed).join(" ")} ${unit}`]);
  rows.push(["Next hand 下一手", response.nextHand ? `dealer 庄家 ${response.nextHand.dealerSeat || 0}, 荒番 ${response.nextHand.huangfanCount || 0}` : "none 无"]);
  rows.push(["Rules (profile digest) 规则摘要", response.profileDigest || ""]);
  return rows;
}

function comparisonCell(value) {
  return Array.isArray(value) ? el("td", {}, value.map((line) => el("div", { text: line }))) : el("td", { text: value });
}

function comparisonView(left, right, leftValues = [], rightValues = []) {
  const a = comparisonRows(left, leftValues), b = comparisonRows(right, rightValues);
  const said = (value) => (Array.isArray(value) ? value.join("\n") : value);
  const body = a.map(([label, value], i) => {
    const other = b[i] ? b[i][1] : "";
    return el("tr", { class: said(value) === said(other) ? "" : "diff" }, el("th", { text: label }),
      comparisonCell(value), comparisonCell(other));
  });
  return el("section", { class: "comparison" }, el("h3", { text: "Side by side 对比 (differences highlighted)" }),
    el("table", {}, el("thead", {}, el("tr", {}, el("th", {}), el("th", { text: left.profile }),
      el("th", { text: right.profile }))), el("tbody", {}, body)));
}

// Settle's field violations name fields such as winners[0].hand.melds[1]: show each under its winner.
// A failed call as a person reads it: its status in words, the code kept for support, then
// the message unless the violations below say it all: "请求有误 invalid request (INVALID_ARGUMENT)".
function failureLine(error, violations = []) {
  const code = String(error.code || "unknown").toUpperCase();
  const words = vocabulary.statuses[code];
  const said = words ? `${words.zh} ${words.en} (${code})` : code;
  return violations.length ? said : `${said}: ${error.message}`;
}

function showViolations(error) {
  const box = $("#settle-error");
  const violations = error.violations || [];  // each shown once, below: the message lists them all again
  box.replaceChildren(el("p", { text: failureLine(error, violations) }));
  for (const v of error.violations || []) {
    const m = v.field.match(/^winners\[(\d+)\]/);
    const node = m && $$("#winners .winner")[Number(m[1])];
    const line = el("div", { class: "violation", "data-field": v.field }, el("code", { text: v.field }), `: ${v.description}`);
    if (node) $(".w-error", node).append(line);
    else box.append(line);
  }
}

// note: why the form holds what it holds, when a pasted message was brought here from Replay.
async function settle(note = "") {
  const state = tableState();
  writeHash(state);
  $("#settle-note").textContent = note;
  $("#settle-error").replaceChildren();
  $("#result").replaceChildren();
  for (const stale of $$("#winners .violation")) stale.remove();
  const request = await buildRequest(state);
  if (!request) {
    $("#settle-error").textContent = "Fix the marked fields first 请先改正标出的输入";
    return;
  }
  try {
    const response = await call("Settle", request);
    const words = await settlementWords(response, request);
    const view = settlementView(response, request,
      { whys: words.why, values: words.values || [], profile: await silentProfile(response, request) });
    if (state.compare) {
      const otherRequest = { ...request, profile: state.compare };
      const other = await call("Settle", otherRequest);
      const otherWords = await settlementWords(other, otherRequest);
      view.prepend(comparisonView(response, other, words.values || [], otherWords.values || []));
    }
    $("#result").replaceChildren(view);
  } catch (error) {
    showViolations(error);
  }
}

// Why each liable (承包) or related (三口) seat pays, in the server's words (POST /explorer/why,
// rules_core.liability_words, which `shmj score` prints): the claims between it and the
// winner, and whether it pays twice, which needs the threshold of the request's effective
// profile (its overrides applied). Asked for only when a settlement has such a payment; the
// Settle and the Replay views both use it.
async function paymentsWhy(response, request) {
  const payments = response.payments || [];
  const explained = ["PAYMENT_REASON_LIABILITY", "PAYMENT_REASON_SANKOU"];
  if (!payments.some((p) => explained.includes(p.reason))) return [];
  return (await settlementWords(response, request, false)).why;
}

// The server's words for a settlement (POST /explorer/why): why each liable (承包, 包三口) or
// related (三口) seat pays, and, with `items`, how each item of each winner's value acts and
// the sum they make (a 番 that adds up, the 番 cap: RULES.md section 14). The effective profile
// (GetProfile) is asked for only when the words need it: a liability payment, or a 番 or cap item.
async function settlementWords(response, request, items = true) {
  const payments = response.payments || [];
  const liable = payments.some((p) => p.reason === "PAYMENT_REASON_LIABILITY");
  const worded = items && (response.winners || []).some((w) =>
    (w.items || []).some((item) => item.kind === "ITEM_KIND_FAN" || item.kind === "ITEM_KIND_CAP"));
  const body = { payments, liabilities: request.liabilities || [], threshold: null };
  if (request.declaredSeats) body.declaredSeats = request.declaredSeats;
  if (liable || worded) {
    const profile = (await call("GetProfile", { name: request.profile, overrides: request.overrides })).profile;
    if (liable) body.threshold = profile.liabilityThreshold || 0;
    body.mode = profile.liabilityMode || "";
    body.fanAdditive = Boolean(profile.fanAdditive);
    body.laziValue = Number(profile.laziValue || 0);
  }
  if (items) body.winners = response.winners || [];
  const reply = await fetch("/explorer/why", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  if (!reply.ok) throw new Error(await reply.text());
  return reply.json();
}

// ---- pasted requests: a SettleRequest, or one line of a rescore file ------------------------
// A list of tiles in notation; a string is notation already (a hand may be written so: HTTP.md).
function notationOfTiles(tiles) {
  if (typeof tiles === "string") return tiles;
  return (tiles || []).map((t) => tileParts(t).notation).join(" ");
}

function notationOfHand(hand) {
  const parts = [notationOfTiles(hand.concealed)];
  if (typeof hand.melds === "string") return [...parts, hand.melds].filter(Boolean).join(" ");
  for (const meld of hand.melds || []) {
    const body = (meld.tiles || []).map((t) => tileParts(t).notation).join("");
    const compact = body.replace(/(\d)([mps])(?=\d)/g, "$1");
    if (meld.kind === "MELD_KIND_CONCEALED_KONG") parts.push(`[${compact}]`);
    else parts.push(`[${compact}${meld.kind === "MELD_KIND_ADDED_KONG" ? "+" : ""}@${meld.fromSeat || 0}]`);
  }
  return parts.filter(Boolean).join(" ");
}

// The flowers, then the dragon flowers (中发白 held as flowers: Cf Ff Pf).
function flowerNotation(flowers, dragonFlowers = []) {
  if (typeof flowers === "string") return [flowers, flowerNotation([], dragonFlowers)].filter(Boolean).join(" ");
  return [...(flowers || []).map((f) => `${FLOWERS.indexOf(String(f).replace(/^FLOWER_/, "")) + 1}f`),
    ...(dragonFlowers || []).map((t) => `${tileParts(t).notation}f`)].join(" ");
}

function stateOfRequest(data) {
  const camel = (o) => Object.fromEntries(Object.entries(o || {}).map(([k, v]) =>
    [k.replace(/_([a-z])/g, (_, c) => c.toUpperCase()), v]));
  const r = camel(data);
  const dice = r.dice ? `${r.dice.first},${r.dice.second}` : "";
  return {
    profile: r.profile || "classic", outcome: r.outcome || "OUTCOME_SELF_DRAW", dealer: r.dealerSeat || 0,
    discarder: r.discarderSeat || 0, abandoning: r.abandoningSeat || 0, huangfan: r.huangfanCount || 0, dice,
    claims: (r.liabilities || []).map(camel).map((l) =>
      `${l.claimerSeat || 0}:${l.sourceSeat || 0}:${l.claims || 0}${l.patternKept ? ":kept" : ""}`).join(", "),
    declared: (r.declaredSeats || []).join(","),
    overrides: r.overrides && Object.keys(r.overrides).length ? JSON.stringify(r.overrides) : "",
    compare: $("#compare").value,
    winners: (r.winners || []).map(camel).map((w) => {
      const hand = camel(w.hand);
      const melds = typeof hand.melds === "string" ? hand.melds : (hand.melds || []).map(camel);
      return { seat: w.seat || 0, hand: notationOfHand({ ...hand, melds }),
        win: typeof hand.winningTile === "string" && !hand.winningTile.startsWith("TILE_") ? hand.winningTile
          : hand.winningTile ? tileParts(hand.winningTile).notation : "",
        flowers: flowerNotation(hand.flowers, hand.dragonFlowers),
        passed: notationOfTiles(w.passedTiles), replacement: Boolean(w.replacementDraw), first: Boolean(w.firstGoAround),
        last: Boolean(w.lastTile) };
    }),
  };
}

function loadPaste() {
  $("#paste-error").textContent = "";
  let data;
  try {
    data = JSON.parse($("#paste").value.trim());
  } catch (error) {
    $("#paste-error").textContent = `Not JSON 不是JSON: ${error.message}`;
    return;
  }
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    $("#paste-error").textContent = "Expected one SettleRequest object 需要一个SettleRequest对象";
    return;
  }
  if (messageKind(data) === "record") { // a rescore file may hold hand records: replay it
    $("#record").value = $("#paste").value.trim();
    history.replaceState(null, "", "#replay");
    showView("replay");
    replayRecord("This is a hand record (SettleRecordRequest): replayed here. 这是牌谱，已在牌谱回放中打开。");
    return;
  }
  setState(stateOfRequest(data));
  settle();
}

// Which message a pasted JSON object is, by the fields only one of the two has (either
// spelling): "record" (SettleRecordRequest), "request" (SettleRequest), or null when it does
// not say, and the service's answer names what is wrong.
const RECORD_ONLY = ["events", "recordedDeltas", "recorded_deltas"];
const REQUEST_ONLY = ["outcome", "winners", "discarderSeat", "discarder_seat", "abandoningSeat", "abandoning_seat",
  "liabilities"];

function messageKind(data) {
  const has = (keys) => keys.some((key) => Object.prototype.hasOwnProperty.call(data, key));
  if (has(RECORD_ONLY) && !has(REQUEST_ONLY)) return "record";
  if (has(REQUEST_ONLY) && !has(RECORD_ONLY)) return "request";
  return null;
}

// ---- waits ------------------------------------------------------------------------------
function waitsState() {
  return { hand: $("#waits-hand").value, passed: $("#waits-passed").value, seat: integer("#waits-seat"),
    profile: $("#waits-profile").value, declared: $("#waits-declared").value.trim(), last: $("#waits-last").checked,
    overrides: $("#waits-overrides").value.trim() };
}

function setWaitsState(state) {
  $("#waits-hand").value = state.hand || "";
  $("#waits-passed").value = state.passed || "";
  $("#waits-seat").value = state.seat || 0;
  $("#waits-profile").value = state.profile || "classic";
  $("#waits-declared").value = state.declared || "";
  $("#waits-last").checked = Boolean(state.last);
  $("#waits-overrides").value = state.overrides || "";
  if (state.overrides) $("#waits-overrides-box").open = true;
}

// The hand (dragon flowers written Cf Ff Pf in it), the passed tiles and the knocked seats are
// read by the server; each one that cannot be read is marked in its field, as is bad JSON.
async function waitsRequest(state) {
  const fields = { hand: state.hand, passed: state.passed, declared: state.declared };
  const errorBox = $("#waits-hand-error");
  const answer = await readNotation(fields);
  for (const e of answer.errors) errorBox.append(notationError(e.field, fields[e.field], e.position, e.message));
  let overrides = null;
  if (state.overrides) {
    try {
      overrides = JSON.parse(state.overrides);
    } catch (e) {
      errorBox.append(el("div", { class: "notation-error", "data-field": "overrides" },
        el("span", { class: "field-name", text: "规则修改 overrides: " }),
        el("span", { class: "message", text: `不是 JSON not JSON: ${e.message}` })));
    }
  }
  if (errorBox.childElementCount) return null;
  const request = { profile: state.profile, seat: state.seat, hand: answer.hand, passedTiles: answer.passedTiles,
    declaredSeats: answer.declaredSeats, lastTile: state.last };
  if (overrides !== null) request.overrides = overrides;
  return { request, hand: answer.hand };
}

// 敲: no wait at all for a seat that has not knocked, where the profile wants the knock, is
// said as `shmj waits` says it.
async function notKnockedNote(request) {
  if (request.declaredSeats.includes(request.seat)) return null;
  const profile = (await call("GetProfile", { name: request.profile, overrides: request.overrides })).profile;
  if (!profile || !profile.winRequiresDeclaration) return null;
  return el("p", { class: "note not-knocked", text: `seat ${request.seat} 座位${request.seat}: ${term("not_knocked_no_wait")}` +
    ` (Knocked seats 已敲: ${request.seat})` });
}

async function listWaits() {
  const state = waitsState();
  $("#waits-hand-error").replaceChildren();
  $("#waits-error").replaceChildren();
  writeHash({ view: "waits", ...state });
  const built = await waitsRequest(state);
  if (built === null) {
    $("#waits-result").replaceChildren();
    return;
  }
  const { request, hand } = built;
  try {
    const response = await call("ListWaits", request);
    const table = (title, waits, kind) => el("section", { class: `waits ${kind}` }, el("h3", { text: `${title}: ${waits.length} ${term("winning_tiles")}` }),
      el("table", {}, el("thead", {}, el("tr", {}, el("th", { text: "Tile 牌" }), el("th", { text: term("value_per_share") }), el("th", { text: "Patterns 牌型" }))),
        el("tbody", {}, waits.map((w) => el("tr", { "data-tile": tileParts(w.tile).notation },
          el("td", {}, tile(w.tile)), el("td", { class: "num", text: number((w.result || {}).value) }),
          el("td", { text: ((w.result || {}).patterns || []).map(patternWords).join(", ") }))))));
    const discard = response.discardWaits || [], selfDraw = response.selfDrawWaits || [];
    const note = discard.length || selfDraw.length ? null : await notKnockedNote(request);
    $("#waits-result").replaceChildren(handPicture(hand), table("On a discard 点炮", discard, "discard"),
      table("By self-draw 自摸", selfDraw, "self-draw"), ...(note ? [note] : []));
  } catch (error) {
    $("#waits-result").replaceChildren(); // the last hand's waits are not this hand's
    const violations = error.violations || [];
    $("#waits-error").replaceChildren(el("p", { text: failureLine(error, violations) }),
      ...violations.map((v) => el("div", { class: "violation" }, el("code", { text: v.field }), `: ${v.description}`)));
  }
}

// ---- profiles ---------------------------------------------------------------------------
// Each profile's values in the words `shmj profiles` prints, units included (10 分, 3 × V 份):
// the server's rules_core.profile_words, POST /explorer/profile-words.
async function profileWords(profiles) {
  const reply = await fetch("/explorer/profile-words", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ profiles }),
  });
  if (!reply.ok) throw new Error(await reply.text());
  return (await reply.json()).profiles;
}

async function showProfiles() {
  if ($("#profiles-table").childElementCount) return;
  try {
    const response = await call("ListProfiles", {});
    const profiles = response.profiles || [];
    const said = await profileWords(profiles);
    const rows = Object.entries(vocabulary.profileFields).filter(([field]) => field !== "name").map(([field, words]) => {
      const values = said.map((fields) => (fields[field] || []).join(", "));
      return el("tr", { class: new Set(values).size > 1 ? "diff" : "", "data-field": field },
        el("th", { scope: "row" }, el("span", { class: "field-words", text: `${words.zh} ${words.en}` }), " ",
          el("code", { text: field }), el("div", { class: "meaning", lang: "zh", text: words.zhMeaning }),
          el("div", { class: "meaning", lang: "en", text: words.meaning })),
        values.map((v) => el("td", { text: v })));
    });
    $("#profiles-table").replaceChildren(el("table", { class: "profiles" },
      el("thead", {}, el("tr", {}, el("th", { text: "Field 字段 · meaning 含义" }),
        profiles.map((p) => el("th", { text: p.name })))), el("tbody", {}, rows)));
  } catch (error) {
    $("#profiles-error").textContent = failureLine(error);
  }
}

// ---- the URL holds the state -------------------------------------------------------------
function writeHash(state) {
  const view = state.view || "settle";
  const copy = { ...state };
  delete copy.view;
  history.replaceState(null, "", `#${view}?${encodeURIComponent(JSON.stringify(copy))}`);
}

function readHash() {
  const [view, query] = location.hash.replace(/^#/, "").split("?");
  let state = null;
  if (query) {
    try { state = JSON.parse(decodeURIComponent(query)); } catch (e) { state = null; }
  }
  return { view: ["settle", "waits", "advice", "profiles", "replay"].includes(view) ? view : "settle", state };
}

function showView(view) {
  for (const section of $$(".view")) section.hidden = section.id !== `view-${view}`;
  for (const link of $$("nav a")) link.setAttribute("aria-current", link.dataset.view === view ? "page" : "false");
  if (view === "profiles") showProfiles();
}

// House profiles (the server's --profiles-dir) join the built-in ones in every profile menu,
// before a link's state is read, so that a link may name one.
async function addHouseProfiles() {
  let summaries = [];
  try {
    summaries = (await call("ListProfiles", {})).summaries || [];
  } catch (error) {
    return; // the menus keep the built-in profiles; a call that needs the server says what is wrong
  }
  for (const summary of summaries.filter((s) => s.base)) {
    const title = `${summary.base}: ${summary.description || ""}`;
    for (const select of $$("#profile, #waits-profile, #advice-profile, #compare")) {
      select.append(el("option", { value: summary.name, text: summary.name, title }));
    }
  }
}

async function start() {
  vocabulary = await (await fetch("/explorer/vocabulary.json")).json();
  await addHouseProfiles();
  $("#add-winner").addEventListener("click", () => $(".w-hand", addWinner()).focus());
  $("#settle-form").addEventListener("submit", (event) => { event.preventDefault(); settle(); });
  $("#outcome").addEventListener("change", () => { // nobody wins a draw or an abandon
    const winless = ["OUTCOME_EXHAUSTIVE_DRAW", "OUTCOME_ABANDON"].includes($("#outcome").value);
    if (winless) $("#winners").replaceChildren();
    else if (!$$("#winners .winner").length) addWinner();
  });
  $("#waits-form").addEventListener("submit", (event) => { event.preventDefault(); listWaits(); });
  $("#load-paste").addEventListener("click", loadPaste);
  window.addEventListener("hashchange", () => showView(readHash().view));
  const { view, state } = readHash();
  showView(view);
  if (view === "settle" && state) {
    setState(state);
    settle();
  } else {
    addWinner({ seat: 0, hand: "111m 555m 999p EEE 77s", win: "7s", flowers: "1f 5f" });
  }
  if (view === "waits" && state) {
    setWaitsState(state);
    listWaits();
  }
  if (view === "advice" && state) {
    setAdviceState(state); // advice.js
    advise();
  }
  document.body.dataset.ready = "true";
}

document.addEventListener("DOMContentLoaded", start);
