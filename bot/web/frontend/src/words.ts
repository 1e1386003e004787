// The page's own words, in the languages the bot speaks; what the server refuses comes with its
// own sentence, which the server writes in the language the page names in its watch frame.

import type { ServerRefusal, Side } from "./protocol";

/** A short heading and what it stands for (a table's column). */
interface Abbreviation {
  short: string;
  long: string;
}

/** The server pages' words: the leaderboards, the recent games with their replay, the tournaments. */
interface ServerWords {
  title: string;
  leaderboards: string;
  recentGames: string;
  tournaments: string;
  loading: string;
  noToken: string;
  refusals: Readonly<Record<ServerRefusal, string>>;
  noRatings: string;
  noGames: string;
  noTournaments: string;
  noEntrants: string;
  rank: string;
  player: string;
  rating: string;
  games: string;
  record: Abbreviation;
  matchPoints: Abbreviation;
  gamePoints: Abbreviation;
  buchholz: Abbreviation;
  sonnebornBerger: Abbreviation;
  round: (round: number) => Abbreviation;
  outcomes: Readonly<Record<string, string>>;
  forfeit: Abbreviation;
  bye: string;
  withdrawn: string;
  legend: string;
  formats: Readonly<Record<string, string>>;
  signup: string;
  running: (round: number, rounds: number) => string;
  finished: string;
  finishedOn: (date: string) => string;
  plies: (count: number) => string;
  points: (white: number, black: number) => string;
  replayTitle: (white: string, black: string) => string;
  toStart: string;
  back: string;
  forward: string;
  toEnd: string;
  close: string;
  start: string;
  atMove: (move: number, moves: number, text: string) => string;
  reserve: (white: string, whiteCount: number, black: string, blackCount: number) => string;
  keys: string;
}

const ENGLISH_SERVER: ServerWords = {
  title: "Ratings, games and tournaments",
  leaderboards: "Leaderboards",
  recentGames: "Recent games",
  tournaments: "Tournaments",
  loading: "Loading…",
  noToken: "This page needs a link from /jarmo leaderboard in Discord.",
  refusals: {
    bad_token: "This link is not valid. Ask for a new one with /jarmo leaderboard in Discord.",
    expired_token: "This link has expired. Ask for a new one with /jarmo leaderboard in Discord.",
    web_pages_off: "This server's web page is switched off. A server manager can switch it on with /jarmo server web on.",
    bad_request: "The server did not understand the page's request. Reload the page to try again.",
    no_game: "That game was not found: it may have been deleted. Pick another one.",
    unreachable: "The server could not be reached. Check your connection and reload the page.",
    other: "Something went wrong on the server. Reload the page to try again.",
  },
  noRatings: "Nobody has a rating here yet: ratings come with finished games.",
  noGames: "No game has finished here yet.",
  noTournaments: "No tournaments yet.",
  noEntrants: "Nobody has signed up yet.",
  rank: "#",
  player: "Player",
  rating: "Rating",
  games: "Games",
  record: { short: "W–L–D", long: "won–lost–drawn" },
  matchPoints: { short: "MP", long: "match points" },
  gamePoints: { short: "GP", long: "game points" },
  buchholz: { short: "BH", long: "Buchholz" },
  sonnebornBerger: { short: "SB", long: "Sonneborn-Berger" },
  round: (round) => ({ short: `R${round}`, long: `Round ${round}` }),
  outcomes: { win: "won against", loss: "lost to", draw: "drew with", "forfeit-win": "won by forfeit against", "forfeit-loss": "lost by forfeit to" },
  forfeit: { short: "ff", long: "by forfeit" },
  bye: "bye",
  withdrawn: "withdrawn",
  legend: "MP match points · GP game points · BH Buchholz · SB Sonneborn-Berger · + won, = drawn, − lost · ff by forfeit",
  formats: { swiss: "Swiss", round_robin: "Round robin", "round-robin": "Round robin" },
  signup: "Open for sign-up",
  running: (round, rounds) => `Round ${round} of ${rounds}`,
  finished: "Finished",
  finishedOn: (date) => `Finished ${date}`,
  plies: (count) => (count === 1 ? "1 move" : `${count} moves`),
  points: (white, black) => `Points ${white}–${black}`,
  replayTitle: (white, black) => `${white} against ${black}`,
  toStart: "To the start",
  back: "One move back",
  forward: "One move forward",
  toEnd: "To the end",
  close: "Close",
  start: "Start position",
  atMove: (move, moves, text) => `Move ${move} of ${moves}: ${text}`,
  reserve: (white, whiteCount, black, blackCount) => `In reserve: ${white} ${whiteCount} · ${black} ${blackCount}`,
  keys: "The arrow keys ← → step through the moves; Home and End jump to the start and the end.",
};

