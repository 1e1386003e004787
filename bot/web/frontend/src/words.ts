// The page's own words, in the languages the bot speaks; what the server refuses comes with its
// own sentence, which the server writes in the language the page names in its watch frame.

import type { Side } from "./protocol";

interface Words {
  white: string;
  black: string;
  board: string;
  empty: string;
  piece: (side: Side) => string;
  selectable: string;
  closed: Readonly<Record<number, string>>;
  reasons: Readonly<Record<string, string>>;
  wins: (side: Side, why: string) => string;
  drawn: (why: string) => string;
  watching: (count: number) => string;
  noToken: string;
  connecting: string;
  reconnecting: string;
  yourTurn: string;
  placePiece: string;
  toMove: (side: Side) => string;
  you: string;
  waitingOpponent: string;
  paused: string;
  noClock: string;
  moves: string;
  score: (white: number, black: number, game: number, games: number) => string;
  activityStarting: string;
  activityNoGame: string;
  activityWatchingOff: string;
  activityNotInInstance: string;
  activityFailed: string;
  invite: string;
  share: string;
  shareNotOver: string;
  shareExpired: string;
  shareFailed: string;
  here: (names: string[]) => string;
}

const ENGLISH: Words = {
  white: "White",
  black: "Black",
  board: "Board",
  empty: "empty",
  piece: (side) => `${side} piece`,
  selectable: "selectable",
  closed: {
    4400: "The page did not start watching in time. Reload it to watch again.",
    4401: "This link has expired or is not valid. Ask for a new one with /jarmo watch.",
    4403: "Watching games is switched off in this server.",
    4408: "The page sent too many messages and was disconnected. Reload it to watch again.",
  },
  reasons: {
    finished: "the game is over",
    resigned: "by resignation",
    stopped: "the game was stopped",
    aborted: "the game was aborted",
    timeout: "on time",
  },
  wins: (side, why) => `${side === "white" ? "White" : "Black"} wins (${why})`,
  drawn: (why) => `Drawn (${why})`,
  watching: (count) => (count === 1 ? "1 watching" : `${count} watching`),
  noToken: "This page needs a link from /jarmo watch in Discord.",
  connecting: "Connecting…",
  reconnecting: "Connection lost. Reconnecting…",
  yourTurn: "Your turn: pick a piece, then where it goes.",
  placePiece: "Now pick where the piece is placed.",
  toMove: (side) => `${side === "white" ? "White" : "Black"} to move`,
  you: "you",
  waitingOpponent: "Waiting for an opponent.",
  paused: "paused",
  noClock: "no time limit",
  moves: "Moves",
  score: (white, black, game, games) => `Score ${white}–${black} · game ${game} of ${games}`,
  activityStarting: "Starting the Activity…",
  activityNoGame: "No game is being played in this channel yet. Start one with /jarmo play, or invite others.",
  activityWatchingOff: "Watching games is switched off in this server.",
  activityNotInInstance: "You are not in this Activity's channel.",
  activityFailed: "The Activity could not start. Close it and open it again.",
  invite: "Invite",
  share: "Share",
  shareNotOver: "The game is not over yet: its final position can be shared once it has ended.",
  shareExpired: "This Activity's sign-in has expired. Close it and open it again to share.",
  shareFailed: "Discord did not take the picture. Try again in a moment.",
  here: (names) => `Here: ${names.join(", ")}`,
};

