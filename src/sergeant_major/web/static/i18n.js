// English and German strings; the language is kept in localStorage ("sm-lang").
"use strict";
const STRINGS = {
  en: {
    title: "Sergeant Major", home: "Home", history: "My games", lang: "Deutsch",
    create: "Create a table", tableName: "Table name", preset: "Rules", options: "Options (e.g. to=20)",
    seat: "Seat", me: "me", friend: "invited friend", computer: "computer", level: "level", name: "Name",
    yourName: "Your name", awayTimeout: "A computer takes an absent player's seat after (seconds, -1: never)",
    createBtn: "Create", invitations: "Invitation links (send one to each friend)", goTable: "Go to the table",
    openInvite: "Open an invitation", open: "Open", copy: "Copy",
    start: "Start the game", nextDeal: "Next deal", waiting: "Waiting for the players", spectator: "You are watching",
    yourTurn: "Your turn", waitingFor: "Waiting for {name}", target: "target", tricks: "tricks", total: "total",
    dealer: "dealer", trump: "Trump", contract: "Contract", noContract: "not named yet", deal: "Deal",
    lastTrick: "Last trick", scores: "Score sheet", hint: "Hint", undo: "Undo", close: "Close",
    nameTrump: "Name the trump", takeKitty: "Take the kitty", take: "Take", discard: "Discard a card",
    give: "Give a card to {name}", ret: "Return a card to {name}", endGive: "Give no more", assign: "Assign the targets",
    kitty: "Kitty", deals: "Deals", result: "Result of deal {n}", over: "Game over", wins: "{names} won",
    replay: "Replay", download: "Download the record", online: "online", offline: "away", standin: "a computer plays for now",
    connecting: "Connecting...", disconnected: "Connection lost, reconnecting...", legalHint: "marked cards may be played",
    noGames: "No games yet in this browser.", continueGame: "Continue", finished: "finished", unfinished: "in play",
    showHands: "Show all hands", first: "First", prev: "Back", next: "Forward", last: "Last", step: "Step",
    join: "Join", hintIs: "Hint: {a}", practice: "practice", gave: "You gave", received: "You received",
    NT: "no-trump", MT: "minimum tricks", C: "clubs", D: "diamonds", H: "hearts", S: "spades",
    exchange: "Exchange", played: "played", won: "won the trick", you: "you",
  },
  de: {
    title: "Sergeant Major", home: "Start", history: "Meine Spiele", lang: "English",
    create: "Tisch anlegen", tableName: "Name des Tisches", preset: "Regeln", options: "Optionen (z. B. to=20)",
    seat: "Platz", me: "ich", friend: "eingeladener Freund", computer: "Computer", level: "Stufe", name: "Name",
    yourName: "Dein Name", awayTimeout: "Ein Computer übernimmt den Platz eines Abwesenden nach (Sekunden, -1: nie)",
    createBtn: "Anlegen", invitations: "Einladungslinks (einen an jeden Freund schicken)", goTable: "Zum Tisch",
    openInvite: "Einladung öffnen", open: "Öffnen", copy: "Kopieren",
    start: "Spiel beginnen", nextDeal: "Nächstes Spiel", waiting: "Warten auf die Spieler", spectator: "Du schaust zu",
    yourTurn: "Du bist dran", waitingFor: "Warten auf {name}", target: "Soll", tricks: "Stiche", total: "Gesamt",
    dealer: "Geber", trump: "Trumpf", contract: "Ansage", noContract: "noch nicht angesagt", deal: "Spiel",
    lastTrick: "Letzter Stich", scores: "Spielliste", hint: "Tipp", undo: "Zurück", close: "Schließen",
    nameTrump: "Trumpf ansagen", takeKitty: "Den Skat aufnehmen", take: "Aufnehmen", discard: "Eine Karte drücken",
    give: "Eine Karte an {name} geben", ret: "Eine Karte an {name} zurückgeben", endGive: "Nichts mehr geben", assign: "Die Sollzahlen verteilen",
    kitty: "Skat", deals: "Spiele", result: "Ergebnis von Spiel {n}", over: "Partie zu Ende", wins: "{names} gewinnt",
    replay: "Wiederholung", download: "Spielprotokoll herunterladen", online: "da", offline: "weg", standin: "ein Computer spielt vorerst",
    connecting: "Verbinde...", disconnected: "Verbindung verloren, verbinde neu...", legalHint: "markierte Karten sind spielbar",
    noGames: "Noch keine Spiele in diesem Browser.", continueGame: "Weiterspielen", finished: "beendet", unfinished: "läuft",
    showHands: "Alle Blätter zeigen", first: "Anfang", prev: "Zurück", next: "Vor", last: "Ende", step: "Schritt",
    join: "Beitreten", hintIs: "Tipp: {a}", practice: "Übung", gave: "Du hast gegeben", received: "Du hast bekommen",
    NT: "ohne Trumpf", MT: "Mindeststiche", C: "Kreuz", D: "Karo", H: "Herz", S: "Pik",
    exchange: "Tausch", played: "gespielt", won: "hat den Stich", you: "du",
  },
};
let LANG = localStorage.getItem("sm-lang") || ((navigator.language || "en").startsWith("de") ? "de" : "en");
function t(key, args) {
  let s = (STRINGS[LANG] && STRINGS[LANG][key]) || STRINGS.en[key] || key;
  if (args) for (const k in args) s = s.replace("{" + k + "}", args[k]);
  return s;
}
function applyI18n(root) {
  document.documentElement.lang = LANG;
  (root || document).querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = t(el.dataset.i18n); });
}
function setLang(l) { LANG = l; localStorage.setItem("sm-lang", l); applyI18n(); if (window.onLang) window.onLang(); }
function langButton() {
  const b = document.getElementById("lang");
  if (b) b.onclick = () => setLang(LANG === "en" ? "de" : "en");
}
const SUIT_SYM = { C: "♣", D: "♦", H: "♥", S: "♠" };
function rankText(r) {
  if (r === "T") return "10";
  if (LANG === "de") return { J: "B", Q: "D", K: "K", A: "A" }[r] || r;
  return r;
}
function cardEl(card, tag) {
  const el = document.createElement(tag || "span");
  el.className = "card " + (card[1] === "H" || card[1] === "D" ? "red" : "black");
  el.textContent = rankText(card[0]) + SUIT_SYM[card[1]];
  el.dataset.card = card;
  el.setAttribute("aria-label", card);
  return el;
}
function tokens() { try { return JSON.parse(localStorage.getItem("sm-tokens") || "{}"); } catch (e) { return {}; } }
function saveToken(table, token) { const m = tokens(); m[table] = token; localStorage.setItem("sm-tokens", JSON.stringify(m)); }
function esc(s) { const d = document.createElement("span"); d.textContent = String(s); return d.innerHTML; }
document.addEventListener("DOMContentLoaded", () => { applyI18n(); langButton(); });
