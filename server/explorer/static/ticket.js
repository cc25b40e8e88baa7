// A settlement for a dispute ticket: the print rules of explorer.css turn the Settle view, or
// the end of a replay, into a record of the request (or the hand record and the request derived
// from it), the profile digest, the engine version, the items and the payments, in English
// and Chinese; the button has the browser print it or save it as a PDF. Nothing leaves the
// page. It uses explorer.js's helpers (el).

// The request as JSON on one line, wrapped on paper: what the Settle view's paste box (or the
// Replay view) takes back, so a colleague can reproduce the settlement from the ticket.
function ticketRecord(request, record) {
  const parts = [el("h3", { text: "For a dispute ticket 争议记录" })];
  if (record) {
    parts.push(el("h4", { text: "The hand record 牌谱 (SettleRecordRequest)" }),
      el("pre", { class: "ticket-json record-json", text: JSON.stringify(record) }));
  }
  parts.push(el("h4", { text: record ? "The request derived from it 推得的请求 (SettleRequest)" : "The request 请求 (SettleRequest)" }),
    el("pre", { class: "ticket-json request-json", text: JSON.stringify(request) }));
  return el("section", { class: "ticket" }, parts);
}

function ticketButton() {
  const button = el("button", { type: "button", class: "print-button" }, "Print or save as PDF ", el("span", { lang: "zh", text: "打印 / 存为PDF" }));
  button.addEventListener("click", () => window.print());
  return el("p", { class: "export" }, button,
    el("span", { class: "hint", text: " for a dispute ticket: the request, the rules digest, the engine, the items and the payments 用于争议工单" }));
}
