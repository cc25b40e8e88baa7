// The Replay 牌谱 view: a hand record (RULES.md section 13) sent to SettleRecord, then stepped
// through event by event: the four hands, melds, discards, flowers and 漏胡 locks drawn as
// tiles, each pass with the win it could have been, the settlement at the end and the
// recorded deltas seat by seat. The server judges everything; this page follows the tiles
// only, from the events the server accepted. It uses explorer.js's helpers (el, $, tile, ...).

const TILE_ORDER = [
  ...["M", "P", "S"].flatMap((suit) => [1, 2, 3, 4, 5, 6, 7, 8, 9].map((rank) => `TILE_${suit}${rank}`)),
  ...Object.keys(HONOURS).map((name) => `TILE_${name}`),
];
const ACTS = new Set(["EVENT_KIND_DRAW", "EVENT_KIND_CHOW", "EVENT_KIND_PUNG", "EVENT_KIND_EXPOSED_KONG",
  "EVENT_KIND_ADDED_KONG", "EVENT_KIND_CONCEALED_KONG"]);
// Each event kind's words: the terms `shmj replay` prints (rules_core.vocabulary), in its
// order, English then Chinese ("discards 打出"). The keys in the enum's order (numbers read below).
const EVENT_TERMS = {
  EVENT_KIND_DEAL: "is_dealt", EVENT_KIND_DRAW: "draws", EVENT_KIND_DISCARD: "discards", EVENT_KIND_CHOW: "chows",
  EVENT_KIND_PUNG: "pungs", EVENT_KIND_EXPOSED_KONG: "kongs", EVENT_KIND_ADDED_KONG: "adds_to_its_pung",
  EVENT_KIND_CONCEALED_KONG: "concealed_kong", EVENT_KIND_WIN: "claims_a_win",
  EVENT_KIND_EXHAUSTIVE_DRAW: "wall_exhausted", EVENT_KIND_ABANDON: "leaves", EVENT_KIND_DECLARE: "knocks",
};

function eventTerm(key) {
  const words = vocabulary.terms[key];
  return words ? `${words.en} ${words.zh}` : key;
}

// record: as this page follows it (usualRecord); pasted: as it was given, for the ticket.
const replayState = { record: null, pasted: null, response: null, whys: [], profile: null, steps: [], at: 0 };

// The record in the one form this page follows, as the server read it: the proto3 JSON mapping
// also takes snake_case keys, enum numbers, numbers in strings, and an unset field given null or
// its unspecified value (a record the server settled in those broke the view or drew other hands).
const KIND_NAMES = Object.keys(EVENT_TERMS);
const FLOWER_NAMES = FLOWERS.map((name) => `FLOWER_${name}`);

function field(message, name) { // by its lowerCamelCase or its snake_case key
  return message[name] ?? message[name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)];
}

function enumName(value, names) {
  if (typeof value === "number") return names[value - 1];
  return typeof value === "string" && !value.endsWith("_UNSPECIFIED") ? value : undefined;
}

function usualEvent(event) {
  const tile = enumName(field(event, "tile"), TILE_ORDER);
  const flower = enumName(field(event, "flower"), FLOWER_NAMES);
  return {
    kind: enumName(field(event, "kind"), KIND_NAMES),
    seat: Number(field(event, "seat") || 0),
    ...(tile && { tile }),
    ...(flower && { flower }),
    tiles: (field(event, "tiles") || []).map((t) => enumName(t, TILE_ORDER)),
    flowers: (field(event, "flowers") || []).map((f) => enumName(f, FLOWER_NAMES)),
    dragonFlowers: (field(event, "dragonFlowers") || []).map((t) => enumName(t, TILE_ORDER)),
    lastTile: field(event, "lastTile") === true,
  };
}

const DRAGONS = new Set(["TILE_RED", "TILE_GREEN", "TILE_WHITE"]);