const GERMAN_SERVER: ServerWords = {
  title: "Wertungen, Partien und Turniere",
  leaderboards: "Ranglisten",
  recentGames: "Letzte Partien",
  tournaments: "Turniere",
  loading: "Lädt…",
  noToken: "Diese Seite braucht einen Link von /jarmo leaderboard in Discord.",
  refusals: {
    bad_token: "Dieser Link ist ungültig. Hol dir mit /jarmo leaderboard in Discord einen neuen.",
    expired_token: "Dieser Link ist abgelaufen. Hol dir mit /jarmo leaderboard in Discord einen neuen.",
    web_pages_off: "Die Webseite dieses Servers ist ausgeschaltet. Wer den Server verwaltet, kann sie mit /jarmo server web on einschalten.",
    bad_request: "Der Server hat die Anfrage der Seite nicht verstanden. Lade die Seite neu, um es noch einmal zu versuchen.",
    no_game: "Diese Partie wurde nicht gefunden, vielleicht wurde sie gelöscht. Wähle eine andere.",
    unreachable: "Der Server ist nicht erreichbar. Prüfe deine Verbindung und lade die Seite neu.",
    other: "Auf dem Server ist etwas schiefgegangen. Lade die Seite neu, um es noch einmal zu versuchen.",
  },
  noRatings: "Hier hat noch niemand eine Wertung: Wertungen gibt es für beendete Partien.",
  noGames: "Hier wurde noch keine Partie beendet.",
  noTournaments: "Noch keine Turniere.",
  noEntrants: "Noch hat sich niemand angemeldet.",
  rank: "#",
  player: "Spieler",
  rating: "Wertung",
  games: "Partien",
  record: { short: "S–N–R", long: "Siege–Niederlagen–Remis" },
  matchPoints: { short: "MP", long: "Matchpunkte" },
  gamePoints: { short: "PP", long: "Partiepunkte" },
  buchholz: { short: "BH", long: "Buchholz" },
  sonnebornBerger: { short: "SB", long: "Sonneborn-Berger" },
  round: (round) => ({ short: `R${round}`, long: `Runde ${round}` }),
  outcomes: { win: "gewonnen gegen", loss: "verloren gegen", draw: "remis gegen", "forfeit-win": "kampflos gewonnen gegen", "forfeit-loss": "kampflos verloren gegen" },
  forfeit: { short: "kl", long: "kampflos" },
  bye: "spielfrei",
  withdrawn: "zurückgezogen",
  legend: "MP Matchpunkte · PP Partiepunkte · BH Buchholz · SB Sonneborn-Berger · + gewonnen, = remis, − verloren · kl kampflos",
  formats: { swiss: "Schweizer System", round_robin: "Rundenturnier", "round-robin": "Rundenturnier" },
  signup: "Anmeldung offen",
  running: (round, rounds) => `Runde ${round} von ${rounds}`,
  finished: "Beendet",
  finishedOn: (date) => `Beendet am ${date}`,
  plies: (count) => (count === 1 ? "1 Zug" : `${count} Züge`),
  points: (white, black) => `Punkte ${white}–${black}`,
  replayTitle: (white, black) => `${white} gegen ${black}`,
  toStart: "Zum Anfang",
  back: "Einen Zug zurück",
  forward: "Einen Zug vor",
  toEnd: "Zum Ende",
  close: "Schließen",
  start: "Ausgangsstellung",
  atMove: (move, moves, text) => `Zug ${move} von ${moves}: ${text}`,
  reserve: (white, whiteCount, black, blackCount) => `In Reserve: ${white} ${whiteCount} · ${black} ${blackCount}`,
  keys: "Die Pfeiltasten ← → gehen durch die Züge; Pos1 und Ende springen zum Anfang und zum Ende.",
};

