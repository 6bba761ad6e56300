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
    badInvite: "“{text}” is not an invitation link: paste the whole link you were sent (…/t/…#token=…)",
    start: "Start the game", waitSeats: "The game starts once everyone is at the table: waiting for {names}.", waitFreeOne: "The game starts once every seat is taken: 1 seat is still free.", waitFree: "The game starts once every seat is taken: {n} seats are still free.", stillFreeOne: "1 seat is still free.", stillFree: "{n} seats are still free.", nextDeal: "Next deal", waiting: "Waiting for the players", spectator: "You are watching",
    yourTurn: "Your turn", waitingFor: "Waiting for {name}", target: "target", tricks: "tricks", total: "total",
    sheetKey: "Each cell: tricks/target: up (+) or down (-) = total so far",
    dealer: "dealer", trump: "Trump", contract: "Contract", noContract: "not named yet", deal: "Deal",
    dealOf: "Deal {n} of {m}", playsTo: "to {n}", playsToBound: "to ±{n}",
    lastTrick: "Last trick", scores: "Score sheet", hint: "Hint", undo: "Undo", close: "Close",
    nameTrump: "Name the trump", nameContract: "Choose the contract", takeKitty: "Take the kitty", take: "Take", discard: "Discard a card",
    give: "Give a card to {name}", ret: "Return a card to {name}", endGive: "Give no more", assign: "Assign the targets",
    kitty: "Kitty", deals: "Deals", result: "Result of deal {n}", over: "Game over", wins: "{names} won",
    replay: "Replay", download: "Download the record", online: "online", offline: "away", standin: "a computer plays for now",
    connecting: "Connecting...", disconnected: "Connection lost, reconnecting...", legalHint: "marked cards may be played",
    noGames: "No games yet in this browser.", continueGame: "Continue", finished: "finished", unfinished: "in play",
    review: "Review", reviewProgress: "Reviewing the match: {done} of {total} searches…", reviewFailed: "The review failed",
    mk_best: "best", mk_inaccuracy: "inaccuracy", mk_mistake: "mistake", mk_unclear: "unclear",
    reviewCard: "{name} played {card}: {mark}", reviewCost: "cost {cost} double dummy", reviewExpert: "{cost} from what {name} could see",
    reviewBest: "best: {cards}", reviewPlayer: "Player", reviewMistakes: "Mistakes", reviewLostDD: "Tricks lost (double dummy)",
    reviewLostExpert: "Tricks lost (from what they could see)", reviewDeal: "This deal", reviewMatch: "The match",
    reviewNote: "Double dummy: against the best card with every card known. From what they could see: the expert's average over worlds the player could not tell apart.",
    reviewUnsettled: "{n} unsettled", reviewUnsettledSome: "some unsettled",
    reviewUnsettledNote: "Unsettled: cards whose cost the time limit left a range such as 0–2 (marked ~); the tricks lost count only what mistakes surely cost.",
    reviewSlow: "This server runs without numba, so the review runs in pure Python, about 90 times slower: it may take many minutes, and the costs of searches cut short stay ranges.",
    showHands: "Show all hands", first: "First", prev: "Back", next: "Forward", last: "Last", step: "Step",
    join: "Join", hintIs: "Hint: {a}", practice: "practice", gave: "You gave", received: "You received",
    NT: "no-trump", MT: "minimum tricks", NTs: "NT", MTs: "MT", C: "clubs", D: "diamonds", H: "hearts", S: "spades",
    exchange: "Exchange", played: "played", won: "won the trick", you: "you",
    invalidInvite: "This invitation is not valid", invalidInviteText: "The link's token “{token}” holds no seat at table {id}: it may have been mistyped or cut short. Ask for the link again.", watchTable: "Watch this table",
    noTable: "There is no table {id}.", badToken: "This invitation's token holds no seat at this table: you are watching as a spectator.",
    otherSeat: "This invitation is for another seat at this table, but you already play here as {name}.",
    keepSeat: "Keep my seat", playThis: "Play the invitation's seat instead", inviteKept: "You keep your seat here as {name}.",
    inviteSeat: "You are invited to seat {n}", inviteJoined: "At the table already: {names}",
    err_name_taken: "The name {name} is another seat's at this table already; choose another (nothing was changed).",
    err_seat_claimed: "This invitation's seat was taken already by someone else; your join as {name} was refused (nothing was changed): you are watching.",
    discardN: "Discard {n} cards ({k} left)", fromKitty: "from the kitty", yourDiscards: "Your discards", gaveTo: "given to {name}", gotFrom: "received from {name}", discards: "Discards", chooseInHand: "choose in your hand",
    copied: "Copied", copyManual: "Copying failed: the link is selected, copy it with Ctrl+C",
    lv_random: "random", lv_beginner: "beginner", lv_heuristic: "heuristic", lv_expert: "expert",
    defMe: "Me", defFriend: "Friend {n}", defTable: "Table", defLobbyTable: "{name}'s table", guestSuffix: " (guest)", guestSuffixN: " (guest {n})", nameOfAccount: "your account's name",
    notOver: "The replay is shown once the match is over (it shows every hand).",
    err_create_unreachable: "The server cannot be reached; no table was made.",
    end_instant: "{name} took {tricks} tricks in one deal ({limit} or more win at once)",
    end_traditional_made: "{name} made his target as dealer of deal {deal}, the first dealer to do so once the deal had gone round the table",
    end_traditional_beat: "{name} beat his target as dealer of deal {deal}, the first dealer to do so once the deal had gone round the table",
    end_target: "{name} reached {total} (target total {limit})", end_two: "; with two past the target, the higher total wins",
    end_bound: "a total reached ±{limit}; the highest total ({total}) wins", end_deals: "after {deals} deals the highest total ({total}) wins", end_deals_one: "after 1 deal the highest total ({total}) wins",
    shared: " (shared)", end_left: "; {names} left the match and so ranks last",
    a_play: "{name} plays {card}", a_discard: "{name} discards {card}", a_kitty: "{name} takes the kitty", a_contract: "{name} names {c}",
    a_give: "{name} gives {card} to {to}", a_end_give: "{name} gives {to} no more", a_return: "{name} returns {card} to {to}",
    a_assign: "{name} assigns the targets: {t}",
    playersLabel: "players", trickLabel: "trick", handLabel: "your hand", settings: "Settings", fourColour: "Four-colour deck", oneTap: "One tap plays a card (touch screens)", sound: "Card sounds",
    trickPause: "A finished trick stays for", atMost: "at most {n}", contractsLeft: "left", yourTurnShort: "your turn",
    toAct: "to play", led: "led", wonShort: "won", confirm: "Confirm", selected: "{k} of {n} chosen",
    selectedAll: "{k} of {n} chosen: press Confirm", selectedDiscard: "{k} of {n} chosen: press Confirm to discard them", discardAll: "Discard {n} cards",
    a_start: "Deal {n}",
    account: "Account", leaderboard: "Leaderboard",
    loggedOut: "You were logged out (on this device or another): log in again to play as your account.", logInAgain: "Log in",
    // the lobby, the clocks, leaving and the quick chat
    lobby: "Lobby", playNow: "Play with other people", clock: "Turn clock", fillLevel: "Computers for the free seats", fillWait: "after",
    quickPlay: "Quick play", openTable: "Open a table", waitingTables: "Tables waiting for players",
    quickHelp: "Quick play takes a free seat at a table of these rules (and options) waiting for players, or opens one; a table you open waits for other players, and the computers take the seats still free after the wait chosen.",
    noWaiting: "No table is waiting for players right now: open one, or use quick play.", needName: "Type your name first.",
    seconds: "{n} s", minutes: "{n} min", atOnce: "at once", clockOff: "no clock", clockIs: "{turn} per turn + {reserve} reserve",
    freeSeat: "free seat", seatOpen: "waiting for a player", freeSeatN: "Free seat {n}", fillSeats: "Computers take the free seats in {s} s.", clockBadge: "{s} s left", freeSeats: "free seats: {n}", seatRating: "rating {r} after {n} matches", seatProvisional: "provisional", rated: "rated", unrated: "unrated", ratedTip: "Rated: the result changes the players' ratings (the rules are a preset's, and every seat is an account or a computer).", unratedTip: "Unrated: no rating changes (the rules are not a preset's, it is a practice table, or a guest without an account plays).", fillIn: "{level} in {s} s", joinTable: "Join",
    err_lobby_table: "That table is not waiting for players any more (it started, or its seats were taken); nothing was changed.",
    err_lobby_seat_name: "Your name is refused: 1 to 40 characters, no control characters; nothing was changed.",
    err_lobby_clock: "That clock is refused; nothing was changed.", err_lobby_level: "Unknown computer level; nothing was changed.",
    err_lobby_other: "The server refused the form; nothing was changed.", err_lobby_storage: "The database did not store it; nothing was changed.",
    timeLeft: "{name}: {s} s left", yourTime: "Your time: {s} s", heldYou: "A computer plays for you (your time ran out three times in a row).",
    imBack: "I'm back", leave: "Leave the match", leaveAsk: "Leave this match? A computer plays your seat to the end, and you count last in it.",
    leaveYes: "Leave", stay: "Stay", leftRole: "left the match", youLeft: "You left this match; you are watching.",
    chat: "Chat", muteChat: "Mute chat", chatLabel: "Quick chat", err_bad_chat: "That is not a quick-chat phrase; nothing was sent.",
    err_chat_flood: "Too many phrases at once; \"{phrase}\" was not sent: wait a few seconds.", err_left: "You left this match; nothing was changed.",
    err_not_away: "No computer holds your seat; nothing was changed.",
    chat_hello: "Hello", chat_good_luck: "Good luck", chat_well_played: "Well played", chat_thanks: "Thanks", chat_oops: "Oops",
    chat_sorry: "Sorry", chat_nice_trick: "Nice trick", chat_one_moment: "One moment, please", chat_good_game: "Good game", chat_bye: "Bye",
  },
  de: {
    title: "Sergeant Major", home: "Start", history: "Meine Spiele", lang: "English",
    create: "Tisch anlegen", tableName: "Name des Tisches", preset: "Regeln", options: "Optionen (z. B. to=20)",
    seat: "Platz", me: "ich", friend: "eingeladener Freund", computer: "Computer", level: "Stufe", name: "Name",
    yourName: "Dein Name", awayTimeout: "Ein Computer übernimmt den Platz eines Abwesenden nach (Sekunden, -1: nie)",
    createBtn: "Anlegen", invitations: "Einladungslinks (einen an jeden Freund schicken)", goTable: "Zum Tisch",
    openInvite: "Einladung öffnen", open: "Öffnen", copy: "Kopieren",
    badInvite: "„{text}“ ist kein Einladungslink: füge den ganzen Link ein, den du bekommen hast (…/t/…#token=…)",
    start: "Spiel beginnen", waitSeats: "Das Spiel beginnt, wenn alle am Tisch sind: warten auf {names}.", waitFreeOne: "Das Spiel beginnt, wenn alle Plätze besetzt sind: 1 Platz ist noch frei.", waitFree: "Das Spiel beginnt, wenn alle Plätze besetzt sind: {n} Plätze sind noch frei.", stillFreeOne: "1 Platz ist noch frei.", stillFree: "{n} Plätze sind noch frei.", nextDeal: "Nächstes Spiel", waiting: "Warten auf die Spieler", spectator: "Du schaust zu",
    yourTurn: "Du bist dran", waitingFor: "Warten auf {name}", target: "Soll", tricks: "Stiche", total: "Gesamt",
    sheetKey: "Je Zelle: Stiche/Soll: darüber (+) oder darunter (-) = Summe bisher",
    dealer: "Geber", trump: "Trumpf", contract: "Ansage", noContract: "noch nicht angesagt", deal: "Spiel",
    dealOf: "Spiel {n} von {m}", playsTo: "bis {n}", playsToBound: "bis ±{n}",
    lastTrick: "Letzter Stich", scores: "Spielliste", hint: "Tipp", undo: "Zurück", close: "Schließen",
    nameTrump: "Trumpf ansagen", nameContract: "Ansage wählen", takeKitty: "Den Skat aufnehmen", take: "Aufnehmen", discard: "Eine Karte drücken",
    give: "Eine Karte an {name} geben", ret: "Eine Karte an {name} zurückgeben", endGive: "Nichts mehr geben", assign: "Die Sollzahlen verteilen",
    kitty: "Skat", deals: "Spiele", result: "Ergebnis von Spiel {n}", over: "Partie zu Ende", wins: "{names} gewinnt",
    replay: "Wiederholung", download: "Spielprotokoll herunterladen", online: "da", offline: "weg", standin: "ein Computer spielt vorerst",
    connecting: "Verbinde...", disconnected: "Verbindung verloren, verbinde neu...", legalHint: "markierte Karten sind spielbar",
    noGames: "Noch keine Spiele in diesem Browser.", continueGame: "Weiterspielen", finished: "beendet", unfinished: "läuft",
    review: "Analyse", reviewProgress: "Die Partie wird analysiert: {done} von {total} Suchen…", reviewFailed: "Die Analyse ist fehlgeschlagen",
    mk_best: "beste", mk_inaccuracy: "Ungenauigkeit", mk_mistake: "Fehler", mk_unclear: "unklar",
    reviewCard: "{name} spielte {card}: {mark}", reviewCost: "kostete {cost} bei offenen Karten", reviewExpert: "{cost} nach dem, was {name} sehen konnte",
    reviewBest: "beste: {cards}", reviewPlayer: "Spieler", reviewMistakes: "Fehler", reviewLostDD: "Verlorene Stiche (offene Karten)",
    reviewLostExpert: "Verlorene Stiche (nach dem Sichtbaren)", reviewDeal: "Dieses Spiel", reviewMatch: "Die Partie",
    reviewNote: "Offene Karten: gegen die beste Karte, wenn alle Karten bekannt sind. Nach dem Sichtbaren: der Schnitt des Experten über die Verteilungen, die der Spieler nicht unterscheiden konnte.",
    reviewUnsettled: "{n} ungeklärt", reviewUnsettledSome: "einige ungeklärt",
    reviewUnsettledNote: "Ungeklärt: Karten, deren Kosten das Zeitlimit als Spanne wie 0–2 ließ (markiert mit ~); die verlorenen Stiche zählen nur, was Fehler sicher kosteten.",
    reviewSlow: "Dieser Server läuft ohne numba, die Analyse also in reinem Python, etwa 90-mal langsamer: sie kann viele Minuten dauern, und die Kosten abgebrochener Suchen bleiben Spannen.",
    showHands: "Alle Blätter zeigen", first: "Anfang", prev: "Zurück", next: "Vor", last: "Ende", step: "Schritt",
    join: "Beitreten", hintIs: "Tipp: {a}", practice: "Übung", gave: "Du hast gegeben", received: "Du hast bekommen",
    NT: "ohne Trumpf", MT: "Mindeststiche", NTs: "KT", MTs: "MS", C: "Kreuz", D: "Karo", H: "Herz", S: "Pik",
    exchange: "Tausch", played: "gespielt", won: "hat den Stich", you: "du",
    invalidInvite: "Diese Einladung ist ungültig", invalidInviteText: "Der Schlüssel „{token}“ des Links gehört zu keinem Platz am Tisch {id}: vielleicht wurde er falsch abgetippt oder abgeschnitten. Lass dir den Link noch einmal schicken.", watchTable: "Diesem Tisch zuschauen",
    noTable: "Den Tisch {id} gibt es nicht.", badToken: "Der Schlüssel dieser Einladung gehört zu keinem Platz an diesem Tisch: du schaust zu.",
    otherSeat: "Diese Einladung ist für einen anderen Platz an diesem Tisch, aber du spielst hier schon als {name}.",
    keepSeat: "Meinen Platz behalten", playThis: "Stattdessen den Platz der Einladung spielen", inviteKept: "Du behältst deinen Platz hier als {name}.",
    inviteSeat: "Du bist auf Platz {n} eingeladen", inviteJoined: "Schon am Tisch: {names}",
    discardN: "{n} Karten drücken (noch {k})", fromKitty: "aus dem Skat", yourDiscards: "Deine gedrückten Karten", gaveTo: "gegeben an {name}", gotFrom: "bekommen von {name}", discards: "Gedrückt", chooseInHand: "in deinem Blatt wählen",
    copied: "Kopiert", copyManual: "Kopieren ging nicht: der Link ist markiert, kopiere ihn mit Strg+C",
    lv_random: "Zufall", lv_beginner: "Anfänger", lv_heuristic: "Heuristik", lv_expert: "Experte",
    defMe: "Ich", defFriend: "Freund {n}", defTable: "Tisch", defLobbyTable: "Tisch von {name}", guestSuffix: " (Gast)", guestSuffixN: " (Gast {n})", nameOfAccount: "der Name deines Kontos",
    notOver: "Die Wiederholung gibt es erst, wenn die Partie zu Ende ist (sie zeigt alle Blätter).",
    // the server's refusals (its reasons are English): by their code
    err_stale: "Der Tisch ist schon weiter (ein doppelter Klick oder ein zweites Fenster); nichts wurde geändert.",
    err_turn: "Du bist nicht dran; nichts wurde geändert.", err_not_started: "Das Spiel hat noch nicht begonnen.",
    err_not_waiting: "Es wartet kein Spiel auf den Beginn.", err_empty_seat: "Das Spiel beginnt erst, wenn alle Plätze besetzt sind (ein eingeladener Freund fehlt noch); nichts wurde geändert.", err_over: "Die Partie ist zu Ende.",
    err_illegal: "Das erlauben die Regeln nicht; nichts wurde geändert.", err_not_seated: "Das kann nur, wer an diesem Tisch spielt.",
    err_no_undo: "Es gibt nichts zurückzunehmen (nur am Übungstisch, deine Karten in diesem Spiel).",
    err_no_hint: "Tipps gibt es nur am Übungstisch, wenn du dran bist.",
    err_storage: "Die Datenbank hat die Aktion nicht gespeichert; nichts wurde geändert.",
    err_server: "Der Server konnte die Nachricht nicht bearbeiten.",
    err_retry: "Die Züge der Computer konnten nicht ausgeführt werden (die Datenbank hat sie nicht gespeichert); sie werden in {s} s noch einmal versucht.",
    err_retry_server: "Die Züge der Computer konnten nicht ausgeführt werden (ein Fehler im Server); sie werden in {s} s noch einmal versucht.",
    err_stopped: "Die Züge der Computer konnten mehrmals nicht ausgeführt werden (ein Fehler im Server): der Tisch ist angehalten. Nichts Gespeichertes geht verloren; beim nächsten Betreten des Tisches wird es noch einmal versucht.",
    err_storage_name: "Die Datenbank hat deinen Namen nicht gespeichert; du spielst unter dem bisherigen Namen.",
    err_bad_name: "Der Name {name} wird abgelehnt: er enthält Steuer- oder Richtungszeichen, ein Name ist reiner Text.",
    err_name_taken: "Der Name {name} gehört schon einem anderen Platz an diesem Tisch; bitte einen anderen wählen.",
    err_account_name: "Der Name {name} wird abgelehnt: er gehört einem registrierten Spieler (oder steht für ein gelöschtes Konto), und unter ihm spielt nur, wer als dieses Konto angemeldet ist; melde dich an oder wähle einen anderen (nichts wurde geändert).",
    err_computer_name: "Der Name {name} wird abgelehnt: so wird ein Computer geschrieben (eine Stufe, allein oder mit einer Zahl wie Heuristik 3, oder Computer (Heuristik)), die anderen hielten dich für einen; bitte einen anderen wählen (nichts wurde geändert).",
    err_free_seat_name: "Der Name {name} wird abgelehnt: so heißt ein Platz, den noch niemand genommen hat (wie Freier Platz 3), die anderen hielten deinen Platz für frei; bitte einen anderen wählen (nichts wurde geändert).",
    err_mixed_script_name: "Der Name {name} wird abgelehnt: er mischt Buchstaben verschiedener Alphabete (lateinisch, kyrillisch oder griechisch), die gleich aussehen, die anderen könnten ihn für einen anderen Namen halten; bitte in einem Alphabet schreiben (nichts wurde geändert).",
    err_seat_claimed: "Der Platz dieser Einladung wurde schon von jemand anderem eingenommen; dein Beitritt als {name} wurde abgelehnt (nichts wurde geändert): du schaust zu.",
    err_other: "Der Server hat die Nachricht abgelehnt; nichts wurde geändert.",
    // a table not made (the home page): by the code of the refusal
    err_create_rules: "Die Regeln „{rules}“ werden abgelehnt; der Grund (vom Server, englisch): „{reason}“; kein Tisch wurde angelegt.",
    err_create_table_name: "Der Tischname „{name}“ wird abgelehnt: höchstens 60 Zeichen, ohne Steuer- oder Richtungszeichen; kein Tisch wurde angelegt.",
    err_create_seat_name: "Der Name auf Platz {seat} wird abgelehnt: höchstens 40 Zeichen, ohne Steuer- oder Richtungszeichen; kein Tisch wurde angelegt.",
    err_create_seat_name_taken: "Der Name auf Platz {seat} steht schon auf einem anderen Platz; jeder Platz braucht seinen eigenen Namen; kein Tisch wurde angelegt.",
    err_create_account_name: "Der Name „{seatName}“ auf Platz {seat} wird abgelehnt: er gehört einem registrierten Spieler (oder steht für ein gelöschtes Konto), und unter ihm spielt nur, wer als dieses Konto angemeldet ist; bitte einen anderen wählen (ein eingeladener Freund gibt seinen Namen beim Beitreten an); kein Tisch wurde angelegt.",
    err_create_computer_name: "Der Name „{seatName}“ auf Platz {seat} wird abgelehnt: so wird ein Computer geschrieben (eine Stufe, allein oder mit einer Zahl wie Heuristik 3, oder Computer (Heuristik)), die anderen hielten diesen Spieler für einen; bitte einen anderen wählen; kein Tisch wurde angelegt.",
    err_create_free_seat_name: "Der Name „{seatName}“ auf Platz {seat} wird abgelehnt: so heißt ein Platz, den noch niemand genommen hat (wie Freier Platz 3), die anderen hielten ihn für frei; bitte einen anderen wählen; kein Tisch wurde angelegt.",
    err_create_mixed_script_name: "Der Name „{seatName}“ auf Platz {seat} wird abgelehnt: er mischt Buchstaben verschiedener Alphabete (lateinisch, kyrillisch oder griechisch), die gleich aussehen, die anderen könnten ihn für einen anderen Namen halten; bitte in einem Alphabet schreiben; kein Tisch wurde angelegt.",
    err_create_seats: "Die Plätze passen nicht zu den Regeln; kein Tisch wurde angelegt.",
    err_create_timeout: "Die Wartezeit ist eine ganze Zahl von Sekunden von 0 bis 86400, oder -1 für nie; kein Tisch wurde angelegt.",
    err_create_storage: "Die Datenbank hat den Tisch nicht gespeichert; kein Tisch wurde angelegt.",
    err_create_other: "Der Server hat den Tisch abgelehnt; kein Tisch wurde angelegt.",
    err_create_unreachable: "Der Server ist nicht erreichbar; kein Tisch wurde angelegt.",
    end_instant: "{name} hat {tricks} Stiche in einem Spiel gemacht ({limit} oder mehr gewinnen sofort)",
    end_traditional_made: "{name} hat als Geber von Spiel {deal} sein Soll erfüllt, als erster Geber, nachdem jeder einmal gegeben hatte",
    end_traditional_beat: "{name} hat als Geber von Spiel {deal} sein Soll übertroffen, als erster Geber, nachdem jeder einmal gegeben hatte",
    end_target: "{name} hat {total} erreicht (Ziel {limit})", end_two: "; da zwei das Ziel überschritten haben, gewinnt die höhere Summe",
    end_bound: "eine Summe hat ±{limit} erreicht; die höchste Summe ({total}) gewinnt", end_deals: "nach {deals} Spielen gewinnt die höchste Summe ({total})", end_deals_one: "nach 1 Spiel gewinnt die höchste Summe ({total})",
    shared: " (geteilt)", end_left: "; {names} hat die Partie verlassen und steht deshalb auf dem letzten Platz",
    a_play: "{name} spielt {card}", a_discard: "{name} drückt {card}", a_kitty: "{name} nimmt den Skat", a_contract: "{name} sagt {c} an",
    a_give: "{name} gibt {to} {card}", a_end_give: "{name} gibt {to} nichts mehr", a_return: "{name} gibt {to} {card} zurück",
    a_assign: "{name} verteilt die Sollzahlen: {t}",
    playersLabel: "Spieler", trickLabel: "Stich", handLabel: "dein Blatt", settings: "Einstellungen", fourColour: "Vierfarbiges Blatt", oneTap: "Ein Tippen spielt eine Karte (Touchscreen)", sound: "Kartengeräusche",
    trickPause: "Ein fertiger Stich bleibt liegen für", atMost: "höchstens {n}", contractsLeft: "übrig", yourTurnShort: "du bist dran",
    toAct: "ist dran", led: "ausgespielt", wonShort: "Stich", confirm: "Bestätigen", selected: "{k} von {n} gewählt",
    selectedAll: "{k} von {n} gewählt: jetzt Bestätigen", selectedDiscard: "{k} von {n} gewählt: Bestätigen drückt sie", discardAll: "{n} Karten drücken",
    a_start: "Spiel {n}",
    account: "Konto", leaderboard: "Rangliste",
    loggedOut: "Du wurdest abgemeldet (auf diesem oder einem anderen Gerät): melde dich wieder an, um mit deinem Konto zu spielen.", logInAgain: "Anmelden",
    lobby: "Lobby", playNow: "Mit anderen spielen", clock: "Zeit pro Zug", fillLevel: "Computer für die freien Plätze", fillWait: "nach",
    quickPlay: "Schnell spielen", openTable: "Tisch eröffnen", waitingTables: "Tische, die auf Mitspieler warten",
    quickHelp: "Schnell spielen nimmt einen freien Platz an einem wartenden Tisch mit diesen Regeln (und Optionen) oder eröffnet einen; ein eröffneter Tisch wartet auf Mitspieler, und nach der gewählten Wartezeit nehmen Computer die noch freien Plätze.",
    noWaiting: "Gerade wartet kein Tisch auf Mitspieler: eröffne einen oder spiele schnell.", needName: "Gib zuerst deinen Namen ein.",
    seconds: "{n} s", minutes: "{n} min", atOnce: "sofort", clockOff: "ohne Uhr", clockIs: "{turn} pro Zug + {reserve} Reserve",
    freeSeat: "freier Platz", seatOpen: "wartet auf einen Spieler", freeSeatN: "Freier Platz {n}", fillSeats: "In {s} s nehmen Computer die freien Plätze.", clockBadge: "noch {s} s", freeSeats: "freie Plätze: {n}", seatRating: "Wertung {r} nach {n} Partien", seatProvisional: "vorläufig", rated: "gewertet", unrated: "ungewertet", ratedTip: "Gewertet: das Ergebnis ändert die Wertungen der Spieler (die Regeln sind die einer Vorgabe, und jeder Platz ist ein Konto oder ein Computer).", unratedTip: "Ungewertet: keine Wertung ändert sich (die Regeln sind keine Vorgabe, es ist ein Übungstisch, oder ein Gast ohne Konto spielt).", fillIn: "{level} in {s} s", joinTable: "Beitreten",
    err_lobby_table: "Dieser Tisch wartet nicht mehr auf Mitspieler (er hat begonnen, oder die Plätze sind vergeben); nichts wurde geändert.",
    err_lobby_rules: "Die Regeln „{rules}“ werden abgelehnt; der Grund (vom Server, englisch): „{reason}“; nichts wurde geändert.",
    err_lobby_seat_name: "Dein Name wird abgelehnt: 1 bis 40 Zeichen, ohne Steuerzeichen; nichts wurde geändert.",
    err_lobby_account_name: "Dein Name „{name}“ wird abgelehnt: er gehört einem registrierten Spieler (oder steht für ein gelöschtes Konto), und unter ihm spielt nur, wer als dieses Konto angemeldet ist; melde dich an oder wähle einen anderen; nichts wurde geändert.",
    err_lobby_computer_name: "Dein Name „{name}“ wird abgelehnt: so wird ein Computer geschrieben (eine Stufe, allein oder mit einer Zahl wie Heuristik 3, oder Computer (Heuristik)), die anderen hielten dich für einen; bitte einen anderen wählen; nichts wurde geändert.",
    err_lobby_free_seat_name: "Dein Name „{name}“ wird abgelehnt: so heißt ein Platz, den noch niemand genommen hat (wie Freier Platz 3), die anderen hielten deinen Platz für frei; bitte einen anderen wählen; nichts wurde geändert.",
    err_lobby_mixed_script_name: "Dein Name „{name}“ wird abgelehnt: er mischt Buchstaben verschiedener Alphabete (lateinisch, kyrillisch oder griechisch), die gleich aussehen, die anderen könnten ihn für einen anderen Namen halten; bitte in einem Alphabet schreiben; nichts wurde geändert.",
    err_lobby_clock: "Diese Uhr wird abgelehnt; nichts wurde geändert.", err_lobby_level: "Unbekannte Computerstufe; nichts wurde geändert.",
    err_lobby_other: "Der Server hat das Formular abgelehnt; nichts wurde geändert.", err_lobby_storage: "Die Datenbank hat es nicht gespeichert; nichts wurde geändert.",
    timeLeft: "{name}: noch {s} s", yourTime: "Deine Zeit: {s} s", heldYou: "Ein Computer spielt für dich (deine Zeit ist dreimal nacheinander abgelaufen).",
    imBack: "Ich bin zurück", leave: "Partie verlassen", leaveAsk: "Diese Partie verlassen? Ein Computer spielt deinen Platz zu Ende, und du zählst darin als Letzter.",
    leaveYes: "Verlassen", stay: "Bleiben", leftRole: "hat die Partie verlassen", youLeft: "Du hast diese Partie verlassen; du schaust zu.",
    chat: "Chat", muteChat: "Chat stumm", chatLabel: "Schnell-Chat", err_bad_chat: "Das ist kein Satz des Schnell-Chats; nichts wurde gesendet.",
    err_chat_flood: "Zu viele Sätze auf einmal; „{phrase}“ wurde nicht gesendet: warte ein paar Sekunden.", err_left: "Du hast diese Partie verlassen; nichts wurde geändert.",
    err_not_away: "Kein Computer hält deinen Platz; nichts wurde geändert.",
    chat_hello: "Hallo", chat_good_luck: "Viel Glück", chat_well_played: "Gut gespielt", chat_thanks: "Danke", chat_oops: "Hoppla",
    chat_sorry: "Entschuldigung", chat_nice_trick: "Schöner Stich", chat_one_moment: "Einen Moment, bitte", chat_good_game: "Gutes Spiel", chat_bye: "Tschüss",
  },
};
let LANG = localStorage.getItem("sm-lang") || ((navigator.language || "en").startsWith("de") ? "de" : "en");
function t(key, args) {
  let s = (STRINGS[LANG] && STRINGS[LANG][key]) || STRINGS.en[key] || key;
  // one pass over the text: a value put in (a name "{card}", "$&") is never read again as a placeholder
  if (args) s = s.replace(/\{(\w+)\}/g, (m, k) => (Object.prototype.hasOwnProperty.call(args, k) ? String(args[k]) : m));
  return s;
}
// a table's default name as stored (in the language of the page or server that made it: "Table", "Ann's table") in this
// page's language ("Tisch", "Tisch von Ann"); any other name as it is. opener: the first seat's name as stored (a lobby
// table's opener; the server names such a table "{opener}'s table", cut to 60 characters); isDefault: the server's
// name_default (false: its creator chose the name, shown as typed even when it reads "Table")
function tableNameText(name, opener, isDefault) {
  if (!isDefault) return name;
  const fill = (s, o) => s.replace("{name}", () => String(o)).slice(0, 60);
  const base = guestBase(opener);
  for (const l of Object.values(STRINGS)) {
    if (l.defTable && name === l.defTable) return t("defTable");
    if (!opener || !l.defLobbyTable) continue;
    if (name === fill(l.defLobbyTable, opener)) return fill(t("defLobbyTable"), guestName(opener));
    // the table named before the name was registered: its guest opener renamed ("Ann (guest)"), the table's name kept
    if (base !== null && name === fill(l.defLobbyTable, base)) return fill(t("defLobbyTable"), base);
  }
  return name;
}
// the mark the server gives a guest's seat under a name registered later: "Ann (guest)" or, when that is taken at the
// table, "Ann (guest 2)" (store.guest_name); guestBase is the name without it, or null for any other name
const GUEST_RE = /^([\s\S]+) \(guest(?: ([1-9][0-9]*))?\)$/;
function guestBase(n) { const m = GUEST_RE.exec(String(n || "")); return m ? m[1] : null; }
// a seat's name as stored in the page's language: a guest's suffix translated ("Ann (Gast)"), any other name as it is
function guestName(n) {
  const m = GUEST_RE.exec(String(n || ""));
  return m === null ? String(n) : m[1] + (m[2] ? t("guestSuffixN").replace("{n}", m[2]) : t("guestSuffix"));
}
function applyI18n(root) {
  document.documentElement.lang = LANG;
  (root || document).querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = t(el.dataset.i18n); });
  (root || document).querySelectorAll("[data-i18n-aria]").forEach((el) => { el.setAttribute("aria-label", t(el.dataset.i18nAria)); });
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
// every card on every page is written by cardText: rank and suit symbol (A♠, 10♣), never the code "AS"/"TC"
function cardText(card) { return card ? rankText(card[0]) + SUIT_SYM[card[1]] : ""; }
// a card's spoken name for screen readers: "queen of spades", German "Pik Dame"
const RANK_NAMES = {
  en: { 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", T: "ten", J: "jack", Q: "queen", K: "king", A: "ace" },
  de: { 2: "Zwei", 3: "Drei", 4: "Vier", 5: "Fünf", 6: "Sechs", 7: "Sieben", 8: "Acht", 9: "Neun", T: "Zehn", J: "Bube", Q: "Dame", K: "König", A: "Ass" },
};
function cardName(card) {
  if (!card) return "";
  const r = (RANK_NAMES[LANG] || RANK_NAMES.en)[card[0]];
  return LANG === "de" ? t(card[1]) + " " + r : r + " of " + t(card[1]);
}
// settings of this browser ("sm-settings"): four-colour deck, the pause after a trick (ms), one tap plays (touch),
// card sounds
const SETTINGS_DEFAULT = { fourColour: false, trickPause: 1200, oneTap: false, sound: false };
function settings() {
  let o = {};
  try { o = JSON.parse(localStorage.getItem("sm-settings") || "{}") || {}; } catch (e) { o = {}; }
  return Object.assign({}, SETTINGS_DEFAULT, o);
}
function saveSettings(o) { localStorage.setItem("sm-settings", JSON.stringify(o)); applySettings(); if (window.onSettings) window.onSettings(); }
function applySettings() { const r = document.documentElement; if (r && r.classList) r.classList.toggle("four-colour", !!settings().fourColour); }
// the four suit shapes (100 x 100 each)
const SUIT_PATHS = {
  H: "M50 92C28 72 2 52 2 29 2 13 14 2 28 2c10 0 18 6 22 15C54 8 62 2 72 2c14 0 26 11 26 27 0 23-26 43-48 63z",
  D: "M50 2 90 50 50 98 10 50z",
  S: "M50 2C62 22 98 38 98 63c0 15-11 25-24 25-9 0-16-4-20-10 1 9 5 16 14 22H32c9-6 13-13 14-22-4 6-11 10-20 10C13 88 2 78 2 63 2 38 38 22 50 2z",
  C: "M50 4a21 21 0 0 1 16 35 21 21 0 1 1 -8 34c1 11 4 18 12 25H30c8-7 11-14 12-25a21 21 0 1 1 -8-34A21 21 0 0 1 50 4z",
};
// the ink of each suit: the classic deck red and black; the four-colour deck diamonds blue and clubs green (on the
// card's white each at least 4.5:1, WCAG AA)
const INK = { classic: { S: "#161616", C: "#161616", H: "#c8102e", D: "#c8102e" }, four: { S: "#161616", C: "#0c6b2e", H: "#c8102e", D: "#0b4fc4" } };
// pip positions (column 0..2, row 0..6) of the number cards
const PIPS = {
  2: [[1, 0], [1, 6]], 3: [[1, 0], [1, 3], [1, 6]], 4: [[0, 0], [2, 0], [0, 6], [2, 6]],
  5: [[0, 0], [2, 0], [1, 3], [0, 6], [2, 6]], 6: [[0, 0], [2, 0], [0, 3], [2, 3], [0, 6], [2, 6]],
  7: [[0, 0], [2, 0], [1, 1.5], [0, 3], [2, 3], [0, 6], [2, 6]], 8: [[0, 0], [2, 0], [1, 1.5], [0, 3], [2, 3], [1, 4.5], [0, 6], [2, 6]],
  9: [[0, 0], [2, 0], [0, 2], [2, 2], [1, 3], [0, 4], [2, 4], [0, 6], [2, 6]],
  T: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2], [0, 4], [2, 4], [1, 5], [0, 6], [2, 6]],
};
// one card face as a standalone SVG image (60 x 84 units): a large index in the top left corner (rank over suit), the
// same turned in the bottom right, pips for 2-10, a framed letter for the court cards, a big suit for the ace. It is the
// background of the card's face (so its letters are no text of the page: the card's text is its hidden span)
function cardSvg(card, four) {
  const r = card[0], s = card[1], rt = rankText(r), ink = INK[four ? "four" : "classic"][s], use = (x, y, w, rot) =>
    `<use href="#p" x="${x - w / 2}" y="${y - w / 2}" width="${w}" height="${w}"${rot ? ` transform="rotate(180 ${x} ${y})"` : ""}/>`;
  const idx = `<text x="${rt.length > 1 ? 1.5 : 3.5}" y="17" font-size="17" font-weight="700" ${rt.length > 1 ? 'textLength="14" lengthAdjust="spacingAndGlyphs"' : ""}>${rt}</text>` + use(9, 26, 11);
  let mid = "";
  if (PIPS[r]) mid = PIPS[r].map(([c, w]) => use(19.5 + c * 10.5, 17 + w * 8.3, 10, w > 3)).join("");
  else if (r === "A") mid = use(30, 42, 30);
  else mid = `<rect x="16" y="11" width="28" height="62" rx="3" fill="#f3e7c4" stroke="${ink}" stroke-width=".8"/><text x="30" y="40" font-size="22" font-weight="700" text-anchor="middle">${rt}</text>` + use(30, 55, 14);
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 60 84"><defs><symbol id="p" viewBox="0 0 100 100"><path d="${SUIT_PATHS[s]}"/></symbol></defs>` +
    `<rect x=".5" y=".5" width="59" height="83" rx="5" fill="#fffdf8" stroke="#b9b4a6"/>` +
    `<g fill="${ink}" font-family="Georgia, 'DejaVu Serif', 'Times New Roman', serif">${idx}<g transform="rotate(180 30 42)">${idx}</g>${mid}</g></svg>`;
}
const FACES = {};
function faceUrl(card) {
  const four = !!settings().fourColour, k = card + (four ? "4" : "2") + LANG;
  return FACES[k] || (FACES[k] = 'url("data:image/svg+xml,' + encodeURIComponent(cardSvg(card, four)) + '")');
}
// a card: its face drawn in SVG, its text (A♠) for copying and tests in a visually hidden span, its spoken name
// ("ace of spades") as the accessible name
function cardEl(card, tag) {
  const el = document.createElement(tag || "span");
  el.className = "card s-" + card[1] + " " + (card[1] === "H" || card[1] === "D" ? "red" : "black");
  el.innerHTML = `<span class="face" aria-hidden="true"></span><span class="ct">${cardText(card)}</span>`;
  el.firstChild.style.backgroundImage = faceUrl(card);
  el.dataset.card = card;
  if (!tag || tag === "span") el.setAttribute("role", "img");
  el.setAttribute("aria-label", cardName(card));
  return el;
}
// a face-down card (a card back), or a pile of n of them with its label
function backEl(n, label) {
  const el = document.createElement("div"); el.className = "pile";
  for (let k = 0; k < Math.min(n, 4); k++) { const b = document.createElement("span"); b.className = "back"; b.style.setProperty("--k", k); el.appendChild(b); }
  const l = document.createElement("span"); l.className = "pile-label"; l.textContent = label; el.appendChild(l);
  return el;
}
function contractText(c) { return c ? (c.length === 1 ? SUIT_SYM[c] + " " + t(c) : t(c)) : t("noContract"); }
// a computer's server name ("Heuristic 3": its level and seat, stored in English) in the page's language, with the "'"
// the server adds when a person at the table has that name
function levelSeatName(level, seat, name) {
  const lv = STRINGS.en["lv_" + level] ? t("lv_" + level) : level;
  return lv.replace(/^./, (c) => c.toUpperCase()) + " " + (seat + 1) + (String(name || "").match(/'*$/)[0]);
}
// a person's seat under a default name as the server or a page in any language named it ("Me", "Me 2", "Friend 1",
// "Ich") in the page's language ("Ich", "Ich 2", "Freund 1"), as a computer's; any other name as it is, and so is a
// default name whose translation another seat of "names" (the table's, as stored) bears
function defaultSeatName(n, names) {
  n = String(n);
  const lit = (x) => x.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");  // a text matched as it is
  let out = n;
  for (const l of Object.values(STRINGS)) {
    if (!l.defMe || !l.defFriend) continue;
    const me = n.match(new RegExp("^" + lit(l.defMe) + "(?: ([1-9]))?$"));
    const fr = n.match(new RegExp("^" + lit(l.defFriend).replace("\\{n\\}", "([1-9])") + "$"));
    if (me) { out = t("defMe") + (me[1] ? " " + me[1] : ""); break; }
    if (fr) { out = t("defFriend", { n: fr[1] }); break; }
  }
  return out !== n && (names || []).some((o) => String(o).toLowerCase() === out.toLowerCase()) ? n : out;
}
// the seats' names as shown: those of "levels" (per seat a level, or null: as named) written in the page's language,
// a person's default name too, a "'" added while a person at the table has the name so written
function shownNames(names, levels) {
  const out = names.map((n, i) => (levels && levels[i] ? levelSeatName(levels[i], i, n) : guestName(defaultSeatName(n, names))));
  out.forEach((n, i) => {
    if (!levels || !levels[i]) return;
    while (out.some((o, j) => j !== i && o.toLowerCase() === out[i].toLowerCase())) out[i] += "'";
  });
  return out;
}
// a seat's kind: "human" or a computer level
function kindText(kind) { const k = "lv_" + kind; const lv = STRINGS.en[k] ? t(k) : kind; return t("computer") + " (" + lv + ")"; }
// one action (record form, with its seat) in words, in the page's language
function actionText(a, nm) {
  const name = nm[a.seat] !== undefined ? nm[a.seat] : "?", to = nm[a.to];
  if (a.play) return t("a_play", { name, card: cardText(a.play) });
  if (a.discard) return t("a_discard", { name, card: cardText(a.discard) });
  if (a.kitty) return t("a_kitty", { name });
  if (a.contract) return t("a_contract", { name, c: contractText(a.contract) });
  if (a.give) return t("a_give", { name, card: cardText(a.give), to });
  if (a.end_give) return t("a_end_give", { name, to });
  if (a.return) return t("a_return", { name, card: cardText(a.return), to });
  if (a.assign) return t("a_assign", { name, t: a.assign.map((x, i) => nm[i] + " " + x).join(", ") });
  return JSON.stringify(a);
}
// a refusal of the server ({code, reason}) in the page's language: its English reason as it is, else the text of its
// code (the English reason is kept as the element's title); args fill the text (the name refused)
function refusalText(m, args) {
  if (LANG === "en") return m.reason;
  // a failed run of the computers' moves (code storage: the database refused; server: another failure)
  const k = m.retry !== undefined ? (m.code === "storage" ? "err_retry" : "err_retry_server") : "err_" + m.code;
  return t(STRINGS[LANG] && STRINGS[LANG][k] ? k : "err_other", m.retry !== undefined ? { s: String(m.retry).replace(".", ",") } : args);
}
// the deal and what the match plays to, as the terminal's top line says them, from the table's "length" the server
// sends (web.tables.match_length): "Deal 3" or "Deal 3 of 18" (deals=N); "to 10", "to ±15" or "" (none in a match of
// one deal, which that deal alone decides)
function dealWords(n, length) { return length && length.deals ? t("dealOf", { n, m: length.deals }) : t("deal") + " " + n; }
function playsToWords(length) {
  const e = length && length.end;
  return e ? t(e.kind === "bound" ? "playsToBound" : "playsTo", { n: e.total }) : "";
}
// why the match ended, from the structured end the server sends (kind and numbers); English reason as a fallback
// (the reason names the match's winners, end.reached: one who left ranks last, and end.winners, the final ranking's
// first, won; said after the reason)
function endReason(end, nm) {
  const reached = end.reached || end.winners;
  const gone = reached.filter((w) => !end.winners.includes(w));
  return endWhy(Object.assign({}, end, { winners: reached }), nm) + (gone.length ? t("end_left", { names: gone.map((w) => nm[w]).join(", ") }) : "");
}
function endWhy(end, nm) {
  const name = end.winners.map((w) => nm[w]).join(", ");
  const a = Object.assign({ name }, end);
  if (end.kind === "instant") return t("end_instant", a);
  if (end.kind === "traditional") return t(end.verb === "beat" ? "end_traditional_beat" : "end_traditional_made", a);
  if (end.kind === "target") return t("end_target", a) + (end.two ? t("end_two") : "");
  if (end.kind === "bound") return t("end_bound", a);
  if (end.kind === "deals") return t(end.deals === 1 ? "end_deals_one" : "end_deals", a) + (end.winners.length > 1 ? t("shared") : "");
  return end.reason;
}
// tokens: one seat per table is this browser's own ("sm-tokens": table -> token); seats it held before at a
// table are kept too ("sm-tokens-more") so that My games still lists them
function tokens() { try { return JSON.parse(localStorage.getItem("sm-tokens") || "{}"); } catch (e) { return {}; } }
function moreTokens() { try { const l = JSON.parse(localStorage.getItem("sm-tokens-more") || "[]"); return Array.isArray(l) ? l : []; } catch (e) { return []; } }
function allTokens() { return Array.from(new Set(Object.values(tokens()).concat(moreTokens()))); }
function saveToken(table, token) {
  const m = tokens(); const old = m[table];
  if (old && old !== token) { const l = moreTokens(); if (!l.includes(old)) l.push(old); localStorage.setItem("sm-tokens-more", JSON.stringify(l)); }
  m[table] = token; localStorage.setItem("sm-tokens", JSON.stringify(m));
}
function esc(s) { const d = document.createElement("span"); d.textContent = String(s); return d.innerHTML; }
// whether a match is rated (the server's rule, web/ratings.py): a badge whose title says what that means
function ratedBadge(rated) {
  const k = rated ? "rated" : "unrated";
  return `<span id="rated" class="rated-badge ${k}" title="${esc(t(k + "Tip"))}">${esc(t(k))}</span>`;
}
applySettings();
document.addEventListener("DOMContentLoaded", () => { applyI18n(); langButton(); });