const GERMAN: Words = {
  white: "Weiß",
  black: "Schwarz",
  board: "Brett",
  empty: "leer",
  piece: (side) => (side === "white" ? "weißer Stein" : "schwarzer Stein"),
  selectable: "wählbar",
  closed: {
    4400: "Die Seite hat nicht rechtzeitig zu beobachten begonnen. Lade sie neu, um weiter zuzusehen.",
    4401: "Dieser Link ist abgelaufen oder ungültig. Hol dir mit /jarmo watch einen neuen.",
    4403: "Das Beobachten von Partien ist auf diesem Server ausgeschaltet.",
    4408: "Die Seite hat zu viele Nachrichten gesendet und wurde getrennt. Lade sie neu, um weiter zuzusehen.",
  },
  reasons: {
    finished: "die Partie ist zu Ende",
    resigned: "durch Aufgabe",
    stopped: "die Partie wurde beendet",
    aborted: "die Partie wurde abgebrochen",
    timeout: "auf Zeit",
  },
  wins: (side, why) => `${side === "white" ? "Weiß" : "Schwarz"} gewinnt (${why})`,
  drawn: (why) => `Unentschieden (${why})`,
  watching: (count) => `${count} sehen zu`,
  noToken: "Diese Seite braucht einen Link von /jarmo watch in Discord.",
  connecting: "Verbinde…",
  reconnecting: "Verbindung verloren. Verbinde neu…",
  yourTurn: "Du bist am Zug: Wähle einen Stein, dann sein Ziel.",
  placePiece: "Wähle jetzt, wohin der Stein gesetzt wird.",
  toMove: (side) => `${side === "white" ? "Weiß" : "Schwarz"} ist am Zug`,
  you: "du",
  waitingOpponent: "Wartet auf einen Gegner.",
  paused: "angehalten",
  noClock: "ohne Zeitlimit",
  moves: "Züge",
  score: (white, black, game, games) => `Stand ${white}–${black} · Partie ${game} von ${games}`,
  activityStarting: "Die Aktivität startet…",
  activityNoGame: "In diesem Kanal wird noch keine Partie gespielt. Starte eine mit /jarmo play oder lade andere ein.",
  activityWatchingOff: "Das Beobachten von Partien ist auf diesem Server ausgeschaltet.",
  activityNotInInstance: "Du bist nicht im Kanal dieser Aktivität.",
  activityFailed: "Die Aktivität konnte nicht starten. Schließe sie und öffne sie erneut.",
  invite: "Einladen",
  share: "Teilen",
  shareNotOver: "Die Partie läuft noch: Ihre Schlussstellung lässt sich teilen, sobald sie zu Ende ist.",
  shareExpired: "Die Anmeldung dieser Aktivität ist abgelaufen. Schließe sie und öffne sie erneut, um zu teilen.",
  shareFailed: "Discord hat das Bild nicht angenommen. Versuche es gleich noch einmal.",
  here: (names) => `Hier: ${names.join(", ")}`,
};

const ESPERANTO: Words = {
  white: "Blanko",
  black: "Nigro",
  board: "Tabulo",
  empty: "malplena",
  piece: (side) => (side === "white" ? "blanka peco" : "nigra peco"),
  selectable: "elektebla",
  closed: {
    4400: "La paĝo ne ekspektis ĝustatempe. Reŝargu ĝin por denove spekti.",
    4401: "Ĉi tiu ligilo eksvalidiĝis aŭ ne validas. Petu novan per /jarmo watch.",
    4403: "Spektado de ludoj estas malŝaltita en ĉi tiu servilo.",
    4408: "La paĝo sendis tro multajn mesaĝojn kaj estis malkonektita. Reŝargu ĝin por denove spekti.",
  },
  reasons: {
    finished: "la ludo finiĝis",
    resigned: "per rezigno",
    stopped: "la ludo estis ĉesigita",
    aborted: "la ludo estis nuligita",
    timeout: "pro tempo",
  },
  wins: (side, why) => `${side === "white" ? "Blanko" : "Nigro"} venkas (${why})`,
  drawn: (why) => `Egalludo (${why})`,
  watching: (count) => `${count} spektas`,
  noToken: "Ĉi tiu paĝo bezonas ligilon de /jarmo watch en Discord.",
  connecting: "Konektante…",
  reconnecting: "Konekto perdiĝis. Rekonektante…",
  yourTurn: "Via vico: elektu pecon, poste kien ĝi iru.",
  placePiece: "Nun elektu, kien la peco estu metita.",
  toMove: (side) => `${side === "white" ? "Blanko" : "Nigro"} movu`,
  you: "vi",
  waitingOpponent: "Atendante kontraŭulon.",
  paused: "paŭzita",
  noClock: "sen tempolimo",
  moves: "Movoj",
  score: (white, black, game, games) => `Poentoj ${white}–${black} · ludo ${game} el ${games}`,
  activityStarting: "La Aktivaĵo startas…",
  activityNoGame: "En ĉi tiu kanalo ankoraŭ neniu ludo okazas. Komencu unu per /jarmo play, aŭ invitu aliajn.",
  activityWatchingOff: "Spektado de ludoj estas malŝaltita en ĉi tiu servilo.",
  activityNotInInstance: "Vi ne estas en la kanalo de ĉi tiu Aktivaĵo.",
  activityFailed: "La Aktivaĵo ne povis starti. Fermu ĝin kaj malfermu ĝin denove.",
  invite: "Inviti",
  share: "Kunhavigi",
  shareNotOver: "La ludo ankoraŭ ne finiĝis: ĝian finan pozicion eblos kunhavigi post ĝia fino.",
  shareExpired: "La ensaluto de ĉi tiu Aktivaĵo eksvalidiĝis. Fermu ĝin kaj malfermu ĝin denove por kunhavigi.",
  shareFailed: "Discord ne akceptis la bildon. Reprovu post momento.",
  here: (names) => `Ĉi tie: ${names.join(", ")}`,
};