const ESPERANTO_SERVER: ServerWords = {
  title: "Taksoj, partioj kaj turniroj",
  leaderboards: "Rangolistoj",
  recentGames: "Lastaj partioj",
  tournaments: "Turniroj",
  loading: "Ŝargante…",
  noToken: "Ĉi tiu paĝo bezonas ligilon de /jarmo leaderboard en Discord.",
  refusals: {
    bad_token: "Ĉi tiu ligilo ne validas. Petu novan per /jarmo leaderboard en Discord.",
    expired_token: "Ĉi tiu ligilo eksvalidiĝis. Petu novan per /jarmo leaderboard en Discord.",
    web_pages_off: "La retpaĝo de ĉi tiu servilo estas malŝaltita. Administranto de la servilo povas ŝalti ĝin per /jarmo server web on.",
    bad_request: "La servilo ne komprenis la peton de la paĝo. Reŝargu la paĝon por reprovi.",
    no_game: "Tiu partio ne troviĝis, eble ĝi estis forigita. Elektu alian.",
    unreachable: "La servilo ne estas atingebla. Kontrolu vian konekton kaj reŝargu la paĝon.",
    other: "Io misfunkciis en la servilo. Reŝargu la paĝon por reprovi.",
  },
  noRatings: "Ankoraŭ neniu havas takson ĉi tie: taksoj venas kun finitaj partioj.",
  noGames: "Ankoraŭ neniu partio finiĝis ĉi tie.",
  noTournaments: "Ankoraŭ neniuj turniroj.",
  noEntrants: "Ankoraŭ neniu aliĝis.",
  rank: "#",
  player: "Ludanto",
  rating: "Takso",
  games: "Partioj",
  record: { short: "V–M–E", long: "venkoj–malvenkoj–egaloj" },
  matchPoints: { short: "MP", long: "matĉpoentoj" },
  gamePoints: { short: "PP", long: "partipoentoj" },
  buchholz: { short: "BH", long: "Buchholz" },
  sonnebornBerger: { short: "SB", long: "Sonneborn-Berger" },
  round: (round) => ({ short: `R${round}`, long: `Rondo ${round}` }),
  outcomes: { win: "venkis kontraŭ", loss: "malvenkis kontraŭ", draw: "egalis kontraŭ", "forfeit-win": "senlude venkis kontraŭ", "forfeit-loss": "senlude malvenkis kontraŭ" },
  forfeit: { short: "sl", long: "senlude" },
  bye: "libera",
  withdrawn: "retiriĝis",
  legend: "MP matĉpoentoj · PP partipoentoj · BH Buchholz · SB Sonneborn-Berger · + venko, = egalo, − malvenko · sl senlude",
  formats: { swiss: "Svisa sistemo", round_robin: "Ĉiu kontraŭ ĉiu", "round-robin": "Ĉiu kontraŭ ĉiu" },
  signup: "Aliĝo malfermita",
  running: (round, rounds) => `Rondo ${round} el ${rounds}`,
  finished: "Finiĝis",
  finishedOn: (date) => `Finiĝis je ${date}`,
  plies: (count) => (count === 1 ? "1 movo" : `${count} movoj`),
  points: (white, black) => `Poentoj ${white}–${black}`,
  replayTitle: (white, black) => `${white} kontraŭ ${black}`,
  toStart: "Al la komenco",
  back: "Unu movon reen",
  forward: "Unu movon antaŭen",
  toEnd: "Al la fino",
  close: "Fermi",
  start: "Komenca pozicio",
  atMove: (move, moves, text) => `Movo ${move} el ${moves}: ${text}`,
  reserve: (white, whiteCount, black, blackCount) => `En rezervo: ${white} ${whiteCount} · ${black} ${blackCount}`,
  keys: "La sagoklavoj ← → paŝas tra la movoj; Hejmen kaj Fino saltas al la komenco kaj al la fino.",
};

/** Polish counts: 1 ruch, 2–4 ruchy (not 12–14), else ruchów. */
function polishMoves(count: number): string {
  const tens = count % 100;
  const ones = count % 10;
  if (count === 1) {
    return "1 ruch";
  }
  return ones >= 2 && ones <= 4 && (tens < 12 || tens > 14) ? `${count} ruchy` : `${count} ruchów`;
}

