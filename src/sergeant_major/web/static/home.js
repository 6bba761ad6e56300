"use strict";
let LEVELS = ["heuristic", "random"];
let ACCOUNT = null;  // the logged-in account's name: the creator's seat's default name (the server's too), as in the lobby
function seatRow(i, kind) {
  const div = document.createElement("div");
  div.className = "seatrow"; div.dataset.seat = i;
  const opts = [["me", t("me")], ["friend", t("friend")]].concat(LEVELS.map((l) => ["computer:" + l, kindText(l)]));
  div.innerHTML = `<span>${esc(t("seat"))} ${i + 1}</span> <select class="kind" aria-label="seat ${i + 1}">` +
    opts.map(([v, l]) => `<option value="${v}">${esc(l)}</option>`).join("") +
    `</select> <input class="sname" maxlength="40" aria-label="name ${i + 1}" placeholder="${esc(t("name"))}">`;
  div.querySelector(".kind").value = kind;
  if (kind === "me") div.querySelector(".sname").value = (i === 0 && ACCOUNT) || localStorage.getItem("sm-name") || "";
  return div;
}
// the seat rows; typing in Options only adds or removes the fourth row (players=4): kinds and names typed stay.
// relabel: rebuild every row (a language change), keeping what was chosen and typed
function renderSeats(relabel) {
  const n = /players=4/.test(document.getElementById("opts").value) ? 4 : 3;
  const box = document.getElementById("seats");
  const old = Array.from(box.children).map((d) => ({ kind: d.querySelector(".kind").value, name: d.querySelector(".sname").value }));
  if (relabel === true) box.innerHTML = "";
  while (box.children.length > n) box.removeChild(box.lastChild);
  for (let i = box.children.length; i < n; i++) {
    const row = seatRow(i, old[i] ? old[i].kind : (i === 0 ? "me" : "computer:heuristic"));
    if (old[i]) row.querySelector(".sname").value = old[i].name;
    box.appendChild(row);
  }
}
// copy a link: the clipboard API where the page may use it (https, localhost), else the selected text and
// execCommand; the link stays selected when both fail, and the button says what happened
async function copyLink(input, fb) {
  let ok = false;
  try { if (navigator.clipboard && window.isSecureContext) { await navigator.clipboard.writeText(input.value); ok = true; } } catch (e) { ok = false; }
  input.focus(); input.select();
  if (!ok) { try { ok = document.execCommand("copy"); } catch (e) { ok = false; } }
  fb.textContent = ok ? t("copied") : t("copyManual");
}
async function init() {
  const tname = document.getElementById("tname");  // typed into: the name is the creator's choice, even "Table"
  tname.addEventListener("input", () => { tname.dataset.typed = "1"; });  // before any wait: a name typed at once counts
  const account = fetch("/api/account");  // asked at once, beside the options
  try {
    const r = await fetch("/api/options"); const o = await r.json(); LEVELS = o.levels;
    const sel = document.getElementById("preset");
    sel.innerHTML = o.presets.map((p) => `<option>${esc(p)}</option>`).join("");
  } catch (e) { /* keep defaults */ }
  try { ACCOUNT = (await (await account).json()).name || null; } catch (e) { /* a guest */ }
  renderSeats(); defaultTableName();
  document.getElementById("opts").addEventListener("input", renderSeats);
  const form = document.getElementById("create");
  form.addEventListener("submit", create);
  // an error of an earlier press is stale once the form changes or is pressed again: the browser's own check of a
  // field (a timeout of -5) blocks the submit with its bubble and no submit event, and left the old error beside it
  for (const type of ["input", "change"]) form.addEventListener(type, clearError);
  form.addEventListener("invalid", clearError, true);  // 'invalid' does not bubble: caught on its way down
  document.getElementById("invite-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    clearError();
    const u = document.getElementById("invite-url").value.trim();
    const m = u.match(/\/t\/([A-Za-z0-9_-]+)(#token=[A-Za-z0-9_-]+)?/);
    if (m) location.href = "/t/" + m[1] + (m[2] || "");
    else document.getElementById("error").textContent = t("badInvite", { text: u.length > 80 ? u.slice(0, 80) + "…" : u });
  });
}
// the error line emptied (its English reason, the title, too)
function clearError() {
  const err = document.getElementById("error");
  err.textContent = ""; err.title = "";
}
// one table per press: a second click (a double click) while the first is under way makes no second table
let creating = false;
async function create(ev) {
  ev.preventDefault();
  if (creating) return;
  clearError();
  creating = true;
  try { await createTable(); } finally { creating = false; }
}
async function createTable() {
  let friends = 0, mes = 0;
  const seats = Array.from(document.querySelectorAll("#seats .seatrow")).map((d) => {
    const k = d.querySelector(".kind").value;
    if (k === "friend") friends++;
    if (k === "me") mes++;
    // a person's seat left unnamed: the server names it in English ("Friend 1"); in another language the page does. A
    // computer's is left to the server ("Heuristic 3", stored by its level), which every page writes in its own language
    const def = LANG === "en" || k.startsWith("computer:") || (k === "me" && mes === 1 && ACCOUNT) ? undefined
      : k === "me" ? t("defMe") + (mes > 1 ? " " + mes : "") : t("defFriend", { n: friends });
    const name = d.querySelector(".sname").value.trim() || def;
    if (k.startsWith("computer:")) return { kind: "computer", level: k.slice(9), name };
    return { kind: k, name };
  });
  const meRow = Array.from(document.querySelectorAll("#seats .seatrow")).find((d) => d.querySelector(".kind").value === "me");
  const myName = meRow ? meRow.querySelector(".sname").value.trim() : "";
  if (myName) localStorage.setItem("sm-name", myName);  // the name typed, never a default
  // the default name left as it is: none sent (the server's default, written by each page in its language)
  const tname = document.getElementById("tname"), value = tname.value.trim();
  const chosen = tname.dataset.typed || !Object.values(STRINGS).some((l) => l.defTable === value) ? value : "";
  const body = { name: chosen, rules: (document.getElementById("preset").value + " " + document.getElementById("opts").value).trim(),
    seats, away_timeout: parseInt(document.getElementById("timeout").value || "60", 10) };
  const err = document.getElementById("error");
  let r, out;
  try {
    r = await fetch("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    out = await r.json();
  } catch (e) {  // no server, or an answer that is not JSON (a proxy's error page)
    err.textContent = t("err_create_unreachable"); err.title = r ? "HTTP " + r.status : String(e); return;
  }
  if (!r.ok) {
    // in the page's language from the refusal's code (the server's English reason stays as the title)
    const k = STRINGS[LANG] && STRINGS[LANG]["err_create_" + out.code] ? "create_" + out.code : "create_other";
    err.textContent = refusalText({ code: k, reason: out.error }, { rules: body.rules, reason: out.error, name: body.name, seat: out.seat, seatName: out.seat ? body.seats[out.seat - 1].name : "" });
    err.title = out.error; return;
  }
  let mine = null;
  for (const s of out.seats) if (s.token && mine === null) { mine = s.token; saveToken(out.id, s.token); }
  // a second "me" seat is for another person too (this browser holds one seat per table): its link is shown like
  // an invitation, else nobody could ever take that seat
  const link = (s) => s.invite || (s.token && s.token !== mine ? "/t/" + out.id + "#token=" + s.token : null);
  const ul = document.getElementById("invites"); ul.innerHTML = "";
  for (const s of out.seats) if (link(s)) {
    const li = document.createElement("li"); const url = location.origin + link(s);
    li.innerHTML = `${esc(t("seat"))} ${s.seat + 1} (${esc(s.name)}): <a class="invite" href="${esc(url)}">${esc(t("open"))}</a> `;
    const inp = document.createElement("input"); inp.className = "invite-text"; inp.readOnly = true; inp.value = url;
    inp.setAttribute("aria-label", t("invitations"));
    const b = document.createElement("button"); b.textContent = t("copy"); b.type = "button"; b.className = "copy";
    const fb = document.createElement("span"); fb.className = "copied"; fb.setAttribute("role", "status");
    b.onclick = () => copyLink(inp, fb);
    li.appendChild(b); li.appendChild(fb); li.appendChild(inp); ul.appendChild(li);
  }
  document.getElementById("go").href = "/t/" + out.id;
  document.getElementById("created").hidden = false;
  if (!out.seats.some(link)) location.href = "/t/" + out.id;
}
// the table's name field holds the default name ("Table") in the page's language until something is typed
function defaultTableName() {
  const el = document.getElementById("tname");
  if (!el.dataset.typed) el.value = t("defTable");
}
window.onLang = () => { renderSeats(true); defaultTableName(); };
document.addEventListener("DOMContentLoaded", init);
