"use strict";
// The table page: one websocket; every state message comes from the server, built from this seat's view.
const TABLE = location.pathname.split("/").pop();
let token = null, ws = null, S = null, sent = false, pendingName = null, retry = 0, dlgKey = "";
(function readToken() {
  const m = location.hash.match(/token=([A-Za-z0-9_-]+)/);
  if (m) { saveToken(TABLE, m[1]); pendingName = true; history.replaceState(null, "", location.pathname); }
  token = tokens()[TABLE] || null;
})();
const $ = (id) => document.getElementById(id);
function names() { return S ? S.table.seats.map((s) => s.name) : []; }
function contractText(c) { return c ? (c.length === 1 ? SUIT_SYM[c] + " " + t(c) : t(c)) : t("noContract"); }
function connect() {
  $("conn").textContent = t("connecting");
  ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws/" + TABLE);
  ws.onopen = () => {
    retry = 0; $("conn").textContent = "";
    if (pendingName && token) { askName(); return; }
    ws.send(JSON.stringify({ type: "join", token }));
  };
  ws.onmessage = (ev) => {
    const m = JSON.parse(ev.data);
    if (m.type === "state") { S = m; sent = false; $("error").textContent = ""; render(); }
    else if (m.type === "error") {
      sent = false;
      if (m.code === "wrong_token") { token = null; ws.send(JSON.stringify({ type: "join", token: null })); }
      $("error").textContent = m.reason;
    } else if (m.type === "hint") { showHint(m.action); }
  };
  ws.onclose = () => { $("conn").textContent = t("disconnected"); setTimeout(connect, Math.min(5000, 300 * ++retry)); };
}
function askName() {
  // an invited friend names himself once, before joining the seat
  $("dlg-body").innerHTML = `<label>${esc(t("yourName"))} <input id="myname" maxlength="40" value="${esc(localStorage.getItem("sm-name") || "")}"></label>`;
  const A = $("dlg-actions"); A.innerHTML = "";
  const b = document.createElement("button"); b.id = "btn-join"; b.textContent = t("join"); A.appendChild(b);
  const go = () => {
    const n = $("myname").value.trim(); if (n) localStorage.setItem("sm-name", n);
    pendingName = null; $("dlg").close(); dlgKey = "";
    ws.send(JSON.stringify(n ? { type: "join", token, name: n } : { type: "join", token }));
  };
  b.onclick = go; $("myname").addEventListener("keydown", (e) => { if (e.key === "Enter") go(); });
  if (!$("dlg").open) $("dlg").show(); $("myname").focus();
}
function send(msg) {
  if (!S || sent || !ws || ws.readyState !== 1) return;
  msg.v = S.v; sent = true; ws.send(JSON.stringify(msg));
}
function act(a) { const x = Object.assign({}, a); delete x.seat; send({ type: "act", action: x }); }
function actionLabel(a) {
  const nm = names();
  if (a.play) return a.play; if (a.discard) return a.discard;
  if (a.contract) return contractText(a.contract);
  if (a.kitty) return t("take");
  if (a.give) return a.give; if (a.return) return a.return;
  if (a.end_give) return t("endGive");
  if (a.assign) return a.assign.map((x, i) => nm[i] + " " + x).join(", ");
  return JSON.stringify(a);
}
function render() {
  const v = S.view, nm = names(), you = S.you;
  $("tname").textContent = S.table.name + " · " + S.table.rules + (S.table.practice ? " · " + t("practice") : "");
  document.title = S.table.name + " · Sergeant Major";
  // players
  const P = $("players"); P.innerHTML = "";
  S.table.seats.forEach((s, i) => {
    const d = document.createElement("div");
    d.className = "player" + (v.to_act === i && !S.waiting_start && !S.over ? " to-act" : "");
    d.dataset.seat = i;
    const flags = [i === v.dealer ? t("dealer") : null, s.kind === "human" ? (s.online ? t("online") : t("offline")) : s.kind,
      s.away ? t("standin") : null, i === you ? t("you") : null].filter(Boolean).join(" · ");
    d.innerHTML = `<div class="nm">${esc(s.name)}</div><div class="st">${esc(t("target"))} ${v.targets[i]} · ${esc(t("tricks"))} ` +
      `<b class="tricks">${v.tricks_won[i]}</b> · ${esc(t("total"))} <b class="total">${v.totals[i]}</b></div><div class="st">${esc(flags)}</div>`;
    P.appendChild(d);
  });
  $("contract").innerHTML = `${esc(t("deal"))} ${v.deal} · ${esc(t("contract"))}: <b id="contract-text">${esc(contractText(v.contract))}</b>`;
  // trick (the trick in progress, else the last completed one)
  const T = $("trick"); T.innerHTML = "";
  let cards = v.trick, winner = null;
  if (!cards.length && v.completed.length) { const lt = v.completed[v.completed.length - 1]; cards = lt.cards; winner = lt.winner; }
  for (const [s, c] of cards) {
    const d = document.createElement("div"); d.className = "played";
    d.appendChild(cardEl(c)); d.appendChild(document.createElement("br"));
    d.appendChild(document.createTextNode(nm[s] + (winner === s ? " ✓" : ""))); T.appendChild(d);
  }
  // hand
  const H = $("hand"); H.innerHTML = "";
  const plays = {}; for (const a of v.legal) if (a.play) plays[a.play] = a;
  for (const c of v.hand) {
    const b = cardEl(c, "button"); b.type = "button";
    if (plays[c]) { b.classList.add("legal"); b.onclick = () => act(plays[c]); } else { b.setAttribute("aria-disabled", "true"); }
    H.appendChild(b);
  }
  // exchange info
  const ex = v.exchange.filter((e) => e.card);
  $("exinfo").textContent = ex.length ? ex.map((e) => (e.giver === you ? "→ " + nm[e.receiver] : "← " + nm[e.giver]) + " " + e.card).join(", ") : "";
  // status
  let st = "";
  if (S.over) st = t("over") + ": " + t("wins", { names: S.end.winners.map((w) => nm[w]).join(", ") });
  else if (S.waiting_start) st = v.deal === 1 ? t("waiting") : t("result", { n: v.deal - 1 });
  else if (v.to_act === you) st = t("yourTurn") + (Object.keys(plays).length ? " (" + t("legalHint") + ")" : "");
  else if (v.to_act !== null) st = t("waitingFor", { name: nm[v.to_act] });
  $("status").textContent = (you === null ? t("spectator") + " · " : "") + st;
  $("btn-hint").hidden = !(S.table.practice && you !== null);
  $("btn-undo").hidden = !(S.table.practice && you !== null);
  $("btn-undo").disabled = !S.can_undo;
  $("btn-hint").disabled = !(v.to_act === you && v.legal.length);
  renderDialog();
}
function openDlg(key, html, buttons) {
  const d = $("dlg");
  if (dlgKey === key + ":" + S.v && d.open) return;
  dlgKey = key + ":" + S.v;
  $("dlg-body").innerHTML = html;
  const A = $("dlg-actions"); A.innerHTML = "";
  for (const [label, fn, attrs] of buttons) {
    const b = document.createElement("button"); b.type = "button";
    if (label instanceof Node) b.appendChild(label); else b.textContent = label;
    if (attrs) for (const k in attrs) b.setAttribute(k, attrs[k]);
    b.onclick = fn; A.appendChild(b);
  }
  if (!d.open) d.show();
  const f = A.querySelector("button"); if (f) f.focus();
}
function closeDlg() { const d = $("dlg"); if (d.open) d.close(); dlgKey = ""; }
function resultTable(r) {
  const nm = names();
  return `<table class="sheet"><tr><th></th><th>${esc(t("target"))}</th><th>${esc(t("tricks"))}</th><th>+/-</th></tr>` +
    nm.map((n, i) => `<tr><th>${esc(n)}</th><td>${r.targets[i]}</td><td>${r.tricks[i]}</td><td>${r.scores[i]}</td></tr>`).join("") + "</table>";
}
function renderDialog() {
  const v = S.view, you = S.you, nm = names();
  if (S.over) {
    const html = `<h2 id="end-title">${esc(t("over"))}</h2><p id="winner">${esc(t("wins", { names: S.end.winners.map((w) => nm[w]).join(", ") }))}</p>` +
      `<p>${esc(S.end.reason)}</p>` + (S.prev ? resultTable(S.prev.result) : "") + scoreSheet();
    openDlg("over", html, [[t("replay"), () => { location.href = "/replay/" + TABLE; }, { id: "btn-replay" }],
      [t("download"), () => { location.href = "/api/tables/" + TABLE + "/record"; }], [t("close"), closeDlg]]);
    return;
  }
  if (S.waiting_start) {
    if (v.deal === 1) {
      const html = `<h2>${esc(t("waiting"))}</h2><ul id="seatlist">` + S.table.seats.map((s) => `<li>${esc(s.name)}: ${esc(s.kind === "human" ? (s.online ? t("online") : t("offline")) : s.kind)}</li>`).join("") + "</ul>";
      openDlg("start" + S.table.seats.map((s) => s.name + s.online).join(), html, you !== null ? [[t("start"), () => send({ type: "start" }), { id: "btn-start" }]] : []);
    } else {
      const html = `<h2>${esc(t("result", { n: S.prev ? S.prev.number : v.deal - 1 }))}</h2>` + (S.prev ? resultTable(S.prev.result) : "");
      openDlg("next", html, you !== null ? [[t("nextDeal"), () => send({ type: "start" }), { id: "btn-next" }]] : []);
    }
    return;
  }
  const steps = v.legal.filter((a) => !a.play);
  if (v.to_act === you && steps.length) {
    const a0 = steps[0]; let title = "", extra = "";
    if (a0.contract) title = t("nameTrump");
    else if (a0.kitty) { title = t("takeKitty"); }
    else if (a0.discard) title = t("discard");
    else if (a0.give || a0.end_give) title = t("give", { name: nm[(a0.to)] });
    else if (a0.return) title = t("ret", { name: nm[a0.to] });
    else if (a0.assign) title = t("assign");
    if (v.kitty) { const k = document.createElement("div"); k.textContent = t("kitty") + ": "; v.kitty.forEach((c) => k.appendChild(cardEl(c))); extra = k.outerHTML; }
    const btns = steps.map((a) => {
      const card = a.discard || a.give || a.return;
      return [card ? cardEl(card) : actionLabel(a), () => act(a), { "data-action": JSON.stringify(a), class: "step" }];
    });
    openDlg("step", `<h2 id="step-title">${esc(title)}</h2>` + extra, btns);
    return;
  }
  if ($("dlg").open && !dlgKey.startsWith("info")) closeDlg();
}
function scoreSheet() {
  const v = S.view, nm = names();
  let h = `<table class="sheet" id="sheet"><tr><th>${esc(t("deal"))}</th>` + nm.map((n) => `<th>${esc(n)}</th>`).join("") + "</tr>";
  const tot = nm.map(() => 0);
  v.results.forEach((r, k) => { r.scores.forEach((x, i) => { tot[i] += x; });
    h += `<tr><td>${k + 1} (${esc(r.contract)})</td>` + r.scores.map((x, i) => `<td>${r.tricks[i]}/${r.targets[i]}: ${x > 0 ? "+" : ""}${x} = ${tot[i]}</td>`).join("") + "</tr>"; });
  return h + `<tr><th>${esc(t("total"))}</th>` + v.totals.map((x) => `<th>${x}</th>`).join("") + "</tr></table>";
}
function info(html) { $("info-body").innerHTML = html; if (!$("info").open) $("info").showModal(); $("info-close").focus(); }
function showHint(a) { $("error").textContent = t("hintIs", { a: actionLabel(a) }); const b = document.querySelector(`#hand [data-card="${a.play}"]`); if (b) b.focus(); }
$("info-close").onclick = () => $("info").close();
$("btn-scores").onclick = () => S && info(`<h2>${esc(t("scores"))}</h2>` + scoreSheet());
$("btn-last").onclick = () => {
  if (!S) return; const v = S.view; let lt = v.completed.length ? v.completed[v.completed.length - 1] : (S.prev ? S.prev.last_trick : null);
  const d = document.createElement("div"); d.id = "last-trick";
  if (lt) lt.cards.forEach(([s, c]) => { const p = document.createElement("span"); p.className = "played"; p.appendChild(cardEl(c)); p.appendChild(document.createTextNode(" " + names()[s] + (s === lt.winner ? " ✓ " : " "))); d.appendChild(p); });
  info(`<h2>${esc(t("lastTrick"))}</h2>` + d.outerHTML);
};
$("btn-hint").onclick = () => ws && ws.send(JSON.stringify({ type: "hint" }));
$("btn-undo").onclick = () => send({ type: "undo" });
// keyboard: arrows move between the cards of the hand; Enter/Space plays the focused card
document.addEventListener("keydown", (ev) => {
  if ($("dlg").open || $("info").open) return;
  const cards = Array.from(document.querySelectorAll("#hand button.card"));
  if (!cards.length) return;
  const i = cards.indexOf(document.activeElement);
  if (ev.key === "ArrowRight" || ev.key === "ArrowLeft") {
    ev.preventDefault();
    const legal = cards.filter((b) => b.classList.contains("legal")); const list = legal.length ? legal : cards;
    const j = list.indexOf(document.activeElement);
    const k = j < 0 ? 0 : (j + (ev.key === "ArrowRight" ? 1 : list.length - 1)) % list.length;
    list[k].focus();
  } else if ((ev.key === "Enter" || ev.key === " ") && i >= 0) { ev.preventDefault(); cards[i].click(); }
});
window.onLang = () => S && (dlgKey = "", render());
document.addEventListener("DOMContentLoaded", connect);