const POLISH_SERVER: ServerWords = {
  title: "Rankingi, partie i turnieje",
  leaderboards: "Rankingi",
  recentGames: "Ostatnie partie",
  tournaments: "Turnieje",
  loading: "Wczytywanie…",
  noToken: "Ta strona wymaga linku z /jarmo leaderboard na Discordzie.",
  refusals: {
    bad_token: "Ten link jest nieprawidłowy. Poproś o nowy przez /jarmo leaderboard na Discordzie.",
    expired_token: "Ten link wygasł. Poproś o nowy przez /jarmo leaderboard na Discordzie.",
    web_pages_off: "Strona internetowa tego serwera jest wyłączona. Zarządzający serwerem może ją włączyć przez /jarmo server web on.",
    bad_request: "Serwer nie zrozumiał żądania strony. Odśwież stronę, aby spróbować ponownie.",
    no_game: "Nie znaleziono tej partii, być może została usunięta. Wybierz inną.",
    unreachable: "Nie można połączyć się z serwerem. Sprawdź połączenie i odśwież stronę.",
    other: "Coś poszło nie tak na serwerze. Odśwież stronę, aby spróbować ponownie.",
  },
  noRatings: "Nikt tu jeszcze nie ma rankingu: punkty rankingowe dają ukończone partie.",
  noGames: "Nie zakończono tu jeszcze żadnej partii.",
  noTournaments: "Nie ma jeszcze turniejów.",
  noEntrants: "Nikt się jeszcze nie zapisał.",
  rank: "#",
  player: "Gracz",
  rating: "Ranking",
  games: "Partie",
  record: { short: "W–P–R", long: "wygrane–przegrane–remisy" },
  matchPoints: { short: "PM", long: "punkty meczowe" },
  gamePoints: { short: "PP", long: "punkty partii" },
  buchholz: { short: "BH", long: "Buchholz" },
  sonnebornBerger: { short: "SB", long: "Sonneborn-Berger" },
  round: (round) => ({ short: `R${round}`, long: `Runda ${round}` }),
  outcomes: { win: "wygrana z", loss: "przegrana z", draw: "remis z", "forfeit-win": "wygrana walkowerem z", "forfeit-loss": "przegrana walkowerem z" },
  forfeit: { short: "wo", long: "walkowerem" },
  bye: "pauza",
  withdrawn: "wycofany",
  legend: "PM punkty meczowe · PP punkty partii · BH Buchholz · SB Sonneborn-Berger · + wygrana, = remis, − przegrana · wo walkowerem",
  formats: { swiss: "System szwajcarski", round_robin: "Każdy z każdym", "round-robin": "Każdy z każdym" },
  signup: "Zapisy otwarte",
  running: (round, rounds) => `Runda ${round} z ${rounds}`,
  finished: "Zakończony",
  finishedOn: (date) => `Zakończony ${date}`,
  plies: polishMoves,
  points: (white, black) => `Punkty ${white}–${black}`,
  replayTitle: (white, black) => `${white} przeciw ${black}`,
  toStart: "Na początek",
  back: "Ruch wstecz",
  forward: "Ruch naprzód",
  toEnd: "Na koniec",
  close: "Zamknij",
  start: "Pozycja początkowa",
  atMove: (move, moves, text) => `Ruch ${move} z ${moves}: ${text}`,
  reserve: (white, whiteCount, black, blackCount) => `W rezerwie: ${white} ${whiteCount} · ${black} ${blackCount}`,
  keys: "Strzałki ← → przechodzą przez ruchy; Home i End skaczą na początek i na koniec.",
};

interface Words {
  white: string;
  black: string;
  /** Ludos calls its sides green and blue. */
  green: string;
  blue: string;
  board: string;
  empty: string;
  piece: (side: Side) => string;
  selectable: string;
  closed: Readonly<Record<number, string>>;
  reasons: Readonly<Record<string, string>>;
  wins: (side: string, why: string) => string;
  drawn: (why: string) => string;
  watching: (count: number) => string;
  noToken: string;
  connecting: string;
  reconnecting: string;
  yourTurn: string;
  placePiece: string;
  toMove: (side: string) => string;
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
  server: ServerWords;
}