const POLISH: Words = {
  white: "Białe",
  black: "Czarne",
  board: "Plansza",
  empty: "puste",
  piece: (side) => (side === "white" ? "biały pionek" : "czarny pionek"),
  selectable: "do wyboru",
  closed: {
    4400: "Strona nie zaczęła obserwować na czas. Odśwież ją, aby znów oglądać.",
    4401: "Ten link wygasł lub jest nieprawidłowy. Poproś o nowy przez /jarmo watch.",
    4403: "Obserwowanie partii jest wyłączone na tym serwerze.",
    4408: "Strona wysłała zbyt wiele wiadomości i została rozłączona. Odśwież ją, aby znów oglądać.",
  },
  reasons: {
    finished: "partia dobiegła końca",
    resigned: "przez poddanie",
    stopped: "partię zakończono",
    aborted: "partię przerwano",
    timeout: "na czas",
  },
  wins: (side, why) => `${side === "white" ? "Białe" : "Czarne"} wygrywają (${why})`,
  drawn: (why) => `Remis (${why})`,
  watching: (count) => `Oglądający: ${count}`,
  noToken: "Ta strona wymaga linku z /jarmo watch na Discordzie.",
  connecting: "Łączenie…",
  reconnecting: "Utracono połączenie. Ponowne łączenie…",
  yourTurn: "Twój ruch: wybierz pionek, a potem jego cel.",
  placePiece: "Teraz wybierz, gdzie postawić pionek.",
  toMove: (side) => `Ruch: ${side === "white" ? "białe" : "czarne"}`,
  you: "ty",
  waitingOpponent: "Czeka na przeciwnika.",
  paused: "wstrzymany",
  noClock: "bez limitu czasu",
  moves: "Ruchy",
  score: (white, black, game, games) => `Wynik ${white}–${black} · partia ${game} z ${games}`,
  activityStarting: "Uruchamianie aktywności…",
  activityNoGame: "Na tym kanale nie toczy się jeszcze żadna partia. Zacznij ją przez /jarmo play albo zaproś innych.",
  activityWatchingOff: "Obserwowanie partii jest wyłączone na tym serwerze.",
  activityNotInInstance: "Nie jesteś na kanale tej aktywności.",
  activityFailed: "Nie udało się uruchomić aktywności. Zamknij ją i otwórz ponownie.",
  invite: "Zaproś",
  share: "Udostępnij",
  shareNotOver: "Partia jeszcze trwa: jej końcową pozycję można udostępnić, gdy się zakończy.",
  shareExpired: "Logowanie tej aktywności wygasło. Zamknij ją i otwórz ponownie, aby udostępnić.",
  shareFailed: "Discord nie przyjął obrazu. Spróbuj ponownie za chwilę.",
  here: (names) => `Tutaj: ${names.join(", ")}`,
};

const LANGUAGES: Readonly<Record<string, Words>> = { en: ENGLISH, de: GERMAN, eo: ESPERANTO, pl: POLISH };

/** The page's language: the browser's first one the bot speaks, else English. */
export const LANGUAGE: string =
  (navigator.languages.length > 0 ? navigator.languages : [navigator.language])
    .map((tag) => tag.slice(0, 2).toLowerCase())
    .find((code) => code in LANGUAGES) ?? "en";

export const TEXT: Words = LANGUAGES[LANGUAGE] ?? ENGLISH;

export function sideName(side: Side): string {
  return side === "white" ? TEXT.white : TEXT.black;
}

export function pieceLabel(point: string, side: Side | null, clickable: boolean): string {
  const what = side === null ? TEXT.empty : TEXT.piece(side);
  return clickable ? `${point}, ${what}, ${TEXT.selectable}` : `${point}, ${what}`;
}

export function resultText(winner: Side | null, reason: string): string {
  const why = TEXT.reasons[reason] ?? reason;
  return winner === null ? TEXT.drawn(why) : TEXT.wins(winner, why);
}
