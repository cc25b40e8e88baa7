// The Replay view's review (复盘, RULES.md section 15.6): the record replayed is also sent to
// ReviewRecord, and then each seat's summary is shown above the table, each discard's event says
// whether it was among the best or what was better, and the tiles in the rivers are marked the
// same way. The words are `shmj review`'s (rules_core.vocabulary's terms); every judgement is the
// server's. It uses explorer.js's helpers and replay.js's state (replayState).

const reviewState = { response: null, byEvent: new Map(), rivers: [] };

// Which DISCARD event each tile in each seat's river came from, after every event: a claimed
// discard leaves its discarder's river (as replay.js draws the rivers).
function riverEvents(record) {
  const rivers = SEATS.map(() => []);
  let offered = null;
  return (record.events || []).map((event, index) => {
    if (event.kind === "EVENT_KIND_DISCARD") {
      rivers[event.seat].push(index);
      offered = event.seat;
    } else if (event.kind === "EVENT_KIND_ADDED_KONG") {
      offered = null; // only robbed, never claimed into a meld
    } else if (["EVENT_KIND_CHOW", "EVENT_KIND_PUNG", "EVENT_KIND_EXPOSED_KONG"].includes(event.kind) && offered !== null) {
      rivers[offered].pop();
    }
    return rivers.map((river) => [...river]);
  });
}

// ReviewRecord of the record as it was given; a failure is said above the table and the replay
// goes on without marks.
async function reviewRecord(pasted, record) {
  reviewState.response = null;
  reviewState.byEvent = new Map();
  reviewState.rivers = riverEvents(record);
  try {
    const response = await call("ReviewRecord", pasted);
    reviewState.response = response;
    for (const review of response.discards || []) reviewState.byEvent.set(review.eventIndex || 0, review);
    $("#replay-review").replaceChildren(reviewSummary(response));
  } catch (error) {
    $("#replay-review").replaceChildren(el("p", { class: "call-error", text: `复盘 Review: ${failureLine(error)}` }));
  }
}

function reviewSummary(response) {
  const counts = [["discards_made", "discards"], ["among_the_best", "agreements"], ["backward", "backward"],
    ["forced_discards", "forcedDiscards"], ["dead_discards", "deadDiscards"]];
  const rows = (response.seats || []).map((seat) => el("tr", { "data-seat": seat.seat || 0 },
    el("th", { text: `${term("seat")} ${seat.seat || 0}` }),
    counts.map(([, key]) => el("td", { class: "num", "data-count": key, text: String(seat[key] || 0) })),
    el("td", { class: "passes" }, (seat.passes || []).length
      ? (seat.passes || []).map((p) => el("span", { class: "pass-at" }, tile(p.tile, "passed"), ` @${p.eventIndex || 0}`))
      : term("none"))));
  return el("section", { class: "review-summary scroll" }, el("h3", { text: "复盘 Review: each seat 每家" }),
    el("table", {}, el("thead", {}, el("tr", {}, el("th"), counts.map(([label]) => el("th", { text: term(label) })),
      el("th", { text: term("passes") }))), el("tbody", {}, rows)));
}

// One discard's review in words: among the best (最佳打法), not among the best, backward (退向),
// forced after a knock, or from a dead holding; with the chosen option's shanten, live total and
// live value ("打后向听 shanten after 0, 合计 total 3, 剩余价值 live value 18").
function reviewWords(review) {
  if (review.forced) return { kind: "forced", words: term("forced_discards"), said: "" };
  if (!review.reachable) return { kind: "dead", words: term("dead_holding"), said: "" };
  const chosen = review.chosen || {};
  let said = `${term("shanten_after")} ${chosen.shanten || 0}, ${term("total")} ${chosen.liveTotal || 0}`;
  if ((chosen.waits || []).length) said += `, ${term("live_value")} ${number(chosen.liveValue)}`;
  if (review.agrees) return { kind: "agrees", words: term("among_the_best"), said };
  if (review.backward) return { kind: "backward", words: term("backward"), said };
  return { kind: "better", words: "非最佳 not among the best", said };
}

function reviewText(review) {
  const { words, said } = reviewWords(review);
  return said ? `${words} (${said})` : words;
}