const ENGLISH: Words = {
  white: "White",
  black: "Black",
  green: "Green",
  blue: "Blue",
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
  wins: (side, why) => `${side} wins (${why})`,
  drawn: (why) => `Drawn (${why})`,
  watching: (count) => (count === 1 ? "1 watching" : `${count} watching`),
  noToken: "This page needs a link from /jarmo watch in Discord.",
  connecting: "Connecting…",
  reconnecting: "Connection lost. Reconnecting…",
  yourTurn: "Your turn: pick a piece, then where it goes.",
  placePiece: "Now pick where the piece is placed.",
  toMove: (side) => `${side} to move`,
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
  server: ENGLISH_SERVER,
};

const GERMAN: Words = {
  white: "Weiß",
  black: "Schwarz",
  green: "Grün",
  blue: "Blau",
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
  wins: (side, why) => `${side} gewinnt (${why})`,
  drawn: (why) => `Unentschieden (${why})`,
  watching: (count) => `${count} sehen zu`,
  noToken: "Diese Seite braucht einen Link von /jarmo watch in Discord.",
  connecting: "Verbinde…",
  reconnecting: "Verbindung verloren. Verbinde neu…",
  yourTurn: "Du bist am Zug: Wähle einen Stein, dann sein Ziel.",
  placePiece: "Wähle jetzt, wohin der Stein gesetzt wird.",
  toMove: (side) => `${side} ist am Zug`,
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
  server: GERMAN_SERVER,
};

const ESPERANTO: Words = {
  white: "Blanko",
  black: "Nigro",
  green: "Verdo",
  blue: "Bluo",
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
  wins: (side, why) => `${side} venkas (${why})`,
  drawn: (why) => `Egalludo (${why})`,
  watching: (count) => `${count} spektas`,
  noToken: "Ĉi tiu paĝo bezonas ligilon de /jarmo watch en Discord.",
  connecting: "Konektante…",
  reconnecting: "Konekto perdiĝis. Rekonektante…",
  yourTurn: "Via vico: elektu pecon, poste kien ĝi iru.",
  placePiece: "Nun elektu, kien la peco estu metita.",
  toMove: (side) => `${side} movu`,
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
  server: ESPERANTO_SERVER,
};

const POLISH: Words = {
  white: "Białe",
  black: "Czarne",
  green: "Zielone",
  blue: "Niebieskie",
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
  wins: (side, why) => `${side} wygrywają (${why})`,
  drawn: (why) => `Remis (${why})`,
  watching: (count) => `Oglądający: ${count}`,
  noToken: "Ta strona wymaga linku z /jarmo watch na Discordzie.",
  connecting: "Łączenie…",
  reconnecting: "Utracono połączenie. Ponowne łączenie…",
  yourTurn: "Twój ruch: wybierz pionek, a potem jego cel.",
  placePiece: "Teraz wybierz, gdzie postawić pionek.",
  toMove: (side) => `Ruch: ${side.toLowerCase()}`,
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
  server: POLISH_SERVER,
};

const LANGUAGES: Readonly<Record<string, Words>> = { en: ENGLISH, de: GERMAN, eo: ESPERANTO, pl: POLISH };

/** The page's language: the browser's first one the bot speaks, else English. */
export const LANGUAGE: string =
  (navigator.languages.length > 0 ? navigator.languages : [navigator.language])
    .map((tag) => tag.slice(0, 2).toLowerCase())
    .find((code) => code in LANGUAGES) ?? "en";

export const TEXT: Words = LANGUAGES[LANGUAGE] ?? ENGLISH;

/** What players read for ``side``: white and black, but green and blue in ludos. */
export function sideName(side: Side, ruleset = "classic"): string {
  if (ruleset === "ludos") {
    return side === "white" ? TEXT.green : TEXT.blue;
  }
  return side === "white" ? TEXT.white : TEXT.black;
}

export function pieceLabel(point: string, side: Side | null, clickable: boolean): string {
  const what = side === null ? TEXT.empty : TEXT.piece(side);
  return clickable ? `${point}, ${what}, ${TEXT.selectable}` : `${point}, ${what}`;
}

export function resultText(winner: Side | null, reason: string, ruleset = "classic"): string {
  const why = TEXT.reasons[reason] ?? reason;
  return winner === null ? TEXT.drawn(why) : TEXT.wins(sideName(winner, ruleset), why);
}
