"use strict";
// The lobby: the waiting public tables pushed over /ws/lobby (no polling); quick play, open, join by POST.
const $ = (id) => document.getElementById(id);
let L = null, ws = null, retry = 0, skew = 0, busy = false, loggedOut = false;
let ready = Promise.resolve();  // the account and the options asked for at start: a click before them waits for them
const WAITS = [0, 10, 30, 60, 120];
let CLOCKS = [[0, 0], [10, 30], [20, 60], [30, 120], [60, 300]], LEVELS = ["heuristic"];
function secs(s) { return s >= 60 && s % 60 === 0 ? t("minutes", { n: s / 60 }) : t("seconds", { n: s }); }
function clockText(c) { return !c || !c[0] ? t("clockOff") : t("clockIs", { turn: secs(c[0]), reserve: secs(c[1]) }); }
function fillForm() {
  const keep = { c: $("lclock").value, l: $("llevel").value, w: $("lwait").value };
  $("lclock").innerHTML = CLOCKS.map((c) => `<option value="${c[0]}+${c[1]}">${esc(clockText(c))}</option>`).join("");
  $("llevel").innerHTML = LEVELS.map((l) => `<option value="${esc(l)}">${esc(kindText(l))}</option>`).join("");
  $("lwait").innerHTML = WAITS.map((w) => `<option value="${w}">${esc(w ? secs(w) : t("atOnce"))}</option>`).join("");
  $("lclock").value = keep.c || "20+60"; $("llevel").value = keep.l || "heuristic"; $("lwait").value = keep.w || "30";
  if (!$("lclock").value) $("lclock").value = "0+0";
  if (!$("llevel").value) $("llevel").value = LEVELS[0];
  if (!$("lwait").value) $("lwait").value = "30";
}
function form(kind, table) {
  const [turn, reserve] = $("lclock").value.split("+").map(Number);
  const name = $("lname").value.trim();
  const body = { name, clock_turn: turn, clock_reserve: reserve, level: $("llevel").value, wait: Number($("lwait").value) };
  if (kind !== "join") body.rules = ($("lpreset").value + " " + $("lopts").value.trim()).trim();
  // a table opened here gets the server's default name ("Ann's table"), which each page writes in its language
  if (kind === "join") body.table = table;
  return body;
}
async function post(kind, table) {
  if (busy) return;
  busy = true;
  try { await ready; } finally { busy = false; }
  $("error").textContent = ""; $("error").title = ""; delete $("error").dataset.unreachable;
  if (!$("lname").value.trim()) { $("error").textContent = t("needName"); $("lname").focus(); return; }
  localStorage.setItem("sm-name", $("lname").value.trim());
  busy = true;
  try {
    const body = form(kind, table);
    const r = await fetch("/api/lobby/" + kind, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const o = await r.json();
    if (!r.ok) {
      // English: the server's own words, which quote the bad input (rules: the option and its value); else the page's
      const k = "err_lobby_" + o.code;
      $("error").textContent = STRINGS[LANG][k] ? t(k, { name: $("lname").value.trim(), rules: body.rules, reason: String(o.error || "").replace(/; nothing was changed$/, "") }) : (LANG === "en" ? o.error : t("err_lobby_other"));
      $("error").title = o.error || "";
      return;
    }
    saveToken(o.id, o.token);
    location.href = o.url;
  } catch (e) {
    $("error").textContent = t("err_create_unreachable"); $("error").dataset.unreachable = "1";
  } finally { busy = false; }
}
// a seated account's rating (mu), with its interval and matches in the title and a tag while provisional (first 10 matches)
function seatRating(r) {
  if (r === null || r === undefined || typeof r !== "object") return "";
  const f = (v) => (Math.round(Number(v) * 10) / 10).toLocaleString(LANG, { maximumFractionDigits: 1 }), x = f(r.rating);
  return ` <span class="rating" title="${esc(t("seatRating", { r: x + " ± " + f(r.interval), n: r.matches }))}">${esc(x)}</span>` +
    (r.provisional ? ` <span class="tag">${esc(t("seatProvisional"))}</span>` : "");
}
function render() {
  if (!L) return;
  const U = $("tables"); U.innerHTML = "";
  $("none").hidden = L.tables.length > 0;
  const now = Date.now() / 1000 + skew;
  for (const tb of L.tables) {
    const li = document.createElement("li"); li.className = "ltable"; li.dataset.table = tb.id;
    const seats = tb.seats.map((s) => s.free ? `<span class="lseat free">${esc(t("freeSeat"))}</span>`
      : `<span class="lseat"><span class="lname" title="${esc(guestName(s.name))}">${esc(guestName(s.name))}</span>${seatRating(s.rating)}</span>`).join(" ");
    const fill = tb.fill_at ? Math.max(0, Math.round(tb.fill_at - now)) : null;
    const rules = String(tb.rules).split(" ").map((x) => `<span class="nw">${esc(x)}</span>`).join(" ");
    // the name and the rules each on a line of their own: no line starts with a separator
    const tname = tableNameText(tb.name, tb.seats.length && !tb.seats[0].free ? tb.seats[0].name : null, tb.name_default);
    li.innerHTML = `<div class="lhead"><b class="ltname" title="${esc(tname)}">${esc(tname)}</b></div><div class="lrules">${rules}</div>` +
      `<div class="lmeta"><span class="nw">${esc(t(tb.rated ? "rated" : "unrated"))}</span> · <span class="nw">${esc(clockText(tb.clock))}</span> · <span class="nw">${esc(t("freeSeats", { n: tb.free }))}</span>` +
      (fill !== null ? ` · <span class="nw fill" data-at="${tb.fill_at}">${esc(t("fillIn", { level: kindText(tb.level || "heuristic"), s: fill }))}</span>` : "") + `</div>` +
      `<div class="lseats">${seats}</div>`;
    const b = document.createElement("button"); b.type = "button"; b.className = "join"; b.textContent = t("joinTable");
    b.setAttribute("aria-label", t("joinTable") + ": " + tname);
    b.onclick = () => post("join", tb.id);
    li.appendChild(b);
    U.appendChild(li);
  }
}
// the countdowns to the computers' arrival, once a second (the list itself only changes when the server says so)
setInterval(() => {
  const now = Date.now() / 1000 + skew;
  document.querySelectorAll(".fill[data-at]").forEach((el) => {
    const li = el.closest(".ltable"); const tb = L && L.tables.find((x) => x.id === li.dataset.table);
    if (tb) el.textContent = t("fillIn", { level: kindText(tb.level || "heuristic"), s: Math.max(0, Math.round(tb.fill_at - now)) });
  });
}, 1000);
let reconnectTimer = 0;
function connect() {
  clearTimeout(reconnectTimer);
  if (ws && ws.readyState <= 1) return;  // one connection at a time (an "online" event and the back-off)
  $("conn").textContent = t("connecting");
  ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws/lobby");
  ws.onopen = () => {
    retry = 0; $("conn").textContent = loggedOut ? t("loggedOut") : "";
    // the server is reached again: "cannot be reached" no longer holds (a refusal of the server's stays)
    if ($("error").dataset.unreachable) { $("error").textContent = ""; $("error").title = ""; delete $("error").dataset.unreachable; }
  };
  ws.onmessage = (ev) => {
    const m = JSON.parse(ev.data);
    if (m.type === "lobby") { L = m; skew = m.now - Date.now() / 1000; render(); }
  };
  ws.onclose = (ev) => {
    // the session ended (logged out here or elsewhere): said, the name free again; the lobby itself is shown to guests too
    if (ev.code === 4401) { loggedOut = true; fixName(false); $("conn").textContent = t("loggedOut"); reconnectTimer = setTimeout(connect, 1000); return; }
    $("conn").textContent = t("disconnected"); reconnectTimer = setTimeout(connect, Math.min(5000, 300 * ++retry));
  };
}
// the browser lost the network: its websocket may stay "open" without a word, so the list is said to be stale at once;
// back online, the lobby connects again at once and is sent the list anew
window.addEventListener("offline", () => {
  if (!ws) return;
  const old = ws; ws = null; old.onopen = old.onmessage = old.onclose = null;
  try { old.close(); } catch (e) { /* already closing */ }
  $("conn").textContent = t("disconnected");
  reconnectTimer = setTimeout(connect, 5000);  // in case no "online" event comes
});
window.addEventListener("online", () => { if (!ws || ws.readyState > 1) { retry = 0; connect(); } });
// the seat's name fixed (logged in: the account's) or typed: a fixed one reads as text, said to be the account's
function fixName(fixed) { $("lname").readOnly = fixed; $("lname-note").hidden = !fixed; }
function init() {
  $("lname").value = localStorage.getItem("sm-name") || "";
  // the buttons work at once: a click while the page still asks for the account and options waits for them
  $("lobby-form").addEventListener("submit", (ev) => { ev.preventDefault(); post("quick"); });
  $("btn-open").addEventListener("click", () => post("open"));
  ready = start();
}
async function start() {
  try {  // logged in: the seat is the account's, under its name (the server uses it whatever is typed)
    const acc = await (await fetch("/api/account")).json();
    if (acc.name) { $("lname").value = acc.name; fixName(true); }
  } catch (e) { /* a guest */ }
  try {
    const o = await (await fetch("/api/options")).json();
    LEVELS = o.levels; CLOCKS = o.clocks;
    $("lpreset").innerHTML = o.presets.map((p) => `<option>${esc(p)}</option>`).join("");
  } catch (e) { $("lpreset").innerHTML = "<option>9-5-2</option>"; }
  fillForm();
  connect();
}
window.onLang = () => { fillForm(); render(); if (loggedOut) $("conn").textContent = t("loggedOut"); };
document.addEventListener("DOMContentLoaded", init);