// Whether the record shows 中发白 as flowers (its profile's dragons_are_flowers; as
// rules_core.replay.dragons_shown_as_flowers reads it): a deal lists dragon flowers, or the first
// seat to draw a dragon draws again right after it.
function dragonsAreFlowers(events) {
  for (const [index, event] of events.entries()) {
    if (event.dragonFlowers.length) return true;
    if (event.kind === "EVENT_KIND_DEAL" && event.tiles.some((t) => DRAGONS.has(t))) return false;
    if (event.kind === "EVENT_KIND_DRAW" && DRAGONS.has(event.tile)) {
      const after = events[index + 1];
      return Boolean(after) && after.kind === "EVENT_KIND_DRAW" && after.seat === event.seat;
    }
  }
  return false;
}

function usualRecord(record) {
  return {
    dealerSeat: Number(field(record, "dealerSeat") || 0),
    recordedDeltas: (field(record, "recordedDeltas") || []).map(Number),
    events: (record.events || []).map(usualEvent),
  };
}

function sortTiles(tiles) {
  return [...tiles].sort((a, b) => TILE_ORDER.indexOf(a) - TILE_ORDER.indexOf(b));
}

function take(hand, name, count) {
  for (let i = 0; i < count; i += 1) hand.concealed.splice(hand.concealed.indexOf(name), 1);
}

// Every event's picture of the table: the hands after it, and the locks then in force.
function followRecord(record, response) {
  const seats = SEATS.map(() => ({ concealed: [], melds: [], flowers: [], dragonFlowers: [], discards: [], locks: [],
    knocked: false }));
  const dragonFlowers = dragonsAreFlowers(record.events || []);
  const passesAt = {};
  for (const pass of response.passes || []) (passesAt[pass.eventIndex || 0] ||= []).push(pass);
  let offered = null; // the last discard or added kong: { seat, tile }
  const steps = [];
  (record.events || []).forEach((event, index) => {
    const kind = event.kind;
    const seat = event.seat;
    const hand = seats[seat];
    if (ACTS.has(kind)) hand.locks = [];
    if (kind === "EVENT_KIND_DEAL") {
      hand.concealed.push(...event.tiles);
      hand.flowers.push(...event.flowers);
      hand.dragonFlowers.push(...event.dragonFlowers);
    } else if (kind === "EVENT_KIND_DRAW") {
      if (event.flower) hand.flowers.push(event.flower);
      else if (dragonFlowers && DRAGONS.has(event.tile)) hand.dragonFlowers.push(event.tile);
      else hand.concealed.push(event.tile);
    } else if (kind === "EVENT_KIND_DISCARD") {
      take(hand, event.tile, 1);
      seats[seat].discards.push(event.tile);
      offered = { seat, tile: event.tile };
    } else if (["EVENT_KIND_CHOW", "EVENT_KIND_PUNG", "EVENT_KIND_EXPOSED_KONG"].includes(kind)) {
      const own = kind === "EVENT_KIND_CHOW" ? event.tiles : Array(kind === "EVENT_KIND_PUNG" ? 2 : 3).fill(offered.tile);
      own.forEach((t) => take(hand, t, 1));
      seats[offered.seat].discards.pop(); // the claimed tile leaves its discarder's river
      const meldKind = { EVENT_KIND_CHOW: "MELD_KIND_CHOW", EVENT_KIND_PUNG: "MELD_KIND_PUNG",
        EVENT_KIND_EXPOSED_KONG: "MELD_KIND_EXPOSED_KONG" }[kind];
      hand.melds.push({ kind: meldKind, tiles: sortTiles([...own, offered.tile]), fromSeat: offered.seat });
    } else if (kind === "EVENT_KIND_ADDED_KONG") {
      take(hand, event.tile, 1);
      const pung = hand.melds.find((m) => m.kind === "MELD_KIND_PUNG" && m.tiles[0] === event.tile);
      pung.kind = "MELD_KIND_ADDED_KONG";
      pung.tiles = [...pung.tiles, event.tile];
      offered = { seat, tile: event.tile };
    } else if (kind === "EVENT_KIND_DECLARE") {
      hand.knocked = true; // 敲
    } else if (kind === "EVENT_KIND_CONCEALED_KONG") {
      take(hand, event.tile, 4);
      hand.melds.push({ kind: "MELD_KIND_CONCEALED_KONG", tiles: Array(4).fill(event.tile) });
    }
    for (const pass of passesAt[index] || []) seats[pass.seat || 0].locks.push(pass.tile);
    steps.push({ event, kind, dragonFlower: dragonFlowers && DRAGONS.has(event.tile), passes: passesAt[index] || [],
      seats: seats.map((s) => ({ ...s, concealed: sortTiles(s.concealed), melds: s.melds.map((m) => ({ ...m })),
        flowers: [...s.flowers], dragonFlowers: [...s.dragonFlowers], discards: [...s.discards], locks: [...s.locks] })) });
  });
  return steps;
}

