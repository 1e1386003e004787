// One bundle for every page: /watch (a link with the token in its fragment), / (the Activity)
// and /server (a server's leaderboards, games and tournaments, a link with the token too).

import { startActivity } from "./activity";
import { LivePage } from "./live";
import { ServerPage } from "./server";
import { LANGUAGE, TEXT } from "./words";

/**
 * The link's token; it leaves the address bar at once, so it is not kept in history or shown on screen.
 * A new link opened in this tab changes only the fragment: the page is loaded again to read it.
 */
function takeToken(): string {
  window.addEventListener("hashchange", () => location.reload());
  const token = location.hash.slice(1);
  history.replaceState(null, "", location.pathname + location.search);
  return token;
}

function main(): void {
  document.documentElement.lang = LANGUAGE;
  const root = document.getElementById("app");
  if (root === null) {
    return;
  }
  const message = document.getElementById("message");
  const say = (text: string): void => {
    if (message !== null) {
      message.textContent = text;
    }
  };
  if (location.pathname === "/server") {
    const title = `Jarmo · ${TEXT.server.title}`;
    document.title = title;
    document.body.classList.add("server");
    const heading = document.querySelector(".top h1");
    if (heading !== null) {
      heading.textContent = title;
    }
    const token = takeToken();
    if (token === "") {
      say(TEXT.server.noToken);
      return;
    }
    void new ServerPage(root, token, say).start();
    return;
  }
  const watch = (token: string): void => {
    say("");
    new LivePage(root, token).start();
  };
  const isActivity = location.pathname === "/" && new URLSearchParams(location.search).has("frame_id");
  if (isActivity) {
    document.body.classList.add("activity");
    void startActivity(document.body, say, watch);
    return;
  }
  const token = takeToken();
  if (token === "") {
    say(TEXT.noToken);
    return;
  }
  watch(token);
}

main();