// "[W] 非最佳 not among the best (...) — 最佳应打 best [9s]": the tile discarded, its review and
// what was better.
function reviewLine(review) {
  const { kind } = reviewWords(review);
  const line = el("p", { class: `discard-review ${kind}`, "data-event": review.eventIndex || 0 },
    tile(review.discarded), el("span", { class: "review-words", text: reviewText(review) }));
  if (["better", "backward"].includes(kind)) {
    line.append(el("span", { class: "better-words", text: `— ${term("best_instead")}` }),
      el("span", { class: "best-tiles" }, (review.bestTiles || []).map((t) => tile(t))));
  }
  if (review.reachable) {
    const button = el("button", { type: "button", class: "show-options" }, "Every option 全部打法");
    button.addEventListener("click", () => showOptionsAt(review, button));
    line.append(button);
  }
  return line;
}

// The AdviseRequest of the seat's holding just before a discard, as RULES.md 15.6 reviews it:
// what the seat held, and what it could see (every river, other seats' melds but concealed kongs).
function holdingBefore(review) {
  const before = replayState.steps[(review.eventIndex || 0) - 1].seats;
  const seat = review.seat || 0;
  const own = before[seat];
  const seen = SEATS.flatMap((s) => [...before[s].discards, ...(s === seat ? [] : before[s].melds
    .filter((m) => m.kind !== "MELD_KIND_CONCEALED_KONG").flatMap((m) => m.tiles))]);
  const pasted = replayState.pasted;
  const request = { profile: field(pasted, "profile") || "", seat, dealerSeat: replayState.record.dealerSeat,
    huangfanCount: Number(field(pasted, "huangfanCount") || 0),
    hand: { concealed: own.concealed, melds: own.melds, flowers: own.flowers }, seen };
  for (const key of ["overrides", "dice", "profileDigest"]) if (field(pasted, key)) request[key] = field(pasted, key);
  return request;
}

// Advise on that holding: every option in order (advice.js's table), the one chosen marked.
async function showOptionsAt(review, button) {
  button.disabled = true;
  const place = el("div", { class: "review-options", "data-event": review.eventIndex || 0 });
  button.closest(".discard-review").after(place);
  try {
    const response = await call("Advise", holdingBefore(review));
    const table = optionsTable(response.options || []);
    const chosen = $(`tr[data-tile="${tileParts(review.discarded).notation}"]`, table);
    if (chosen) {
      chosen.classList.add("chosen");
      chosen.cells[0].append(el("span", { class: "played-mark", text: "打出 played" }));
    }
    place.replaceChildren(table);
  } catch (error) {
    place.replaceChildren(el("p", { class: "call-error", text: `牌效 Advice: ${failureLine(error)}` }));
  }
}

// After replay.js has drawn the table at event `at`: the discard's line above the table, and each
// river tile marked with its own discard's review.
function showReviewAt(at) {
  if (!reviewState.response) return;
  const review = reviewState.byEvent.get(at);
  if (review) $("#replay-picture").prepend(reviewLine(review));
  const rivers = reviewState.rivers[at] || [];
  for (const seat of SEATS) {
    const tiles = $$(`.replay-seat[data-seat="${seat}"] .group.discards .tile`, $("#replay-picture"));
    if (tiles.length !== rivers[seat].length) continue; // not the rivers as followed here: left unmarked
    tiles.forEach((node, i) => {
      const marked = reviewState.byEvent.get(rivers[seat][i]);
      if (!marked) return;
      node.classList.add(`reviewed-${reviewWords(marked).kind}`);
      node.title = `${tileParts(marked.discarded).notation} @${rivers[seat][i]}: ${reviewText(marked)}`;
    });
  }
}

// The next discard after the one shown that was a choice and not among the best.
function nextMissedDiscard(at) {
  const missed = [...reviewState.byEvent.values()].filter((r) => r.reachable && !r.forced && !r.agrees)
    .map((r) => r.eventIndex || 0).filter((index) => index > at);
  return missed.length ? Math.min(...missed) : null;
}

document.addEventListener("DOMContentLoaded", () => {
  $("#replay-next-missed").addEventListener("click", () => {
    const next = nextMissedDiscard(replayState.at);
    showStep(next === null ? replayState.steps.length - 1 : next);
  });
});