function eventWords(step) {
  const { event, kind } = step;
  const flower = kind === "EVENT_KIND_DRAW" && (event.flower || step.dragonFlower);
  const words = EVENT_TERMS[kind] ? eventTerm(flower ? "draws_flower" : EVENT_TERMS[kind]) : kind;
  if (kind === "EVENT_KIND_EXHAUSTIVE_DRAW") return words;
  const what = event.flower ? ` ${FLOWERS.indexOf(event.flower.replace(/^FLOWER_/, "")) + 1}f`
    : event.tile ? ` ${tileParts(event.tile).notation}${step.dragonFlower ? "f" : ""}` : "";
  const last = event.lastTile ? `, ${eventTerm("on_the_last_tile")}` : ""; // 海底捞月, as stated
  return `seat ${event.seat} ${words}${kind === "EVENT_KIND_DEAL" ? "" : what}${last}`;
}

function seatPanel(seat, picture, step, record) {
  const acting = step.event.seat === seat && step.kind !== "EVENT_KIND_EXHAUSTIVE_DRAW";
  const dealer = record.dealerSeat === seat ? " · dealer 庄" : "";
  const knocked = picture.knocked ? ` · ${eventTerm("knocked_seats")}` : "";
  const panel = el("section", { class: `replay-seat${acting ? " acting" : ""}`, "data-seat": seat },
    el("h4", { text: `Seat ${seat}${dealer}${knocked}` }));
  const line = handPicture({ concealed: picture.concealed, melds: picture.melds, flowers: picture.flowers,
    dragonFlowers: picture.dragonFlowers });
  panel.append(line);
  const below = el("div", { class: "tiles-line" },
    el("span", { class: "group discards" }, picture.discards.map((t) => tile(t, "discarded")),
      el("small", { text: "discards 弃牌" })));
  if (picture.locks.length) {
    below.append(el("span", { class: "group locks", title: "may not win on these from a discard until it acts" },
      picture.locks.map((t) => tile(t, "locked")), el("small", { text: "locked 漏胡" })));
  }
  panel.append(below);
  return panel;
}

function passLine(pass) {
  const patterns = (pass.patterns || []).map(patternWords).join(", ");
  return el("p", { class: "pass", "data-seat": pass.seat || 0 },
    `seat ${pass.seat || 0} could have won on `, tile(pass.tile, "passed"), ` here — ${patterns} — and passed 漏胡`);
}

function deltasTable(record, response) {
  const recorded = record.recordedDeltas;
  if (!recorded.length) return null;
  const settled = response.settlement.seatDeltas || [];
  const mismatched = new Set(response.mismatchedSeats || []);
  const rows = SEATS.map((seat) => el("tr", { class: mismatched.has(seat) ? "diff" : "", "data-seat": seat },
    el("th", { text: `Seat ${seat}` }), el("td", { text: signed(recorded[seat]) }), el("td", { text: signed(settled[seat]) })));
  const verdict = response.recordedMatch ? "The recorded deltas match the settlement 记录相符"
    : `The recorded deltas differ at seat(s) ${[...mismatched].join(", ")} 记录不符`;
  return el("section", { class: "recorded" }, el("h3", { text: verdict }),
    el("table", {}, el("thead", {}, el("tr", {}, el("th"), el("th", { text: "recorded 记录" }),
      el("th", { text: "settled 结算" }))), el("tbody", {}, rows)));
}

