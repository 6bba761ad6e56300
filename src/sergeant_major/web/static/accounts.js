// The account, leaderboard and player pages: their English and German texts and shared helpers (after i18n.js).
"use strict";
Object.assign(STRINGS.en, {
  register: "Register", login: "Log in", logout: "Log out", userName: "User name", password: "Password",
  newAccount: "New account", haveAccount: "Log in", deleteAccount: "Delete the account", deleteBtn: "Delete my account",
  deleteNote: "This deletes your password, sessions and ratings; your finished matches stay, under the name “deleted player”.",
  confirmPassword: "Your password, to confirm", loggedInAs: "Logged in as {name}", myPage: "My player page",
  guestNote: "Without an account you still play as a guest, by invitation link. With one, your tables, history and ratings follow you to any device.",
  nameRule: "3 to 20 letters or digits (. _ - inside)", passwordRule: "8 to 128 characters",
  changePassword: "Change password", currentPassword: "Current password", newPassword: "New password", changePasswordBtn: "Change password",
  passwordChanged: "Your password is changed. Your other devices are logged out; this one stays logged in.",
  rating: "Rating", matchesN: "Matches", winsN: "Wins", provisional: "provisional", player: "Player", place: "Place",
  computers: "Computers (fixed ratings)", noRated: "No rated matches yet in this preset.", noRatedPlayer: "No rated match yet: a match is rated when every seat is an account or a computer, its rules are a preset's and it is not a practice table (one person alone against computers).",
  ratingOverTime: "Rating over time", byRole: "Mean score per deal by role", role: "Role", dealsN: "Deals", meanScore: "Mean score",
  role_dealer: "dealer", role_eldest: "eldest hand", role_third: "third hand", role_fourth: "fourth hand",
  dealerTarget: "Target made as dealer: {made} of {deals} deals", contracts358: "3-5-8 contracts (as declarer)",
  made: "Made", recent: "Recent matches", leftN: "Matches left early", inPlayN: "In play",
  noPlayer: "There is no player “{name}”.", noPreset: "There is no rated preset “{preset}”: choose one of these.", noMatches: "No finished matches yet.", ratingsTitle: "Ratings",
  ratedWhat: "Rated: matches of a preset's rules where every seat is an account or a computer (a guest makes a match unrated; a practice table alone against computers is not rated). The number is your rating (OpenSkill's estimate of your skill, 25 for a new account) with its uncertainty (± two standard deviations, narrowing as you play): a first place raises it, a last place lowers it, a second place moves it by whom you beat and whom you did not; provisional for the first 10 matches, listed after the others on the leaderboard.",
  computerLevel: "computer",
  err_acc_name: "The user name “{name}” is refused: use 3 to 20 letters or digits (. _ - inside, no spaces).",
  err_acc_password: "The password does not fit: use 8 to 128 characters (for a deletion: it is wrong).",
  err_acc_name_taken: "The user name “{name}” is taken: choose another.",
  err_acc_computer_name: "The user name “{name}” is refused: it is written as a computer player is (a level, as Random or Expert): the others would take you for one; choose another.",
  err_acc_mixed_script_name: "The user name “{name}” is refused: it mixes letters of alphabets that look alike (Latin, Cyrillic or Greek): the others could take it for another name; write it in one alphabet.",
  err_acc_login: "No account has the user name “{name}” with this password.",
  err_acc_current_password: "The current password is wrong: the password was not changed.",
  err_acc_throttled: "Too many wrong passwords from your address (logins and password changes count alike): try again in {s} s.",
  err_acc_throttled_name: "Too many wrong passwords for the name '{name}' from your address (logins and password changes count alike): try again in {s} s.",
  err_acc_throttled_siege: "Too many wrong passwords for the name '{name}' from many addresses (logins and password changes count alike): try again in {s} s.",
  err_acc_other: "Refused: {reason}", err_acc_unreachable: "The server cannot be reached; nothing was changed.",
});
Object.assign(STRINGS.de, {
  register: "Registrieren", login: "Anmelden", logout: "Abmelden", userName: "Benutzername", password: "Passwort",
  newAccount: "Neues Konto", haveAccount: "Anmelden", deleteAccount: "Konto löschen", deleteBtn: "Mein Konto löschen",
  deleteNote: "Das löscht dein Passwort, deine Sitzungen und Wertungen; deine beendeten Partien bleiben, unter dem Namen „deleted player“.",
  confirmPassword: "Dein Passwort zur Bestätigung", loggedInAs: "Angemeldet als {name}", myPage: "Meine Spielerseite",
  guestNote: "Ohne Konto spielst du weiter als Gast über Einladungslinks. Mit Konto folgen dir Tische, Verlauf und Wertungen auf jedes Gerät.",
  nameRule: "3 bis 20 Buchstaben oder Ziffern (. _ - innen)", passwordRule: "8 bis 128 Zeichen",
  changePassword: "Passwort ändern", currentPassword: "Bisheriges Passwort", newPassword: "Neues Passwort", changePasswordBtn: "Passwort ändern",
  passwordChanged: "Dein Passwort ist geändert. Deine anderen Geräte sind abgemeldet; dieses bleibt angemeldet.",
  rating: "Wertung", matchesN: "Partien", winsN: "Siege", provisional: "vorläufig", player: "Spieler", place: "Platz",
  computers: "Computer (feste Wertungen)", noRated: "Noch keine gewerteten Partien mit diesen Regeln.", noRatedPlayer: "Noch keine gewertete Partie: gewertet wird eine Partie, wenn jeder Platz ein Konto oder ein Computer ist, ihre Regeln die einer Vorgabe sind und sie kein Übungstisch ist (eine Person allein gegen Computer).",
  ratingOverTime: "Wertung im Verlauf", byRole: "Mittlere Punkte pro Spiel nach Rolle", role: "Rolle", dealsN: "Spiele", meanScore: "Mittel",
  role_dealer: "Geber", role_eldest: "Vorhand", role_third: "Hinterhand", role_fourth: "vierte Hand",
  dealerTarget: "Soll als Geber erfüllt: {made} von {deals} Spielen", contracts358: "3-5-8-Ansagen (als Alleinspieler)",
  made: "Erfüllt", recent: "Letzte Partien", leftN: "Vorzeitig verlassen", inPlayN: "Laufend",
  noPlayer: "Es gibt keinen Spieler „{name}“.", noPreset: "Es gibt keine gewertete Vorgabe „{preset}“: wähle eine von diesen.", noMatches: "Noch keine beendeten Partien.", ratingsTitle: "Wertungen",
  ratedWhat: "Gewertet: Partien nach den Regeln einer Vorgabe, bei denen jeder Platz ein Konto oder ein Computer ist (ein Gast macht die Partie ungewertet; ein Übungstisch allein gegen Computer wird nicht gewertet). Die Zahl ist deine Wertung (die Schätzung deiner Spielstärke nach OpenSkill, 25 für ein neues Konto) mit ihrer Unsicherheit (± zwei Standardabweichungen, enger mit jeder Partie): ein erster Platz hebt sie, ein letzter senkt sie, ein zweiter bewegt sie je nachdem, wen du geschlagen hast und wen nicht; vorläufig in den ersten 10 Partien, in der Rangliste nach den anderen.",
  computerLevel: "Computer",
  err_acc_name: "Der Benutzername „{name}“ geht nicht: 3 bis 20 Buchstaben oder Ziffern (. _ - innen, keine Leerzeichen).",
  err_acc_password: "Das Passwort passt nicht: 8 bis 128 Zeichen (beim Löschen: es ist falsch).",
  err_acc_name_taken: "Der Benutzername „{name}“ ist vergeben: wähle einen anderen.",
  err_acc_computer_name: "Der Benutzername „{name}“ wird abgelehnt: so wird ein Computer geschrieben (eine Stufe wie Zufall oder Experte), die anderen hielten dich für einen; wähle einen anderen.",
  err_acc_mixed_script_name: "Der Benutzername „{name}“ wird abgelehnt: er mischt Buchstaben verschiedener Alphabete (lateinisch, kyrillisch oder griechisch), die gleich aussehen, die anderen könnten ihn für einen anderen Namen halten; schreibe ihn in einem Alphabet.",
  err_acc_login: "Kein Konto hat den Benutzernamen „{name}“ mit diesem Passwort.",
  err_acc_current_password: "Das bisherige Passwort ist falsch: das Passwort wurde nicht geändert.",
  err_acc_throttled: "Zu viele falsche Passwörter von deiner Adresse aus (beim Anmelden und beim Ändern des Passworts zusammen): versuche es in {s} s wieder.",
  err_acc_throttled_name: "Zu viele falsche Passwörter für den Namen „{name}“ von deiner Adresse aus (beim Anmelden und beim Ändern des Passworts zusammen): versuche es in {s} s wieder.",
  err_acc_throttled_siege: "Zu viele falsche Passwörter für den Namen „{name}“ von vielen Adressen aus (beim Anmelden und beim Ändern des Passworts zusammen): versuche es in {s} s wieder.",
  err_acc_other: "Abgelehnt: {reason}", err_acc_unreachable: "Der Server ist nicht erreichbar; nichts wurde geändert.",
});
// an account refusal ({error, code, retry_after}) in the page's language; the server's English text as it is in English
function accountError(out, name) {
  if (LANG === "en") return out.error;
  // a throttle for a name quotes it as the server's text does: the name its answer carries (null: the address's failures)
  const named = out.code === "throttled" && typeof out.name === "string";
  const k = "err_acc_" + out.code + (named ? (/from many addresses/.test(out.error) ? "_siege" : "_name") : "");
  name = String(named ? out.name : name || "").slice(0, 60);
  return STRINGS[LANG][k] ? t(k, { name, s: out.retry_after }) : t("err_acc_other", { reason: out.error });
}
function fmtRating(x) { return (Math.round(x * 10) / 10).toLocaleString(LANG, { minimumFractionDigits: 1, maximumFractionDigits: 1 }); }
function roleText(r) { return STRINGS.en["role_" + r] ? t("role_" + r) : r; }
