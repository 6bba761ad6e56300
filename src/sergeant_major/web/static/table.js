"use strict";
// The table page: one websocket; every state message comes from the server, built from this seat's view.
const TABLE = location.pathname.split("/").pop();
// token: the seat token this browser holds here (saved); invite: a token from an invitation link not yet
// accepted by the server (it is saved only once the server seats us with it); trying: the token of the
// join in flight that would replace ours (tryingName: the name sent with it)
let token = null, invite = null, trying = null, tryingName = null, ws = null, S = null, sent = false, pendingName = null, retry = 0;
let dlgKey = "", dismissed = "", stepKey = "", tokenErr = "", gone = false, signedOut = false;
// checking: the invitation's token asked about (``invitation``) before its person is asked for a name
let checking = null;
// invited: the invitation's token the server said holds a seat here (only such an invitation is offered to one seated here)
let invited = null;
// the token of an invalid invitation the whole page says so about (nobody seated here: invalidInvite), or null
let badInviteTok = null;
// the server's answer to the invitation asked about: its seat, the table as a spectator sees it, the seats taken already
let inviteInfo = null;
// the connection is lost (until the next state): nothing can be sent, so no card or step is offered, and the status says
// so instead of "Your turn" (a card clicked then did nothing, without a word)
let offline = false;
// the pending reconnection (a timer): a lost connection is tried again after a back-off, at once when the browser is online again
let reconnectTimer = 0;
// undone: the hand when Undo was sent (the card taken back gets the focus once the state after it comes), else null
let undone = null;
// the hint asked for on this turn ({v, action}): shown in #hint, never as an error, until the state moves on
let hint = null;
// the card raised by a first tap on a touch screen (a second tap plays it); the state version whose turn got the focus
let raised = null, turnKey = -1, lastPointer = "";
// cards to discard, give or return: chosen (picked, this step's) and then confirmed (queue: sent one by one, each on the
// state after the one before)
let picked = [], pickStep = "", queue = [];
// the trick shown: the last completed trick is held for the pause of the settings, then swept to its winner
let shownDone = { deal: 0, n: 0 }, held = null, heldTimer = 0, shownCards = new Set();
(function readToken() {
  const m = location.hash.match(/token=([A-Za-z0-9_-]+)/);
  token = tokens()[TABLE] || null;
  if (m) {
    history.replaceState(null, "", location.pathname);
    if (m[1] !== token) { invite = m[1]; pendingName = true; }
  }
})();
// an invitation opened on this very page (only the #token= part changed: no reload)
window.addEventListener("hashchange", () => {
  const m = location.hash.match(/token=([A-Za-z0-9_-]+)/);
  // the page that said an invitation is not valid: it opens anew with this one (which may be valid)
  if (m && gone && badInviteTok !== null && !signedOut) { location.reload(); return; }
  if (!m || gone) return;
  history.replaceState(null, "", location.pathname);
  if (m[1] === token || m[1] === trying) return;
  invite = m[1]; pendingName = true;
  if (ws && ws.readyState === 1) checkInvite();  // seated here or not: whether it holds a seat is said first
});
const $ = (id) => document.getElementById(id);
function names() { return S ? S.table.seats.map((s) => s.name) : []; }
// a join while the connection is (re)opening is not sent (WebSocket.send would throw): onopen sends the join in flight
function join(tok, name) { if (ws && ws.readyState === 1) ws.send(JSON.stringify(name ? { type: "join", token: tok, name } : { type: "join", token: tok })); }
// an invitation opened: does its token hold a seat? (a name is asked, or Keep or Switch offered, only then)
function checkInvite() { checking = invite; ws.send(JSON.stringify({ type: "invitation", token: invite })); }
function connect() {
  clearTimeout(reconnectTimer);
  if (gone || (ws && ws.readyState <= 1)) return;  // one connection at a time (an "online" event and the back-off)
  if (!offline) $("conn").textContent = t("connecting");
  ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws/" + TABLE);
  ws.onopen = () => {
    retry = 0; $("conn").textContent = "";
    // the connection dropped while a join with another token was in flight: it is sent again (else an invitation,
    // already gone from the address bar and not saved yet, would be lost and the page left watching)
    if (trying) { join(trying, tryingName); return; }
    if (invite && !token) { checkInvite(); return; }  // an invitation and no seat of our own here: take it if it holds one
    join(token);  // with a seat already ours here, an invitation for another is offered once we are seated
  };
  ws.onmessage = (ev) => {
    const m = JSON.parse(ev.data);
    if (m.type === "state") {
      if (trying && m.you !== null) { saveToken(TABLE, trying); token = trying; tokenErr = ""; }
      trying = null;
      S = m; S.got = Date.now(); freeNames(); sent = false; offline = false; $("conn").textContent = ""; $("error").textContent = ""; $("error").title = ""; render();
      // an invitation opened where we are seated (or watch) is offered only once the server said that its token holds a
      // seat: asked after the join's answer (a refusal of the join would read as the invitation's)
      if (invite && invite !== invited && checking === null && !trying && ws && ws.readyState === 1) checkInvite();
    } else if (m.type === "invitation") {
      if (checking !== null && checking === invite) inviteInfo = m;  // named above the name asked
      if (checking !== null && checking === invite) {
        checking = null; invited = invite;
        if (badInviteOpen()) closeDlg();  // a valid one after an invalid one: it is offered, the other's dialog goes
        if (token && S && S.you !== null) render(); else askName();  // seated here: Keep or Switch (render offers it)
      }
    } else if (m.type === "error") {
      sent = false; undone = null; queue = [];
      if (m.code === "wrong_token" && checking !== null) {
        // the invitation's token holds no seat here: said at once, before any name is asked
        const bad = checking; checking = null;
        if (bad === invite) { invite = null; pendingName = null; if (token) badInviteSeated(bad); else invalidInvite(bad); }
        return;
      }
      if (m.code === "wrong_token") {
        // a token of no seat here (a mistyped or made-up link): never saved; stay (or become) a spectator
        tokenErr = t("badToken"); $("tokerr").textContent = tokenErr;
        if (trying) { trying = null; if (!S) join(token); } else { token = null; join(null); }
        return;
      }
      if (m.code === "seat_claimed" && trying) {
        // the invitation's seat was taken by another join with its token (the first one wins): never saved; we watch
        tokenErr = t("err_seat_claimed", { name: JSON.stringify(tryingName || "") }); $("tokerr").textContent = tokenErr;
        trying = null; if (!S) join(token);
        return;
      }
      // the name given with an invitation refused (a control character, another seat's, a computer's, an account's): ask again, the
      // invitation kept
      const badName = trying && (m.code === "bad_message" || m.code === "name_taken" || m.code === "computer_name" || m.code === "free_seat_name" || m.code === "mixed_script_name" || m.code === "account_name");
      $("error").textContent = badName && LANG !== "en" ? t(m.code === "bad_message" ? "err_bad_name" : "err_" + m.code, { name: JSON.stringify(tryingName || "") }) : refusalText(m, m.code === "chat_flood" && STRINGS.en["chat_" + m.id] ? { phrase: t("chat_" + m.id) } : undefined);
      $("error").title = m.reason;
      if (badName) { invite = trying; trying = null; pendingName = true; askName(); }
      // English too in the page's words: the server's reason counts seats from 0, the page from 1
      if (badName && LANG === "en" && m.code === "name_taken") $("error").textContent = t("err_name_taken", { name: JSON.stringify(tryingName || "") });
    } else if (m.type === "chat") { showChat(m);
    } else if (m.type === "hint") { if (S && m.v === S.v) { hint = { v: m.v, action: m.action }; showHint(true); } }
  };
  ws.onclose = (ev) => {
    if (ev.code === 4401) { loggedOut(); return; }  // the session ended (logged out here or elsewhere): no retry as the account
    if (ev.code === 4404 || (ev.code >= 4400 && ev.code < 4500) || ev.code === 1008) { noTable(); return; }  // permanent: no retry
    reconnectTimer = setTimeout(connect, Math.min(5000, 300 * ++retry));
    goOffline();
  };
}
// the connection lost: said in the header and the status; no card, step or Hint offered, nobody shown online or to play
// (all stale) until the next state, which the reconnection brings
function goOffline() {
  $("conn").textContent = t("disconnected");
  if (!offline) { offline = true; if (S) render(); }
}
// the browser lost the network: its websocket may stay "open" for minutes without a word (no close event), so the page
// says so at once and drops it; back online, it connects again at once (not after the back-off) and is sent a fresh state
window.addEventListener("offline", () => {
  if (gone || !ws) return;
  const old = ws; ws = null; old.onopen = old.onmessage = old.onclose = null;
  try { old.close(); } catch (e) { /* already closing */ }
  goOffline();
  reconnectTimer = setTimeout(connect, 5000);  // in case no "online" event comes
});
window.addEventListener("online", () => { if (!gone && (!ws || ws.readyState > 1)) { retry = 0; connect(); } });
function noTable() {
  gone = true; $("conn").textContent = "";
  const main = document.querySelector("main");
  main.innerHTML = `<div class="panel" id="notable"><h2>${esc(t("noTable", { id: TABLE }))}</h2><p><a href="/">${esc(t("home"))}</a> · ` +
    `<a href="/history">${esc(t("history"))}</a></p></div>`;
  document.title = t("noTable", { id: TABLE });
}
function invalidInvite(tok) {
  // a mistyped, cut or made-up invitation link: nothing to join; home, or watch the table (no token)
  gone = true; badInviteTok = tok; $("conn").textContent = "";
  if (ws) { ws.onclose = null; ws.close(); }
  const main = document.querySelector("main");
  main.innerHTML = `<div class="panel" id="badinvite" role="alert"><h2>${esc(t("invalidInvite"))}</h2>` +
    `<p id="badinvite-text"></p><p><a href="/">${esc(t("home"))}</a> · <a href="/t/${esc(TABLE)}">${esc(t("watchTable"))}</a></p></div>`;
  $("badinvite-text").textContent = t("invalidInviteText", { token: tok, id: TABLE });  // as text: never read as markup
  document.title = t("invalidInvite");
}
// a wrong invitation opened where we already play: said first (no Keep or Switch: it holds no seat to switch to), in a
// dialog over the table we stay at
function badInviteSeated(tok) {
  $("dlg-body").innerHTML = `<div id="badinvite"><h2>${esc(t("invalidInvite"))}</h2><p id="badinvite-text"></p><p id="badinvite-kept"></p></div>`;
  $("badinvite").dataset.token = tok;  // written anew in the page's language after a switch (onLang)
  $("badinvite-text").textContent = t("invalidInviteText", { token: tok, id: TABLE });  // as text: never read as markup
  $("badinvite-kept").textContent = S && S.you !== null ? t("inviteKept", { name: names()[S.you] }) : "";
  const A = $("dlg-actions"); A.innerHTML = "";
  const ok = document.createElement("button"); ok.type = "button"; ok.id = "btn-badinvite-ok"; ok.textContent = t("close");
  ok.onclick = () => { $("dlg").close(); dlgKey = ""; if (S) render(); };
  A.appendChild(ok);
  dlgKey = "invite";  // renderDialog leaves it open until it is closed
  $("dlg").classList.remove("big");
  if (!$("dlg").open) $("dlg").show(); ok.focus();
}
// the token of the invalid invitation whose dialog over the table is open now, or null
function badInviteOpen() { const b = $("dlg").open && dlgKey === "invite" ? $("dlg-body").querySelector("#badinvite") : null; return b ? b.dataset.token : null; }
function loggedOut() {
  signedOut = true;
  gone = true; $("conn").textContent = "";
  const main = document.querySelector("main");
  main.innerHTML = `<div class="panel" id="loggedout" role="alert"><h2>${esc(t("loggedOut"))}</h2><p><a href="/account">${esc(t("logInAgain"))}</a> · ` +
    `<a href="/">${esc(t("home"))}</a></p></div>`;
  document.title = t("loggedOut");
}
function askName() {
  // an invited friend names himself once, before joining the seat
  $("dlg-body").innerHTML = inviteHead() + `<label>${esc(t("yourName"))} <input id="myname" maxlength="40"></label>`;
  $("myname").value = localStorage.getItem("sm-name") || "";  // as a property: a quote in the name would end an attribute
  const A = $("dlg-actions"); A.innerHTML = "";
  const b = document.createElement("button"); b.id = "btn-join"; b.textContent = t("join"); A.appendChild(b);
  const go = () => {
    const n = $("myname").value.trim(); if (n) localStorage.setItem("sm-name", n);
    pendingName = null; $("dlg").close(); dlgKey = "";
    trying = invite; tryingName = n; invite = null; join(trying, n);
  };
  b.onclick = go; $("myname").addEventListener("keydown", (e) => { if (e.key === "Enter") go(); });
  if (!$("dlg").open) $("dlg").show(); $("myname").focus();
}
// the invitation's table and seat, and who sits there already, above its name field ("" before the server said)
function inviteHead() {
  const i = inviteInfo, tb = i && i.table;
  if (!tb) return "";
  const seats = tb.seats, nm = shownNames(seats.map((s) => s.name), seats.map((s) => s.name_level));
  const who = (i.joined || []).map((k) => nm[k]).filter((n) => n !== undefined);
  return `<h2 id="invite-table">${esc(tableNameText(tb.name, seats[0] ? seats[0].name : null, tb.name_default))}</h2>` +
    `<p id="invite-who">${esc(t("inviteSeat", { n: i.seat + 1 }))}${who.length ? ". " + esc(t("inviteJoined", { names: who.join(", ") })) : ""}.</p>`;
}
function offerInvite() {
  // we already hold a seat here and opened an invitation for another: ask, never replace silently
  const mine = S.you !== null ? names()[S.you] : "?";
  $("dlg-body").innerHTML = `<p id="other-seat">${esc(t("otherSeat", { name: mine }))}</p>`;
  const A = $("dlg-actions"); A.innerHTML = "";
  const keep = document.createElement("button"); keep.id = "btn-keep"; keep.textContent = t("keepSeat");
  const sw = document.createElement("button"); sw.id = "btn-switch"; sw.textContent = t("playThis");
  keep.onclick = () => { invite = null; pendingName = null; $("dlg").close(); dlgKey = ""; render(); };
  sw.onclick = () => { trying = invite; tryingName = null; invite = null; pendingName = null; $("dlg").close(); dlgKey = ""; join(trying); };
  A.appendChild(keep); A.appendChild(sw);
  dlgKey = "invite";
  if (!$("dlg").open) $("dlg").show(); keep.focus();
}
function send(msg) {
  if (!S || sent || !ws || ws.readyState !== 1) return false;
  msg.v = S.v; sent = true; ws.send(JSON.stringify(msg));
  return true;
}
function act(a) { const x = Object.assign({}, a); delete x.seat; send({ type: "act", action: x }); }
function actionLabel(a) {
  const nm = names();
  const card = a.play || a.discard || a.give || a.return;
  if (card) return cardText(card) + (a.to !== undefined && nm[a.to] !== undefined ? " → " + nm[a.to] : "");
  if (a.contract) return contractText(a.contract);
  if (a.kitty) return t("take");
  if (a.end_give) return t("endGive");
  if (a.assign) return a.assign.map((x, i) => nm[i] + " " + x).join(", ");
  return JSON.stringify(a);
}
function fromKittyCount() { return document.querySelectorAll("#hand button.card.kitty").length; }
function cardOf(a) { return a.play || a.discard || a.give || a.return || null; }
// the header's title: the table's name, its rules, "practice" and the rated badge in the page's language (drawn by
// render, and by a language switch over the logged-out or no-table panel, which leaves the header standing)
function drawTitle() {
  // the rules' options each kept whole (9-5-2, instant-win=off: never broken at a hyphen); a long table name (up to 60
  // characters, maybe no space) is cut with an ellipsis, its full text in the tooltip
  // (on a phone the rules wrap between their options onto the title's next line; the name is cut only where it alone
  // is wider than the line: app.css)
  const rules = String(S.table.rules) + (S.table.practice ? " · " + t("practice") : ""), name = tableName();
  $("tname").innerHTML = `<span class="nw tn-name"><span class="cut" title="${esc(name)}">${esc(name)}</span> ·</span> ` +
    `<span class="tn-rules" title="${esc(rules)}">` + String(S.table.rules).split(" ").map((x) => `<span class="nw">${esc(x)}</span>`).join(" ") +
    (S.table.practice ? ` <span class="nw">· ${esc(t("practice"))}</span>` : "") + "</span> " + ratedBadge(S.table.rated);
}
// the table's name in the page's language when it is a default one ("Ann's table" made by an English page: "Tisch von Ann")
function tableName() { const s0 = S.table.seats[0]; return tableNameText(S.table.name, s0 ? (s0.served !== undefined ? s0.served : s0.name) : null, S.table.name_default); }
function render() {
  const v = S.view, nm = names(), you = S.you;
  drawTitle();
  document.title = tableName() + " · Sergeant Major";
  $("tokerr").textContent = tokenErr;
  // players around the table: you at the bottom, the others in playing order to the left, across, to the right
  const P = $("players"), n = S.table.seats.length, base = you === null ? 0 : you;
  P.className = "n" + n + (offline ? " offline" : "");  // offline: nobody's dot says online (app.css), nobody is to play
  P.querySelectorAll(".player").forEach((x) => x.remove());
  const center = $("center");
  S.table.seats.forEach((s, i) => {
    const d = document.createElement("div");
    const pos = seatPos(i);
    d.className = "player pos-" + pos + (v.to_act === i && !S.waiting_start && !S.over && !offline ? " to-act" : "") + (s.kind === "human" && !s.online ? " away" : "");
    d.dataset.seat = i;
    // offline: this seat is away (as the server sees it), the others' presence unknown (not said)
    const here = offline ? (i === you ? t("offline") : null) : s.online ? t("online") : t("offline");
    const role = [i === v.dealer ? t("dealer") : null, s.kind === "human" ? (s.free ? t("seatOpen") : s.left ? t("leftRole") : here) : kindText(s.kind),
      s.away ? t("standin") : null, i === you ? t("you") : null].filter(Boolean);
    const target = v.contract === "MT" ? t("atMost", { n: v.targets[i] }) : t("target") + " " + v.targets[i];
    const left = v.contracts_left && v.contracts_left[i] && v.contracts_left[i].length
      ? `<div class="cl" title="${esc(t("contractsLeft"))}">${esc(t("contractsLeft"))}: ${v.contracts_left[i].map((c) => `<span class="nw">${esc(contractShort(c))}</span>`).join(" ")}</div>` : "";
    const turn = d.classList.contains("to-act") ? `<span class="turn">${esc(i === you ? t("yourTurnShort") : t("toAct"))}</span>` : "";
    d.innerHTML = `<div class="av" aria-hidden="true" style="--hue:${(i * 97 + 200) % 360}">${esc(initial(s.name))}<i class="dot"></i></div>` +
      `<div class="pinfo"><div class="nm" title="${esc(s.name)}">${esc(s.name)}</div>${turn}<div class="role">${esc(role.join(" · "))}</div>` +
      // a line never starts with a separator: each "·" stays with the figure before it
      `<div class="st"><span class="nw">${esc(target)} ·</span> <span class="nw">${esc(t("tricks"))} <b class="tricks">${v.tricks_won[i]}</b> ·</span> ` +
      `<span class="nw">${esc(t("total"))} <b class="total">${signed(v.totals[i])}</b></span></div>${left}<div class="clk" aria-hidden="true"></div></div>`;
    P.insertBefore(d, center);
  });
  // the deal (of how many) and what the match plays to, in the terminal's words ("Deal 3 of 18", "to ±15")
  const to = playsToWords(S.table.length);
  $("contract").innerHTML = `<span class="nw" id="deal-words">${esc(dealWords(v.deal, S.table.length))}${to ? " · " + esc(to) : ""}</span>` +
    `<span class="sep"> · </span><span class="nw">${esc(t("contract"))}: <b id="contract-text">${esc(contractText(v.contract))}</b></span>`;
  renderPiles();
  renderTrick();
  // hand: the cards that may be played, discarded, given or returned now are marked and chosen right here
  const H = $("hand");
  // the card that had the keyboard focus (the hand is drawn anew on every state): focus comes back to it, or to the
  // nearest card that may be chosen, so that the arrow keys go on from there
  const had = H.contains(document.activeElement) ? document.activeElement : null;
  const hadCard = had ? had.dataset.card : null, hadIndex = had ? Array.from(H.querySelectorAll("button.card")).indexOf(had) : -1;
  H.innerHTML = "";
  const mine = v.to_act === you && !S.waiting_start && !S.over && !offline;
  const byCard = {}; if (mine) for (const a of v.legal) { const c = cardOf(a); if (c) byCard[c] = a; }
  const fromKitty = new Set(v.kitty && v.discards !== null ? v.kitty : []);
  // several cards to choose (discards; a give or return too): picked first, then confirmed in the step bar
  const k = pickCount();
  const multi = k > 0;
  const step = multi ? S.view.deal + ":" + (v.legal.find(cardOf) ? Object.keys(v.legal.find(cardOf))[0] : "") + ":" + k : "";
  if (step !== pickStep) { picked = []; pickStep = step; }
  picked = picked.filter((c) => byCard[c]);
  if (queue.length) {
    const next = queue.shift();
    if (byCard[next]) { act(byCard[next]); } else queue = [];
  }
  // the cards that may not be chosen are shaded only while a card is to be chosen (never while the dealer names trump)
  H.classList.toggle("choosing", Object.keys(byCard).length > 0);
  for (const c of v.hand) {
    const b = cardEl(c, "button"); b.type = "button";
    if (byCard[c]) {
      b.classList.add("legal"); b.onclick = () => choose(b, byCard[c]);
      if (multi) { b.setAttribute("aria-pressed", picked.includes(c) ? "true" : "false"); if (picked.includes(c)) b.classList.add("picked"); }
    } else { b.setAttribute("aria-disabled", "true"); }
    if (fromKitty.has(c)) { b.classList.add("kitty"); b.title = t("fromKitty"); b.setAttribute("aria-label", cardName(c) + " (" + t("fromKitty") + ")"); }
    if (c === raised) b.classList.add("raised");
    H.appendChild(b);
  }
  if (!byCard[raised]) raised = null;
  fitHand();
  const newTurn = turnKey !== S.v; turnKey = S.v;
  if (had) refocusHand(hadCard, hadIndex);
  else if (!undone && you !== null && !S.waiting_start && !S.over && v.hand.length && focusFree() &&
           ((newTurn && Object.keys(byCard).length) || !document.activeElement || document.activeElement === document.body || !document.activeElement.isConnected)) {
    // your turn to choose a card, or the focus fell to the page (Start pressed with Enter, its dialog gone): the
    // keyboard focus goes to the hand
    refocusHand(null, 0);
  } else if (undone && v.seat === you && mine) {
    // after Undo (the button had the focus; disabled now, it loses it): the focus goes to the card taken back, the one
    // to play again, so that keyboard play goes on; not when the focus was moved elsewhere meanwhile
    const at = document.activeElement;
    if (!at || at === document.body || at === $("btn-undo")) {
      const back = v.hand.find((c) => !undone.includes(c)) || null;
      refocusHand(back, 0);
    }
    undone = null;
  }
  // the exchange (the cards given and received, by player) and the declarer's own discards (the state carries them to
  // the declarer only; in sight from the first one on); by player
  const groups = [], ex = v.exchange.filter((e) => e.card && (e.giver === you || e.receiver === you));
  for (const [mineGave, key] of [[true, "gaveTo"], [false, "gotFrom"]]) {
    const by = new Map();
    for (const e of ex) if ((e.giver === you) === mineGave) { const o = mineGave ? e.receiver : e.giver; by.set(o, (by.get(o) || []).concat(e.card)); }
    for (const [o, cs] of by) groups.push([t(key, { name: nm[o] }), cs]);
  }
  if (v.discards && v.discards.length) groups.push([t("yourDiscards"), v.discards]);
  // a long name may wrap (between its words); the cards stay together, a separator after them
  $("exinfo").innerHTML = groups.map(([label, cs], k) => `${esc(label)}: <span class="nw">${esc(cs.map(cardText).join(" "))}${k < groups.length - 1 ? " ·" : ""}</span>`).join(" ");
  // status
  let st = "";
  if (S.over) st = t("over") + ": " + t("wins", { names: S.end.winners.map((w) => nm[w]).join(", ") });
  else if (S.waiting_start) st = v.deal === 1 ? t("waiting") : t("result", { n: v.deal - 1 });
  else if (v.to_act === you) st = t("yourTurn") + (v.legal.some((a) => a.play) ? " (" + t("legalHint") + ")" : "");
  else if (v.to_act !== null) st = t("waitingFor", { name: nm[v.to_act] });
  const iLeft = you !== null && S.table.seats[you].left;
  if (iLeft && !S.over) st = t("youLeft");
  if (offline && !S.over) st = t("disconnected");
  $("status").textContent = (you === null ? t("spectator") + " · " : "") + st;
  $("held").hidden = !(you !== null && S.table.seats[you].away && !iLeft && !S.over);
  // a practice table (you and computers) has nobody to chat with, and nothing to leave: its toolbar stays as it was
  $("btn-leave").hidden = you === null || iLeft || S.over || S.table.practice;
  if ($("btn-leave").hidden) $("leave-ask").hidden = true;
  $("btn-chat").hidden = you === null || S.table.practice;
  if ($("btn-chat").hidden) $("chatbar").hidden = true;
  tickClock();
  $("btn-hint").hidden = !(S.table.practice && you !== null);
  $("btn-undo").hidden = !(S.table.practice && you !== null);
  // only on your own turn: while the computers play on after your card the server holds the table, so an undo sent then
  // arrives on a state that has moved on and is refused (stale), and the click seemed to do nothing
  $("btn-undo").disabled = !S.can_undo || v.to_act !== you || S.waiting_start || S.over || offline;
  $("btn-hint").disabled = !(v.to_act === you && v.legal.length) || offline;  // offline: the question could not be sent
  $("phrases").querySelectorAll("button").forEach((b) => { b.disabled = offline; });  // a phrase could not be sent either
  renderSteps();
  showHint(false);
  if (invite && invite === invited && token && you !== null && !trying && dlgKey !== "invite") offerInvite();
  renderDialog();
  tickClock();
  // the dialog just closed (Start or Next deal pressed with Enter) took the focus with it: it goes to the hand
  const a = document.activeElement;
  const lost = !a || a === document.body || !a.isConnected || (a.closest("#dlg") !== null && !$("dlg").open);
  if (lost && you !== null && !S.waiting_start && !S.over && v.hand.length && !$("stepbar").contains(a)) {
    const st = $("stepbar").hidden ? null : $("step-actions").querySelector("button.step");
    if (st) st.focus({ preventScroll: true }); else refocusHand(null, 0);
  }
}
// where seat i sits, seen from this seat (a spectator sees seat 0 at the bottom): bottom, left, top, right
function seatPos(i) {
  const n = S.table.seats.length, rel = (i - (S.you === null ? 0 : S.you) + n) % n;
  if (rel === 0) return "bottom";
  if (n === 3) return rel === 1 ? "left" : "right";
  return ["bottom", "left", "top", "right"][rel] || "top";
}
function initial(name) { const m = String(name).trim().match(/\p{L}|\p{N}/u); return m ? m[0].toUpperCase() : "?"; }
// a contract in a narrow place (the contracts left, the score sheet): a suit's symbol, NT / MT (German KT / MS)
function contractShort(c) { return c.length === 1 ? SUIT_SYM[c] : t(c + "s"); }
const reducedMotion = () => window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
// face-down piles in the middle: the kitty while it lies there, the declarer's discards (their number is public: the
// cards that are in no hand, no trick and not in the kitty)
function renderPiles() {
  const v = S.view, X = $("piles"), nm = names(); X.innerHTML = "";
  if (v.kitty_count > 0) X.appendChild(backEl(v.kitty_count, t("kitty") + " · " + v.kitty_count));
  const inTricks = v.completed.reduce((k, tr) => k + tr.cards.length, 0) + v.trick.length;
  const out = 52 - v.hand_sizes.reduce((a, b) => a + b, 0) - v.kitty_count - inTricks;
  if (out > 0 && out < 52 && !S.waiting_start) X.appendChild(backEl(out, t("discards") + " · " + nm[v.declarer]));
}
// the trick in the middle: each card in front of the seat that played it, the leader's marked; a completed trick stays
// for the pause of the settings (at least a second) and then moves to its winner
function renderTrick() {
  const v = S.view, T = $("trick"), nm = names();
  const done = v.completed.length;
  if (shownDone.deal === v.deal && done > shownDone.n) {
    const lt = v.completed[done - 1];
    held = { cards: lt.cards, winner: lt.winner, until: Date.now() + Math.max(1000, settings().trickPause) };
    clearTimeout(heldTimer);
    heldTimer = setTimeout(endHold, held.until - Date.now());
  }
  shownDone = { deal: v.deal, n: done };
  let show;
  if (held) show = held;
  else if (v.trick.length) show = { cards: v.trick, winner: null };
  else if (S.waiting_start && S.prev && S.prev.last_trick) show = { cards: S.prev.last_trick.cards, winner: S.prev.last_trick.winner };
  else show = { cards: [], winner: null };
  T.className = ""; T.innerHTML = "";
  const seen = new Set();
  show.cards.forEach(([s, c], k) => {
    const d = document.createElement("div"); d.className = "slot pos-" + seatPos(s) + (k === 0 ? " lead" : "") + (show.winner === s ? " win" : "");
    d.dataset.seat = s;
    const el = cardEl(c);
    el.setAttribute("aria-label", cardName(c) + ", " + nm[s] + (k === 0 ? ", " + t("led") : "") + (show.winner === s ? ", " + t("won") : ""));
    d.appendChild(el);
    if (k === 0 || show.winner === s) {
      const tag = document.createElement("span"); tag.className = "tag"; tag.setAttribute("aria-hidden", "true");
      tag.textContent = show.winner === s ? "✓ " + t("wonShort") : t("led"); d.appendChild(tag);
    }
    if (!shownCards.has(c)) { d.classList.add("enter"); if (shownCards.size || k) cardSound(k); }
    seen.add(c); T.appendChild(d);
  });
  shownCards = seen;
}
function endHold() {
  if (!held) return;
  const T = $("trick"), w = held.winner;
  const finish = () => { held = null; if (S) { shownCards = new Set(); renderTrick(); shownCards = new Set(S.view.trick.map(([, c]) => c)); renderTrick(); } };
  if (reducedMotion() || S.waiting_start) { finish(); return; }
  T.classList.add("sweep", "to-" + seatPos(w));
  setTimeout(finish, 260);
}
// a legal card chosen: with a mouse or the keyboard it is played at once; on a touch screen the first tap raises it
// and the second plays it (one tap plays, a setting)
function choose(b, a) {
  const touch = lastPointer === "touch"; lastPointer = "";
  if (a.discard || a.give || a.return) {
    const c = b.dataset.card, k = pickCount();
    if (picked.includes(c)) picked = picked.filter((x) => x !== c);
    else { picked.push(c); if (picked.length > k) picked.shift(); }
    document.querySelectorAll("#hand button.legal").forEach((x) => {
      const on = picked.includes(x.dataset.card); x.classList.toggle("picked", on); x.setAttribute("aria-pressed", on ? "true" : "false");
    });
    renderSteps();
    return;
  }
  if (touch && !settings().oneTap && raised !== b.dataset.card) {
    raised = b.dataset.card;
    document.querySelectorAll("#hand .raised").forEach((x) => x.classList.remove("raised"));
    b.classList.add("raised");
    return;
  }
  raised = null;
  act(a);
}
// how many cards are to be chosen together now: the discards still to make, one card to give or return; 0 else
function pickCount() {
  const v = S.view;
  if (v.to_act !== S.you || S.waiting_start || S.over || S.you === null || offline) return 0;
  const a = v.legal.find((x) => x.discard || x.give || x.return);
  if (!a) return 0;
  if (a.discard) { const n = v.kitty ? v.kitty.length : v.kitty_count; return Math.max(1, n - (v.discards ? v.discards.length : 0)); }
  return 1;
}
function confirmPicked() {
  if (!picked.length || !S) return;
  queue = picked.slice(); picked = [];
  const v = S.view, first = queue.shift();
  const a = v.legal.find((x) => cardOf(x) === first);
  if (a) act(a); else queue = [];
}
// the hand as an overlapping fan as wide as its place: the step between two cards shrinks with the number of cards
// the narrowest strip of a card in sight that a finger taps surely (px): a hand whose fan would show less (16 cards on a
// phone showed 20 px each) is laid out in two rows, the second over the lower part of the first, below its indices
const MIN_STRIP = 32;
function fitHand() {
  const H = $("hand"), cards = Array.from(H.querySelectorAll(".card")), n = cards.length;
  H.querySelectorAll(".row-break").forEach((x) => x.remove());
  if (!n) return;
  const cw = parseFloat(getComputedStyle(H).getPropertyValue("--cw")) || 60, W = H.clientWidth;
  const strip = (k) => (k > 1 ? Math.min(cw + 4, (W - cw - 2) / (k - 1)) : cw);
  const two = n > 1 && strip(n) < MIN_STRIP, perRow = two ? Math.ceil(n / 2) : n;
  H.classList.toggle("two-rows", two);
  cards.forEach((c, i) => { c.classList.toggle("row-end", two && i === perRow - 1); c.classList.toggle("row2", two && i >= perRow); });
  if (two) { const br = document.createElement("span"); br.className = "row-break"; br.setAttribute("aria-hidden", "true"); cards[perRow - 1].after(br); }
  H.style.setProperty("--step", Math.floor(strip(perRow)) + "px");
}
// the focus may be moved to the hand: nobody is typing or reading a dialog
function focusFree() {
  const a = document.activeElement;
  if (!a || a === document.body || !a.isConnected || $("hand").contains(a)) return true;
  return a.closest("#dlg") !== null && !$("dlg").open;
}
// optional card sounds (off by default): a short soft tone made by WebAudio, no sound file
let audio = null;
function cardSound(k) {
  if (!settings().sound) return;
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    const o = audio.createOscillator(), g = audio.createGain(), t0 = audio.currentTime;
    o.type = "triangle"; o.frequency.value = 520 + 40 * (k || 0);
    g.gain.setValueAtTime(0.0001, t0); g.gain.exponentialRampToValueAtTime(0.12, t0 + 0.01); g.gain.exponentialRampToValueAtTime(0.0001, t0 + 0.12);
    o.connect(g); g.connect(audio.destination); o.start(t0); o.stop(t0 + 0.13);
  } catch (e) { /* no audio: silent */ }
}
function openSettings() {
  const o = settings();
  const pauses = [1000, 1200, 1800, 2500];
  info(`<h2>${esc(t("settings"))}</h2><div class="settings">` +
    `<label><input type="checkbox" id="set-four"${o.fourColour ? " checked" : ""}> ${esc(t("fourColour"))}</label>` +
    `<label><input type="checkbox" id="set-onetap"${o.oneTap ? " checked" : ""}> ${esc(t("oneTap"))}</label>` +
    `<label><input type="checkbox" id="set-sound"${o.sound ? " checked" : ""}> ${esc(t("sound"))}</label>` +
    `<label>${esc(t("trickPause"))} <select id="set-pause">${pauses.map((p) => `<option value="${p}"${p === o.trickPause ? " selected" : ""}>${(p / 1000).toLocaleString(LANG)} s</option>`).join("")}</select></label></div>`);
  const upd = () => saveSettings({ fourColour: $("set-four").checked, oneTap: $("set-onetap").checked, sound: $("set-sound").checked, trickPause: parseInt($("set-pause").value, 10) });
  ["set-four", "set-onetap", "set-sound", "set-pause"].forEach((id) => $(id).addEventListener("change", upd));
}
function refocusHand(card, index) {
  const all = Array.from(document.querySelectorAll("#hand button.card"));
  if (!all.length) return;
  const legal = all.filter((b) => b.classList.contains("legal"));
  const same = all.find((b) => b.dataset.card === card);
  let f = same && (same.classList.contains("legal") || !legal.length) ? same : null;
  if (!f) {
    const list = legal.length ? legal : all;  // the nearest to where the focus was
    f = list.reduce((best, b) => (Math.abs(all.indexOf(b) - index) < Math.abs(all.indexOf(best) - index) ? b : best), list[0]);
  }
  f.focus({ preventScroll: true });
}
// decisions other than playing a card are shown in a bar just above the hand (never over it); cards to
// discard, give or return are chosen in the hand itself
function renderSteps() {
  const v = S.view, you = S.you, nm = names(), bar = $("stepbar");
  const steps = S.waiting_start || S.over || v.to_act !== you || offline ? [] : v.legal.filter((a) => !a.play);
  if (!steps.length) { bar.hidden = true; stepKey = ""; return; }
  const a0 = steps[0]; let title = "";
  // 3-5-8 offers no-trump and minimum tricks too: those are no trump named
  if (a0.contract) title = t(steps.every((a) => a.contract && a.contract.length === 1) ? "nameTrump" : "nameContract");
  else if (a0.kitty) title = t("takeKitty");
  else if (a0.discard) {
    // as many as the kitty holds: taken (v.kitty) or, discarding before taking it (8-5-3), still face down
    const n = v.kitty ? v.kitty.length : v.kitty_count, k = n - (v.discards ? v.discards.length : 0);
    title = n ? t(k < n ? "discardN" : "discardAll", { n, k }) : t("discard");  // "(4 left)" only once some are gone
  } else if (a0.give || a0.end_give) title = t("give", { name: nm[a0.to] });
  else if (a0.return) title = t("ret", { name: nm[a0.to] });
  else if (a0.assign) title = t("assign");
  const cardSteps = steps.some(cardOf);
  $("step-title").textContent = title + (cardSteps ? " · " + t("chooseInHand") : "");
  const X = $("step-extra"); X.innerHTML = "";
  if (v.kitty && !a0.discard) { X.textContent = t("kitty") + ": "; v.kitty.forEach((c) => X.appendChild(cardEl(c))); }
  if (a0.discard && fromKittyCount() > 0) {
    const l = document.createElement("span"); l.className = "legend"; l.innerHTML = `<i class="kbar" aria-hidden="true"></i> ${esc(t("fromKitty"))}`; X.appendChild(l);
  }
  const A = $("step-actions"); A.innerHTML = "";
  const k = pickCount();
  if (k) {
    // all chosen: nothing more to choose in the hand, Confirm is what is left to do
    const all = picked.length >= k;
    if (all) $("step-title").textContent = title;
    $("step-title").textContent += " · " + t(all ? (a0.discard ? "selectedDiscard" : "selectedAll") : "selected", { k: picked.length, n: k });
    const b = document.createElement("button"); b.type = "button"; b.id = "btn-confirm"; b.className = "confirm";
    b.textContent = t("confirm") + (picked.length ? ": " + picked.map(cardText).join(" ") : "");
    b.disabled = !picked.length; b.onclick = confirmPicked; A.appendChild(b);
  }
  for (const a of steps) {
    if (cardOf(a)) continue;
    const b = document.createElement("button"); b.type = "button"; b.className = "step";
    b.textContent = actionLabel(a); b.dataset.action = JSON.stringify(a); b.onclick = () => act(a); A.appendChild(b);
  }
  bar.hidden = false;
  if (stepKey !== String(S.v)) {
    stepKey = String(S.v);
    // a player choosing cards in the hand with the keys keeps the focus there (refocusHand)
    const inHand = cardSteps && $("hand").contains(document.activeElement);
    const f = inHand ? null : A.querySelector("button.step") || document.querySelector("#hand button.legal");
    if (f) f.focus({ preventScroll: true });
    $("handpanel").scrollIntoView({ block: "nearest" });
  }
}
function openDlg(key, html, buttons) {
  const d = $("dlg"), k = key + ":" + S.v;
  if (dismissed === k || (dlgKey === k && d.open)) return;
  dlgKey = k;
  $("dlg-body").innerHTML = html;
  const A = $("dlg-actions"); A.innerHTML = "";
  for (const [label, fn, attrs] of buttons) {
    const b = document.createElement("button"); b.type = "button";
    if (label instanceof Node) b.appendChild(label); else b.textContent = label;
    if (attrs) for (const a in attrs) b.setAttribute(a, attrs[a]);
    b.onclick = fn; A.appendChild(b);
  }
  // the end of the match (no hand left to keep in sight, a long score sheet): the felt grows to hold it (app.css)
  d.classList.toggle("big", key === "over");
  if (!d.open) d.show();
  const f = A.querySelector("button"); if (f) f.focus();
}
function closeDlg() { const d = $("dlg"); if (d.open) d.close(); dlgKey = ""; }
function dismiss() { dismissed = dlgKey; closeDlg(); }
// a deal's score or a running total as the terminal shows it (tui.signed): with its sign, "+4", "-2", and "0" without one
function signed(x) { return x > 0 ? "+" + x : String(x); }
// a deal's result (S.prev) as the terminal's deal summary: target, tricks, the deal's score and the running total after
// it (the seats showing the totals lie under the dialog)
function resultTable(p) {
  const nm = names(), r = p.result, tot = nm.map(() => 0);
  S.view.results.slice(0, p.number).forEach((x) => x.scores.forEach((y, i) => { tot[i] += y; }));
  return `<table class="sheet result"><tr><th></th><th>${esc(t("target"))}</th><th>${esc(t("tricks"))}</th><th>+/-</th><th>${esc(t("total"))}</th></tr>` +
    nm.map((n, i) => `<tr>${nameTh(n)}<td>${r.targets[i]}</td><td>${r.tricks[i]}</td><td>${signed(r.scores[i])}</td><td class="total">${signed(tot[i])}</td></tr>`).join("") + "</table>";
}
// a player's name heading a row or column of a score table: each word kept whole (app.css cuts one too wide with an
// ellipsis), the full name in the tooltip
function nameTh(n) {
  return `<th class="pn" title="${esc(n)}">` + String(n).split(" ").map((w) => `<span class="nw">${esc(w)}</span>`).join(" ") + "</th>";
}
function renderDialog() {
  const v = S.view, you = S.you, nm = names();
  if (pendingName || dlgKey === "invite") return;
  if (S.over) {
    const html = `<h2 id="end-title">${esc(t("over"))}</h2><p id="winner">${esc(t("wins", { names: S.end.winners.map((w) => nm[w]).join(", ") }))}</p>` +
      // the last deal's result under a heading of its own (it read as a second, unexplained score sheet), then every deal's
      `<p id="end-reason">${esc(endReason(S.end, nm))}</p>` + (S.prev ? `<h3 id="last-result">${esc(t("result", { n: S.prev.number }))}</h3>` + resultTable(S.prev) : "") +
      `<h3>${esc(t("scores"))}</h3>` + scoreSheet();
    openDlg("over", html, [[t("replay"), () => { location.href = "/replay/" + TABLE; }, { id: "btn-replay" }],
      [t("download"), () => { location.href = "/api/tables/" + TABLE + "/record"; }], [t("close"), dismiss, { id: "btn-close" }]]);
    return;
  }
  if (S.waiting_start) {
    const closeBtn = [t("close"), dismiss, { id: "btn-close" }];  // a spectator has nothing to press but may look at the table
    if (v.deal === 1) {
      // deal 1 waits until every person's seat is taken (the server refuses a start before: empty_seat)
      // (a lobby table's: its free seats only; a seated player gone is stood in for after the table's timeout)
      const empty = S.table.seats.filter((s) => s.kind === "human" && !s.online && (!S.table.public || s.free));
      // a free seat is said once: "Free seat 3" in the list (its name says it), and counted below, not named again
      const absent = empty.filter((s) => !s.free).map((s) => s.name), free = empty.length - absent.length;
      const waitText = (absent.length ? t("waitSeats", { names: absent.join(", ") }) + (free ? " " : "") : "") +
        (free ? t(absent.length ? (free === 1 ? "stillFreeOne" : "stillFree") : (free === 1 ? "waitFreeOne" : "waitFree"), { n: free }) : "");
      const html = `<h2>${esc(t("waiting"))}</h2><ul id="seatlist">` + S.table.seats.map((s) => `<li>${esc(s.name)}${s.free ? "" : ": " + esc(s.kind === "human" ? (s.left ? t("leftRole") : s.online ? t("online") : t("offline")) : kindText(s.kind))}</li>`).join("") + "</ul>" +
        (empty.length ? `<p id="start-wait">${esc(waitText)}</p>` : "") +
        (S.table.fill_in !== null && S.table.fill_in !== undefined ? `<p id="fill-in"></p>` : "");
      const startAttrs = empty.length ? { id: "btn-start", disabled: "", "aria-describedby": "start-wait" } : { id: "btn-start" };
      openDlg("start" + S.table.seats.map((s) => s.name + s.online).join(), html, you !== null ? [[t("start"), () => send({ type: "start" }), startAttrs]] : [closeBtn]);
    } else {
      openDlg("next", resultHtml(), you !== null ? [[t("nextDeal"), () => send({ type: "start" }), { id: "btn-next" }]] : [closeBtn]);
    }
    // offline: Start and Next deal could not be sent (the dialog stays open as it was: enabled again on reconnecting)
    const start = $("btn-start"), next = $("btn-next");
    if (start) start.disabled = offline || start.hasAttribute("aria-describedby");  // described: waiting for seats
    if (next) next.disabled = offline;
    return;
  }
  // a deal under way (started by this player or another): the previous result closes at once, the felt is needed;
  // it stays in the score sheet (and in My games)
  if ($("dlg").open) closeDlg();
}
// the previous deal's result (S.prev, the deal just finished or, once the next one started, the one before it)
function resultHtml() {
  return `<h2>${esc(t("result", { n: S.prev ? S.prev.number : S.view.deal - 1 }))}</h2>` + (S.prev ? resultTable(S.prev) : "");
}
function scoreSheet() {
  const v = S.view, nm = names();
  // a caption says how to read a cell ("4/5: -1 = -1" alone read as a riddle)
  let h = `<table class="sheet" id="sheet"><caption class="sheet-key">${esc(t("sheetKey"))}</caption><tr><th>${esc(t("deal"))}</th>` + nm.map(nameTh).join("") + "</tr>";
  const tot = nm.map(() => 0);
  v.results.forEach((r, k) => { r.scores.forEach((x, i) => { tot[i] += x; });
    h += `<tr><td title="${esc(contractText(r.contract))}">${k + 1} ${esc(contractShort(r.contract))}</td>` + r.scores.map((x, i) => `<td>${r.tricks[i]}/${r.targets[i]}: ${signed(x)} = ${signed(tot[i])}</td>`).join("") + "</tr>"; });
  // the total row labelled Σ (a narrow first column: the players' columns get the room), its word for screen readers
  return h + `<tr><th title="${esc(t("total"))}"><span aria-hidden="true">Σ</span><span class="ct">${esc(t("total"))}</span></th>` + v.totals.map((x) => `<th>${signed(x)}</th>`).join("") + "</tr></table>";
}
function info(html) { $("info-body").innerHTML = html; if (!$("info").open) $("info").showModal(); $("info-close").focus(); }
// the hint of this state (in the page's language), gone once the turn passed (a new state: a card played, an undo);
// with focus, the card (or the step's button) it names gets the keyboard focus
function showHint(focus) {
  if (hint && (!S || hint.v !== S.v)) hint = null;
  const text = hint ? t("hintIs", { a: actionLabel(hint.action) }) : "";
  if ($("hint").textContent !== text) $("hint").textContent = text;
  // the card or button named is marked too (a focus ring shows only after a key press, not after a click)
  document.querySelectorAll(".hinted").forEach((x) => x.classList.remove("hinted"));
  if (!hint) return;
  const a = hint.action, c = cardOf(a), want = JSON.stringify(a);
  const b = c ? document.querySelector(`#hand [data-card="${c}"]`)
    : Array.from(document.querySelectorAll("#step-actions button.step")).find((x) => x.dataset.action === want);
  if (!b) return;
  b.classList.add("hinted");
  if (focus) b.focus();
}
$("info-close").onclick = () => $("info").close();
$("btn-settings").onclick = openSettings;
$("hand").addEventListener("pointerdown", (e) => { lastPointer = e.pointerType; });
window.addEventListener("resize", () => { if (S) fitHand(); });
$("btn-scores").onclick = () => S && info(`<h2>${esc(t("scores"))}</h2>` + scoreSheet());
$("btn-last").onclick = () => {
  if (!S) return; const v = S.view; let lt = v.completed.length ? v.completed[v.completed.length - 1] : (S.prev ? S.prev.last_trick : null);
  const d = document.createElement("div"); d.id = "last-trick";
  // a long name is cut with an ellipsis (its full text in the tooltip), the winner's ✓ kept in sight
  if (lt) lt.cards.forEach(([s, c]) => { const p = document.createElement("span"); p.className = "played"; p.appendChild(cardEl(c));
    const l = document.createElement("span"), w = document.createElement("span"); l.className = "plabel"; w.className = "pname"; w.textContent = names()[s]; w.title = names()[s];
    l.appendChild(w); if (s === lt.winner) l.appendChild(document.createTextNode(" ✓")); p.appendChild(l); d.appendChild(p); });
  info(`<h2>${esc(t("lastTrick"))}</h2>` + d.outerHTML);
};
$("btn-hint").onclick = () => { if (ws && ws.readyState === 1) ws.send(JSON.stringify({ type: "hint" })); };
$("btn-undo").onclick = () => { const hand = S ? S.view.hand.slice() : null; if (send({ type: "undo" })) undone = hand; };
// keyboard: arrows move between the cards of the hand; Enter/Space plays (discards, gives) the focused card
document.addEventListener("keydown", (ev) => {
  if ($("info").open || ($("dlg").open && $("dlg").contains(document.activeElement))) return;
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
// a language switch writes everything anew: an open dialog too, a dialog closed stays closed
window.onSettings = () => { if (S && !gone) render(); };
window.onLang = () => {
  if (gone) {  // the table's elements are gone: the panel, and the header's title if a table was shown
    if (S) drawTitle();
    if (signedOut) loggedOut(); else if (badInviteTok !== null) invalidInvite(badInviteTok); else noTable();
    return;
  }
  renderPhrases();
  $("chatlog").querySelectorAll("li").forEach((li) => { li.lastChild.textContent = t("chat_" + li.dataset.phrase); });
  if (!S) return;
  freeNames();
  const bad = badInviteOpen();  // an invalid invitation's dialog stays open, in the new language
  dlgKey = bad !== null ? "invite" : ""; stepKey = "";
  render();
  if (bad !== null) badInviteSeated(bad);
};
// a lobby table's seat nobody took yet, and a computer under the server's name ("Heuristic 3"), named in the page's language
function freeNames() {
  const seats = S.table.seats;
  seats.forEach((s) => { if (s.served === undefined) s.served = s.name; });  // as the server sent it (a language switch starts anew)
  const shown = shownNames(seats.map((s) => s.served), seats.map((s) => s.name_level));
  seats.forEach((s, i) => { s.name = s.free ? t("freeSeatN", { n: i + 1 }) : shown[i]; });
}
// ---- the turn clock: the seconds left, counted down here from the state's "left" (the server takes the timeout)
function tickClock() {
  const f = $("fill-in");
  if (f && S.table.fill_in !== null) f.textContent = t("fillSeats", { s: Math.max(0, Math.ceil(S.table.fill_in - (Date.now() - S.got) / 1000)) });
  const c = S && S.clock, el = $("clock");
  document.querySelectorAll("#players .clk").forEach((x) => { x.textContent = ""; });
  if (!c || c.seat === null || c.left === null || S.over || S.waiting_start) { el.textContent = ""; return; }
  const s = Math.max(0, Math.ceil(c.left - (Date.now() - S.got) / 1000));
  el.textContent = c.seat === S.you ? t("yourTime", { s }) : t("timeLeft", { name: names()[c.seat], s });
  el.classList.toggle("low", s <= 5);
  const badge = document.querySelector(`#players .player[data-seat="${c.seat}"] .clk`);
  if (badge) badge.textContent = t("clockBadge", { s });
}
setInterval(() => { if (S && !gone) tickClock(); }, 250);
// ---- the quick chat: phrases by id, written in the page's language; muting is kept in this browser
function chatMuted() { return localStorage.getItem("sm-chat-muted") === "1"; }
function showChat(m) {
  if (chatMuted() || !STRINGS.en["chat_" + m.id]) return;
  const li = document.createElement("li");
  const seats = S ? S.table.seats.map((s) => s.served) : [];  // a default name ("Me") as the seat shows it ("Ich")
  const who = document.createElement("b"); who.textContent = guestName(defaultSeatName(m.name, seats)) + ": ";
  li.appendChild(who); li.appendChild(document.createTextNode(t("chat_" + m.id)));
  li.dataset.phrase = m.id;
  const log = $("chatlog"); log.appendChild(li);
  while (log.children.length > 4) log.removeChild(log.firstChild);
}
function renderPhrases() {
  const P = $("phrases"); P.innerHTML = "";
  for (const id of ["hello", "good_luck", "well_played", "thanks", "oops", "sorry", "nice_trick", "one_moment", "good_game", "bye"]) {
    const b = document.createElement("button"); b.type = "button"; b.className = "phrase"; b.dataset.phrase = id; b.textContent = t("chat_" + id);
    b.onclick = () => { if (ws && ws.readyState === 1) ws.send(JSON.stringify({ type: "chat", id })); };
    P.appendChild(b);
  }
  $("chat-mute").checked = chatMuted();
}
document.addEventListener("DOMContentLoaded", () => {
  renderPhrases();
  $("btn-chat").onclick = () => { const bar = $("chatbar"); bar.hidden = !bar.hidden; $("btn-chat").setAttribute("aria-expanded", String(!bar.hidden)); };
  $("chat-mute").onchange = () => { localStorage.setItem("sm-chat-muted", $("chat-mute").checked ? "1" : "0"); if ($("chat-mute").checked) $("chatlog").innerHTML = ""; };
  $("btn-back").onclick = () => { if (ws && ws.readyState === 1) ws.send(JSON.stringify({ type: "back" })); };
  $("btn-leave").onclick = () => { $("leave-ask").hidden = false; $("btn-stay").focus(); };
  $("btn-stay").onclick = () => { $("leave-ask").hidden = true; };
  $("btn-leave-yes").onclick = () => { $("leave-ask").hidden = true; sent = false; send({ type: "leave" }); };
});
document.addEventListener("DOMContentLoaded", connect);