function showStep(at) {
  const { steps, record, response, whys, profile, pasted } = replayState;
  replayState.at = Math.max(0, Math.min(at, steps.length - 1));
  const step = steps[replayState.at];
  $("#replay-step").value = String(replayState.at);
  $("#replay-event").textContent = `event ${replayState.at} of ${steps.length - 1} 第${replayState.at}步: ${eventWords(step)}`;
  const table = el("div", { class: "replay-table" }, SEATS.map((seat) => seatPanel(seat, step.seats[seat], step, record)));
  const parts = [table, ...step.passes.map(passLine)];
  if (replayState.at === steps.length - 1) {
    const deltas = deltasTable(record, response); // what support looks for first: above the settlement
    if (deltas) parts.push(deltas);
    parts.push(settlementView(response.settlement, response.derived, { whys, profile, view: "replay", record: pasted }));
  }
  $("#replay-picture").replaceChildren(...parts);
  showReviewAt(replayState.at); // review.js: this discard among the best or not, the rivers marked
}

// note: why this record is here, when it was pasted into Settle.
async function replayRecord(note = "") {
  $("#replay-note").textContent = note;
  $("#replay-error").replaceChildren();
  $("#replay-result").hidden = true;
  let record;
  try {
    record = JSON.parse($("#record").value);
  } catch (error) {
    $("#replay-error").textContent = `Not JSON 不是JSON: ${error.message}`;
    return;
  }
  if (record !== null && typeof record === "object" && messageKind(record) === "request") {
    setState(stateOfRequest(record)); // a SettleRequest belongs in Settle: settled there
    showView("settle");
    settle("This is a SettleRequest, not a hand record: settled here. 这是结算请求，不是牌谱，已在结算中打开。");
    return;
  }
  try {
    const response = await call("SettleRecord", record);
    replayState.record = usualRecord(record);
    replayState.pasted = record;
    replayState.response = response;
    replayState.whys = await paymentsWhy(response.settlement, response.derived);
    replayState.profile = await silentProfile(response.settlement, response.derived);
    replayState.steps = followRecord(replayState.record, response);
    await reviewRecord(record, replayState.record); // review.js: ReviewRecord, each seat summed up
    $("#replay-step").max = String(replayState.steps.length - 1);
    $("#replay-passes").textContent = `${(response.passes || []).length} pass(es) 漏胡`;
    $("#replay-result").hidden = false;
    showStep(0);
  } catch (error) {
    const box = $("#replay-error");
    box.replaceChildren(el("p", { text: failureLine(error, error.violations || []) }));
    for (const v of error.violations || []) {
      box.append(el("div", { class: "violation", "data-field": v.field }, el("code", { text: v.field }), `: ${v.description}`));
    }
  }
}

document.addEventListener("DOMContentLoaded", () => {
  $("#replay-button").addEventListener("click", () => replayRecord());
  $("#replay-form").addEventListener("submit", (event) => { event.preventDefault(); replayRecord(); });
  $("#record-file").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    if (!file) return;
    const text = await file.text();
    try {
      JSON.parse(text);
      $("#record").value = text; // one record
    } catch (error) {
      $("#record").value = text.split("\n").find((line) => line.trim()) || ""; // JSON Lines: the first
    }
  });
  $("#replay-step").addEventListener("input", (event) => showStep(Number(event.target.value)));
  $("#replay-previous").addEventListener("click", () => showStep(replayState.at - 1));
  $("#replay-next").addEventListener("click", () => showStep(replayState.at + 1));
  $("#replay-next-pass").addEventListener("click", () => {
    const next = replayState.steps.findIndex((s, i) => i > replayState.at && s.passes.length);
    showStep(next >= 0 ? next : replayState.steps.length - 1);
  });
  $("#replay-end").addEventListener("click", () => showStep(replayState.steps.length - 1));
});
